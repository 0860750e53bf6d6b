"""The Mousel controls: between deals, the turn-up offer, exchanges and folds, the card picker, tally mode."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.engine.base import RuleViolation
from scorekeeper.engine.mousel import Mousel, MouselState
from scorekeeper.localize import gettext as _
from scorekeeper.localize import localize, ngettext
from scorekeeper.web.forms import whole_number
from scorekeeper.web.views.mousel.sheet import end_words
from scorekeeper.web.views.mousel.words import pack_codes


def between(state: Mapping[str, Any], raw: MouselState, rules: Mousel, names: Sequence[str]) -> dict[str, Any]:
    """Between deals: the next deal (adjudicate), a player leaving, and stopping with a dry run of
    the end split and the settle-up, so the table sees what stopping now would mean."""
    seated = [p for p, s in enumerate(state["status"]) if s == "in"]
    first = state["next_dealer"] is None
    dealer = state["next_dealer"] if not first else seated[0]
    try:
        ended = localize(rules.to_json(rules.apply(raw, {"type": "end_session"})), names)
        stop = end_words(ended["end"], names) if ended["end"] else None
    except RuleViolation:
        stop = None
    return {
        "number": state["deals_played"] + 1,
        "first": first,
        "dealer": dealer,
        "dealer_name": names[dealer],
        "dealers": [{"seat": p, "name": names[p], "current": p == dealer} for p in seated] if first else [],
        "can_last": state["options"]["end_lastdeal"] and not state["last_announced"],
        "leavers": [{"seat": p, "name": names[p]} for p in seated] if len(seated) > 2 else [],
        "stop": stop,
        "pot": state["pot"],
        "refund": state["options"]["end_refund"],
    }


def controls(state: Mapping[str, Any], raw: MouselState, names: Sequence[str],
             hints: list[dict[str, Any]]) -> dict[str, Any] | None:
    deal = state["deal"]
    phase = state["phase"]
    p = state["to_act"]
    base: dict[str, Any] = {"phase": phase, "player": p, "name": names[p] if p is not None else ""}
    if phase == "turn_up":
        return {**base, "unseen": unseen(state, raw, None)}
    if phase == "offer":
        can_refuse = any(h["type"] == "refuse" for h in hints)
        why = None
        if not can_refuse:
            why = {"text": _("The last card of the stock: the dealer must take it."),
                   "rule": "MOUSEL-OPT-DEALER-MUST-TAKE"}
        return {**base, "card": deal["turned"], "blind": deal["blind_take"], "can_refuse": can_refuse, "why": why,
                "look": any(h["type"] == "look" for h in hints)}
    if phase == "exchange":
        return {**base, **exchange_controls(state, raw, names, hints)}
    if phase == "discard":
        return base
    if phase == "play":
        active = deal["active"]
        return {**base, "unseen": unseen(state, raw, p),
                "players": [{"seat": s, "name": names[s], "checked": s == p} for s in active]}
    return None


def exchange_controls(state: Mapping[str, Any], raw: MouselState, names: Sequence[str],
                      hints: list[dict[str, Any]]) -> dict[str, Any]:
    deal = state["deal"]
    p = state["to_act"]
    name = names[p]
    taker = p == deal["taker"]
    counts = sorted(h["count"] for h in hints if h["type"] == "exchange" and h["player"] == p)
    can_fold = any(h["type"] == "fold" for h in hints)
    hand = deal["hand_size"] + (1 if taker else 0)
    why_fold = None
    if not can_fold:
        if taker:
            why_fold = {"text": _("%(name)s took the trump card and can never fold.", name=name),
                        "rule": "MOUSEL-EXCH-2"}
        else:
            rule = "MOUSEL-OPT-LAST-IN-ORDER" if state["options"]["last_in_order"] else "MOUSEL-EXCH-3"
            why_fold = {"text": _("Everyone else has folded, so %(name)s must play against the taker.", name=name),
                        "rule": rule}
    why_count = None
    most = counts[-1] if counts else 0
    if most < hand:
        if taker and state["options"]["keep_trumpcard"] and most == deal["hand_size"]:
            why_count = {"text": _("%(name)s must keep the turned-up card.", name=name),
                         "rule": "MOUSEL-OPT-KEEP-TRUMPCARD"}
        else:
            why_count = {"text": ngettext("Only %(num)s card left in the stock.", "Only %(num)s cards left in the stock.",
                                          most), "rule": "MOUSEL-EXCH-5"}
    buttons = []
    for k in counts:
        label = _("stand pat") if k == 0 else str(k)
        spoken = (_("%(name)s stands pat", name=name) if k == 0 else
                  ngettext("%(name)s exchanges %(num)s card", "%(name)s exchanges %(num)s cards", k, name=name))
        buttons.append({"count": k, "label": label, "spoken": spoken})
    return {"counts": buttons, "can_fold": not taker, "fold_allowed": can_fold, "why_fold": why_fold,
            "why_count": why_count, "stock": deal["stock"], "hand": hand, "taker": taker,
            "fold_spoken": _("%(name)s folds", name=name)}


def unseen(state: Mapping[str, Any], raw: MouselState, player: int | None) -> dict[str, int]:
    """The picker's cards: 1 where the card can still come from ``player`` (or be turned up),
    0 where it is out: played, refused and set aside, or the trump card in the taker's hand."""
    deal = state["deal"]
    gone = set(deal["set_aside"])
    for t in deal["tricks"]:
        gone.update(c["card"] for c in t["cards"])
    gone.update(c["card"] for c in deal["current_trick"])
    trump_card = deal["trump_card"]
    # Only the taker, or a player who drew from a stock the taker's thrown cards were reshuffled into.
    if trump_card and (player is None or raw.deal is None or not raw.deal.may_hold_trump_card(player)):
        gone.add(trump_card)
    return {code: 0 if code in gone else 1 for code in pack_codes(state)}


def tally(state: Mapping[str, Any], names: Sequence[str], args: Mapping[str, list[str]]) -> dict[str, Any]:
    seated = [p for p, s in enumerate(state["status"]) if s == "in"]
    n = len(seated)
    first = state["next_dealer"] is None
    dealer = state["next_dealer"] if not first else seated[0]
    tricks = args.get("tricks:intlist", [])
    taker = args.get("taker:int", [])
    rows = []
    for p, name in enumerate(names):
        t = (whole_number(tricks[p]) or 0) if len(tricks) == len(names) else 0
        rows.append({"seat": p, "name": name, "in": p in seated, "tricks": t,
                     "taker": taker == [str(p)], "folded": str(p) in args.get("folded:intlist", []),
                     "revoke": str(p) in args.get("revokes:intlist", []),
                     "spoken": _("Tricks won by %(name)s", name=name)})
    return {
        "number": state["deals_played"] + 1,
        "first": first,
        "dealer": names[dealer],
        "dealers": [{"seat": p, "name": names[p], "current": str(p) == (args.get("dealer:int") or [str(dealer)])[-1]}
                    for p in seated] if first else [],
        "players": rows,
        "hand_size": n,
        "tricks_range": list(range(n + 1)),
        "can_last": state["options"]["end_lastdeal"] and not state["last_announced"],
        "can_void": not state["options"]["dealer_must_take"],
    }
