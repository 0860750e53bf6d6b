"""The controls of each Mulatschak phase (cut, bidding, trumps, stay home, exchange, play) and tally mode:
which cards and choices a phone offers, greyed with the rule that forbids them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import url_for
from markupsafe import Markup, escape

from scorekeeper.cards import GERMAN_RANKS, GERMAN_SUITS, Card
from scorekeeper.engine.mulatschak import BREACH_RULES, MulState, stay_home_cost
from scorekeeper.engine.tricks import check_play
from scorekeeper.localize import gettext as _
from scorekeeper.web.forms import whole_number
from scorekeeper.web.views.mulatschak.terms import (
    _card_word,
    maybe_suit,
    suit_info,
    term,
    term_text,
)


def _pack_codes(raw: MulState) -> list[str]:
    ranks = GERMAN_RANKS if raw.opts.pack36 else GERMAN_RANKS[:-1]
    return [r + s for s in GERMAN_SUITS for r in ranks if not (r == "6" and s == "S")] + ["W"]


def _gone_for(raw: MulState, player: int | None) -> set[str]:
    """Cards that cannot be with ``player`` (played, thrown away, or known to be elsewhere)."""
    deal = raw.deal
    if deal is None:
        return set()
    gone = {str(c) for c in deal.all_played()}
    gone.update(str(c) for c, holder in deal.owners if holder != player or player is None)
    if player is not None:   # since a reshuffle: only its last holder or who drew from the new stock
        gone.update(str(c) for c, who in deal.reach if player not in who and deal.owner(c) is None)
    return gone


def unseen(raw: MulState, player: int | None) -> dict[str, int]:
    gone = _gone_for(raw, player)
    out = {code: 0 if code in gone else 1 for code in _pack_codes(raw)}
    out["6S"] = 0   # the Schellen-6 is the Weli: tapped as W
    return out


def ranks(raw: MulState) -> tuple[str, ...]:
    return GERMAN_RANKS if raw.opts.pack36 else GERMAN_RANKS[:-1]


def grid(raw: MulState, gone: set[str], suits: Sequence[str] = GERMAN_SUITS,
         weli_first: bool = False) -> list[dict[str, Any]]:
    """Rows of card buttons, one per suit (the Weli on its own), for one-tap entry."""
    rows = []
    for s in suits:
        codes = [r + s for r in ranks(raw) if not (r == "6" and s == "S")]
        rows.append({"label": suit_info(s)["name"], "cards": [{"code": c, "gone": c in gone} for c in codes]})
    weli = {"label": "Weli", "cards": [{"code": "W", "gone": "W" in gone}]}
    return [weli] + rows if weli_first else rows + [weli]


def controls(state: Mapping[str, Any], raw: MulState, names: Sequence[str], seat: int | None,
             hints: list[dict[str, Any]], args: Mapping[str, list[str]], table_id: str) -> dict[str, Any] | None:
    deal = state["deal"]
    p = deal["to_act"]
    phase = deal["phase"]
    base: dict[str, Any] = {"phase": phase, "player": p, "name": names[p] if p is not None else ""}
    if phase == "cut":
        return {**base, **cut_controls(state, raw, names)}
    if phase == "bidding":
        return {**base, **bid_controls(state, raw, names, seat, hints)}
    if phase == "trump":
        return {**base, **trump_controls(state, raw, names, args, table_id)}
    if phase == "stay":
        return {**base, **stay_controls(state, raw, hints)}
    if phase == "exchange":
        return {**base, **exchange_controls(state, raw, hints)}
    if phase == "play":
        return {**base, **play_controls(state, raw, hints)}
    return None


def cut_controls(state: Mapping[str, Any], raw: MulState, names: Sequence[str]) -> dict[str, Any]:
    deal = state["deal"]
    first = not state["sheet"] and deal["number"] == 1 and deal["collapses"] == 0
    return {
        "dealers": [{"seat": p, "name": n, "current": p == deal["dealer"]} for p, n in enumerate(names)]
        if first else [],
        "knock": not raw.opts.no_knock,
    }


def bid_controls(state: Mapping[str, Any], raw: MulState, names: Sequence[str], seat: int | None,
                 hints: list[dict[str, Any]]) -> dict[str, Any]:
    deal = state["deal"]
    p = deal["to_act"]
    legal = {h["tricks"] for h in hints if h["type"] == "bid" and h.get("player") == p}
    score = state["scores"][p]
    limit = state["limits"]["bid"]
    buttons = []
    for t in range(1, 6):
        label = term("Muli") if t == 5 else Markup(escape(str(t)))
        spoken = (_("%(name)s bids %(what)s", name=names[p], what=term_text("Muli")) if t == 5
                  else _("%(name)s bids %(n)s", name=names[p], n=t))
        buttons.append({"tricks": t, "label": label, "spoken": spoken, "legal": t in legal})
    why = None
    if score <= limit:
        why = {"text": _("%(name)s has %(n)s points (5 or less) and may only pass.", name=names[p], n=score),
               "rule": "MULAT-BID-7"}
    elif not legal:
        why = {"text": _("Nobody can bid over a Muli."), "rule": "MULAT-BID-5"}
    elif min(legal) > 1:
        why = {"text": _("A bid must be at least %(n)s.", n=min(legal)), "rule": "MULAT-BID-3"}
    can_hold = any(h["type"] == "hold" for h in hints)
    # "mit mir" is the dealer's word: only on the dealer's own phone, or on a phone without a seat.
    hold = can_hold and (seat is None or seat == deal["dealer"])
    weak = [h for h in hints if h["type"] == "collapse"]
    muli = [{"seat": h["player"], "name": names[h["player"]],
             "spoken": _("%(name)s calls Muli out of turn", name=names[h["player"]])}
            for h in hints if h["type"] == "muli"]
    return {
        "bids": buttons, "why": why, "hold": hold,
        "hold_spoken": _("%(name)s: %(what)s, takes the bid of %(n)s", name=names[p], what=term_text("mit mir"),
                         n=deal["high_bid"]),
        "pass_spoken": _("%(name)s: %(what)s", name=names[p], what=term_text("weiter")),
        "high": deal["high_bid"],
        "weak": [{"seat": h["player"], "name": names[h["player"]], "cards": h["cards"]} for h in weak],
        "muli": muli,
        "collapse": collapse_form(state, raw, names, seat) if not deal["bids"] else None,
    }


def collapse_form(state: Mapping[str, Any], raw: MulState, names: Sequence[str], seat: int | None) -> dict[str, Any]:
    """Only low cards can be in a weak hand: the picker offers 10 and below (and the Weli when it
    counts as low at this table)."""
    low = tuple(r for r in ranks(raw) if r not in ("A", "K", "O", "U"))
    return {"players": [{"seat": p, "name": n, "checked": p == seat} for p, n in enumerate(names)],
            "unseen": unseen(raw, seat), "ranks": low, "suits": GERMAN_SUITS, "weli": raw.opts.weli_weak}


def trump_controls(state: Mapping[str, Any], raw: MulState, names: Sequence[str], args: Mapping[str, list[str]],
                   table_id: str) -> dict[str, Any]:
    deal = state["deal"]
    p = deal["to_act"]
    suits = []
    for s in GERMAN_SUITS:
        info = suit_info(s)
        note = _("×2, everyone plays") if s == "H" else ""
        suits.append({**info, "note": note})
    packerl: dict[str, Any] | None = None
    can_delay = not deal["muli"] and state["scores"][p] > state["limits"]["stay"] and raw.opts.exch_limit >= 5
    if can_delay:
        chosen = (args.get("packerl") or [""])[-1].upper()
        packerl = {"suits": [{**suit_info(s), "url": url_for("play.sheet", table_id=table_id, packerl=s)}
                             for s in GERMAN_SUITS],
                   "chosen": suit_info(chosen) if chosen in GERMAN_SUITS else None,
                   "stock": deal["stock_available"]}
        if packerl["chosen"]:
            order = [chosen] + [s for s in GERMAN_SUITS if s != chosen]
            packerl["order"] = order
            packerl["unseen"] = unseen(raw, None)
            packerl["ranks"] = ranks(raw)
            packerl["weli_gone"] = packerl["unseen"].get("W", 1) == 0
    collapse = collapse_form(state, raw, names, None) if raw.deal and raw.deal.muli_out_of_turn else None
    return {"suits": suits, "packerl": packerl, "collapse": collapse}


def stay_controls(state: Mapping[str, Any], raw: MulState, hints: list[dict[str, Any]]) -> dict[str, Any]:
    deal = state["deal"]
    p = deal["to_act"]
    can_home = any(h["type"] == "stay_home" for h in hints)
    why = None
    if not can_home:
        if state["scores"][p] <= state["limits"]["stay"]:
            why = {"text": _("3 points or less: must play."), "rule": "MULAT-STAY-3"}
        else:
            why = {"text": _("Everyone else stayed home: the last one must play."), "rule": "MULAT-STAY-4"}
    return {"can_home": can_home, "why": why, "cost": stay_home_cost(raw.opts, deal["multiplier"]),
            "home_spoken": term_text("daheim bleiben")}


def exchange_controls(state: Mapping[str, Any], raw: MulState, hints: list[dict[str, Any]]) -> dict[str, Any]:
    deal = state["deal"]
    p = deal["to_act"]
    stock = deal["stock_available"]
    trump = deal["trump"]
    if not deal["exchange_queue"]:   # a Bridge is served: five face down, then face up while trumps
        order = [trump] + [s for s in GERMAN_SUITS if s != trump]
        return {"bridge_cards": True, "stock": stock, "order": order, "unseen": unseen(raw, None),
                "ranks": ranks(raw), "trump": maybe_suit(trump)}
    counts = [h["count"] for h in hints if h["type"] == "exchange"]
    limit = raw.opts.exch_limit
    sau = Card("A", trump)
    hand = raw.deal.current_hand(p) if raw.deal else None
    gone = _gone_for(raw, p)
    has_sau = str(sau) not in gone and (hand is None or sau in hand)
    seven = Card("7", "S")
    has_seven = trump == "S" and str(seven) not in gone and (hand is None or seven in hand)
    return {
        "bridge_cards": False, "stock": stock, "counts": counts,
        "limit": limit if limit < 5 else None,
        "sight": stock >= 1 and limit >= 1,
        "sight_unseen": unseen(raw, None), "ranks": ranks(raw),
        "bridge": stock >= 6 and limit >= 5,
        "sau": has_sau and stock >= 5 and limit >= 4, "sau_card": str(sau),
        "seven": has_seven and stock >= 6 and limit >= 4,
        "trump": maybe_suit(trump),
    }


def play_controls(state: Mapping[str, Any], raw: MulState, hints: list[dict[str, Any]]) -> dict[str, Any]:
    deal = state["deal"]
    p = deal["to_act"]
    hand = raw.deal.current_hand(p) if raw.deal else None
    if hand is None:
        return {"known": False, "grid": grid(raw, _gone_for(raw, p), weli_first=False), "hand": []}
    legal = {h["card"] for h in hints if h["type"] == "play"}
    trick = raw.deal.tricks[-1] if raw.deal and raw.deal.tricks and len(raw.deal.tricks[-1]) < len(raw.deal.active) else ()
    cards = []
    notes: dict[str, list[str]] = {}
    for c in hand:
        code = str(c)
        item = {"code": code, "legal": code in legal, "rule": None}
        if code not in legal and deal["trump"]:
            breach = check_play(hand, [x for _, x in trick], c, deal["trump"], raw.opts.duties)
            if breach is not None:
                item["rule"] = BREACH_RULES[breach.kind]
                notes.setdefault(item["rule"], []).append(_card_word(code))
        cards.append(item)
    why = {"follow": _("must follow suit"), "trump": _("must play a trump"), "head": _("must beat the trick")}
    reasons = [{"rule": rule, "text": _("Not allowed now: %(cards)s — %(why)s.", cards=", ".join(codes),
                                        why=why[next(k for k, v in BREACH_RULES.items() if v == rule)])}
               for rule, codes in notes.items()]
    return {"known": True, "hand": cards, "reasons": reasons, "grid": []}


def extras(state: Mapping[str, Any], raw: MulState, names: Sequence[str], seat: int | None,
           hints: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Entering a hand (optional): from then on that player's cards are checked as they fall."""
    deal = state["deal"]
    if deal["phase"] not in ("bidding", "trump", "stay", "exchange", "play"):
        return None
    players = [{"seat": p, "name": n, "checked": p == (seat if seat is not None else deal["to_act"]),
                "held": deal["cards_held"][p]}
               for p, n in enumerate(names) if deal["decisions"][p] != "home" and p not in deal["bridge_queue"]]
    who = seat if seat is not None else deal["to_act"]
    return {"players": players, "unseen": unseen(raw, who), "ranks": ranks(raw), "suits": GERMAN_SUITS}


# --- tally mode ---------------------------------------------------------------------------------------


def tally(state: Mapping[str, Any], raw: MulState, names: Sequence[str], args: Mapping[str, list[str]]) -> dict[str, Any]:
    n = len(names)

    def picked(key: str) -> list[str]:
        return args.get(key, [])

    tricks = picked("tricks:intlist")
    collapses = sum(v.split().count("collapse") for v in picked("causes:list"))
    return {
        "dealer": names[state["dealer"]],
        "dealers": [{"seat": p, "name": nm, "current": p == state["dealer"]} for p, nm in enumerate(names)]
        if not state["sheet"] else [],
        "players": [{"seat": p, "name": nm, "declarer": picked("declarer:int") == [str(p)],
                     "home": str(p) in picked("home:intlist"), "revoke": str(p) in picked("revokes:intlist"),
                     "tricks": (whole_number(tricks[p]) or 0) if len(tricks) == n else 0}
                    for p, nm in enumerate(names)],
        "bids": [{"n": t, "label": term("Muli") if t == 5 else str(t), "checked": picked("bid:int") == [str(t)]}
                 for t in range(1, 6)],
        "suits": [{**suit_info(s), "checked": picked("trump") == [s]} for s in GERMAN_SUITS],
        "knock": "knock" in " ".join(picked("causes:list")).split(), "can_knock": not raw.opts.no_knock,
        "collapses": collapses,
        "forced": bool(picked("forced:bool")),
        "thrown_in": raw.opts.allpass_redeal,
        "breaker": raw.opts.muli_breaker,
        "limit": state["limits"]["bid"],
    }
