"""Mulatschak screens: a guided deal that follows the table (dealer, cut or knock, unter dem Hund,
bidding, trumps, play or stay home, exchange, five tricks), the sheet from 21 down to 0 with the
doublings of every deal, revoke proposals in words and cards, and tally mode.

Everything the template shows is worked out here from the engine's state (and, where the
engine already knows it, from its hints), so the Jinja stays dumb and the logic is testable.
The Packerl step keeps its chosen suit in the URL (``?packerl=L``) so it works without
JavaScript too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import request, url_for
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from markupsafe import Markup, escape

from scorekeeper.cards import GERMAN_RANKS, GERMAN_SUITS, Card, parse_card
from scorekeeper.engine.mulatschak import START, Mulatschak, MulState
from scorekeeper.engine.tricks import check_play
from scorekeeper.web.forms import whole_number
from scorekeeper.web.views import register
from scorekeeper.web.views.tricks import names_of, proposals

SUIT_CSS = {s: f"g-{s}" for s in GERMAN_SUITS}
BREACH_RULE = {"follow": "MULAT-PLAY-3", "trump": "MULAT-PLAY-4", "head": "MULAT-PLAY-5"}
STEPS = ("cut", "bidding", "trump", "stay", "exchange", "play")


# --- German table terms ---------------------------------------------------------------------------


def _glosses() -> dict[str, str]:
    return {
        "weiter": _("pass"),
        "mit mir": _("I hold: the dealer takes the bid"),
        "Muli": _("all five tricks"),
        "daheim bleiben": _("stay home"),
        "Packerl": _("trumps from the stock"),
        "Sau": _("ace"),
        "Weli": _("always the second-best trump"),
        "Ober": _("over-knave"),
        "Unter": _("under-knave"),
        "unter dem Hund": _("a hand with nothing above the 10: redeal"),
        "Fünf auf die Sau": _("five on the trump ace"),
        "Sechs auf den Siebener": _("six on the Schelle seven"),
    }


def _german_ui() -> bool:
    return str(get_locale() or "en").startswith("de")


def term(word: str) -> Markup:
    """A German table term, marked as German, with its translation beside it (not in German)."""
    german = Markup('<span class="mu-de" lang="de">{}</span>').format(word)
    if _german_ui():
        return german
    return Markup('{} <span class="mu-gloss">({})</span>').format(german, _glosses().get(word, ""))


def term_text(word: str) -> str:
    """The same as plain text, for aria-labels."""
    if _german_ui():
        return word
    return f"{word} ({_glosses().get(word, '')})"


def suit_info(suit: str) -> dict[str, str]:
    """A German suit by name and colour class (never by a French symbol)."""
    from scorekeeper.web import suit_label

    return {"code": suit, "name": suit_label(suit, "german"), "css": SUIT_CSS.get(suit, "")}


def maybe_suit(suit: str | None) -> dict[str, str] | None:
    return suit_info(suit) if suit else None


def _card_word(code: str) -> str:
    from scorekeeper.web import card_label

    return card_label(code, "german")


# --- the view -------------------------------------------------------------------------------------


@register("mulatschak")
def mulatschak_view(ctx: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = ctx["state"]
    raw: MulState = ctx["raw_state"]
    rules: Mulatschak = ctx["rules"]
    table = ctx["table"]
    names: list[str] = list(ctx["players"])
    seat: int | None = ctx["seat"]
    deal: dict[str, Any] | None = state.get("deal")
    book = url_for("rulebook.book", game="mulatschak", table=table.id)
    mu: dict[str, Any] = {
        "post_url": url_for("play.post_event", table_id=table.id),
        "sheet_url": url_for("play.sheet", table_id=table.id),
        "preview_url": url_for("play.preview", table_id=table.id),
        "book": book,
        "terms": {w: term(w) for w in _glosses()},
        "key": key_line(),
        "seats": seats(state, names, seat),
        "steps": steps(state),
        "status": status(state, names),
        "deal": deal_summary(state, names) if deal else None,
        "trick": trick_view(state, names) if deal and deal["tricks"] else None,
        "past_tricks": past_tricks(state, names) if deal and deal["tricks"] else [],
        "sheet": sheet(state, names),
        "chart": chart(state),
        "result": result(state, names) if state["over"] else None,
        "proposals": proposals(state, names, proposal_words, book),
        "pending": sum(1 for p in state["proposals"] if p["status"] == "pending"),
        "controls": None,
        "tally": None,
        "extras": None,
    }
    if ctx["can_write"] and not state["over"]:
        args = _inputs()
        if state["mode"] == "tally":
            mu["tally"] = tally(state, raw, names, args)
        elif deal is not None:
            hints = rules.hints(raw)
            mu["controls"] = controls(state, raw, names, seat, hints, args, table.id)
            mu["extras"] = extras(state, raw, names, seat, hints)
    return {"mu": mu}


def _inputs() -> dict[str, list[str]]:
    """The step's fields: from the query string, or from a refused form (a 422 re-renders the
    sheet in answer to the POST, and nobody should have to fill the form in again)."""
    source = request.form if request.method == "POST" else request.args
    return {key: [v.strip() for v in source.getlist(key) if v.strip()] for key in source}


def key_line() -> list[Markup]:
    return [term(w) for w in ("Sau", "Ober", "Unter", "Weli")]


# --- who is who -------------------------------------------------------------------------------------


def seats(state: Mapping[str, Any], names: Sequence[str], seat: int | None) -> list[dict[str, Any]]:
    deal = state.get("deal")
    rows = []
    for p, name in enumerate(names):
        tags: list[str] = []
        info: dict[str, Any] = {"seat": p, "name": name, "score": state["scores"][p], "me": p == seat,
                                "to_act": p == state["to_act"], "leads": False, "home": False,
                                "declarer": False, "won": None, "tags": tags}
        if deal is not None:
            if p == deal["dealer"]:
                tags.append(_("deals"))
            if deal["phase"] == "cut" and p == deal["cutter"]:
                tags.append(_("cuts"))
            if p == deal["declarer"]:
                info["declarer"] = True
                tags.append(_("declarer"))
            if deal["decisions"][p] == "home":
                info["home"] = True
                tags.append(term_text("daheim bleiben"))
            if deal["phase"] in ("play", "review") and deal["decisions"][p] != "home":
                info["won"] = deal["tricks_won"][p]
            if deal["next_leader"] == p:
                info["leads"] = True
                tags.append(_("leads next"))
        elif p == state["dealer"] and not state["over"]:
            tags.append(_("deals"))
        info["spoken"] = _("%(name)s: %(n)s points", name=name, n=info["score"])
        rows.append(info)
    return rows


def steps(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    deal = state.get("deal")
    if deal is None or state["over"]:
        return []
    labels = {"cut": _("Cut"), "bidding": _("Bidding"), "trump": _("Trumps"), "stay": _("Play or stay home"),
              "exchange": _("Exchange"), "play": _("Tricks")}
    phase = "play" if deal["phase"] == "review" else deal["phase"]
    here = STEPS.index(phase) if phase in STEPS else -1
    return [{"label": labels[s], "current": k == here, "done": k < here} for k, s in enumerate(STEPS)]


def status(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Whose turn it is, in big letters, and a line on what happens now."""
    deal = state.get("deal")
    if state["over"] or deal is None:
        return {"headline": "", "note": ""}
    p = deal["to_act"]
    name = names[p] if p is not None else ""
    phase = deal["phase"]
    if phase == "cut":
        return {"headline": _("%(name)s cuts or knocks", name=name),
                "note": _("%(dealer)s deals; %(name)s sits on the dealer's right.", dealer=names[deal["dealer"]],
                          name=name)}
    if phase == "bidding":
        if deal["duel"]:
            note = _("%(dealer)s held: only %(dealer)s and %(bidder)s bid on.", dealer=names[deal["duel"]["dealer"]],
                     bidder=names[deal["duel"]["displaced"]])
        elif deal["high_bidder"] is not None:
            note = _("Highest bid so far: %(n)s by %(name)s.", n=deal["high_bid"], name=names[deal["high_bidder"]])
        else:
            note = _("%(name)s speaks first; the dealer, %(dealer)s, speaks last.", name=names[deal["forehand"]],
                     dealer=names[deal["dealer"]])
        return {"headline": _("%(name)s bids", name=name), "note": note}
    if phase == "trump":
        return {"headline": _("%(name)s names trumps", name=name), "note": contract_words(deal, names)}
    if phase == "stay":
        return {"headline": _("%(name)s: play along or stay home?", name=name), "note": contract_words(deal, names)}
    if phase == "exchange":
        note = ngettext("%(num)s card left in the stock.", "%(num)s cards left in the stock.",
                        deal["stock_available"])
        if not deal["exchange_queue"] and deal["bridge_queue"]:
            return {"headline": _("%(name)s is dealt the Bridge", name=name), "note": note}
        return {"headline": _("%(name)s exchanges", name=name), "note": note}
    if phase == "play":
        open_trick = deal["tricks"] and deal["tricks"][-1]["winner"] is None
        number = len(deal["tricks"]) + (0 if open_trick else 1)
        if open_trick:
            return {"headline": _("%(name)s plays", name=name), "note": _("Trick %(n)s of 5", n=number)}
        return {"headline": _("%(name)s leads", name=name), "note": _("Trick %(n)s of 5", n=number)}
    if phase == "review":
        return {"headline": _("All five tricks are played"),
                "note": _("Confirm or dismiss the revoke below; then the deal is scored.")}
    return {"headline": "", "note": ""}


def contract_words(deal: Mapping[str, Any], names: Sequence[str]) -> str:
    who = names[deal["declarer"]]
    if deal["forced"]:
        return _("Everyone passed: %(name)s, the dealer, plays for 1 trick.", name=who)
    if deal["muli"]:
        return _("%(name)s plays a Muli: all five tricks, everyone plays.", name=who)
    return ngettext("%(name)s must take %(num)s trick.", "%(name)s must take %(num)s tricks.",
                    deal["contract"], name=who)


def cause_label(cause: str) -> str:
    return {"hearts": _("♥ Herz ×2"), "knock": _("knock ×2"), "collapse": _("collapse ×2")}.get(cause, cause)


def bid_words(call: Mapping[str, Any]) -> Markup:
    if call["call"] == "pass":
        return term("weiter")
    if call["call"] == "hold":
        return Markup("{} · {}").format(term("mit mir"), call["tricks"])
    if call["call"] == "muli" or call["tricks"] == 5:
        return term("Muli")
    return Markup(escape(str(call["tricks"])))


def deal_summary(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    deal = state["deal"]
    lines: list[Markup | str] = []
    cut = deal["cut"]
    cutter = names[deal["cutter"]]
    if cut == "knock":
        lines.append(_("%(name)s knocked: the deal counts double.", name=cutter))
    elif cut == "cut":
        lines.append(_("%(name)s cut.", name=cutter))
    if deal["weli_to"] is not None:
        lines.append(Markup(escape(_("%(name)s kept the Weli.", name=names[deal["weli_to"]]))))
    if deal["collapses"]:
        lines.append(ngettext("Dealt again after %(num)s weak hand (unter dem Hund).",
                              "Dealt again after %(num)s weak hands (unter dem Hund).", deal["collapses"]))
    bids = [{"name": names[c["player"]], "words": bid_words(c)} for c in deal["bids"]]
    trump = maybe_suit(deal["trump"])
    decisions = []
    if deal["declarer"] is not None and deal["trump"]:
        for p, d in enumerate(deal["decisions"]):
            if d == "home":
                decisions.append({"name": names[p], "words": term("daheim bleiben")})
            elif d == "play":
                decisions.append({"name": names[p], "words": Markup(escape(_("plays along")))})
    return {
        "number": deal["number"],
        "dealer": names[deal["dealer"]],
        "lines": lines,
        "bids": bids,
        "declarer": names[deal["declarer"]] if deal["declarer"] is not None else None,
        "contract": contract_words(deal, names) if deal["declarer"] is not None else "",
        "trump": trump,
        "multiplier": deal["multiplier"],
        "causes": [cause_label(c) for c in deal["causes"]],
        "decisions": decisions,
        "exchanges": [exchange_words(e, names) for e in deal["exchanges"]],
        "stock": deal["stock_available"],
        "show_stock": deal["phase"] == "exchange",
    }


def exchange_words(e: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    name = names[e["player"]]
    kind = e["kind"]
    cards: list[str] = list(e["face_up"])
    if kind == "normal":
        text: Markup | str = (_("%(name)s kept all five cards.", name=name) if e["thrown"] == 0 else
                              ngettext("%(name)s exchanged %(num)s card.", "%(name)s exchanged %(num)s cards.",
                                       e["thrown"], name=name))
    elif kind == "sight":
        text = (_("%(name)s took one on sight and kept it:", name=name) if e["kept"] else
                _("%(name)s took one on sight, threw it away and took the next:", name=name))
    elif kind == "bridge":
        text = (_("%(name)s took the Bridge; face up:", name=name) if e["served"] else
                _("%(name)s threw all five for the Bridge (dealt after the others).", name=name))
    elif kind == "sau":
        text = Markup("{}: {}").format(name, term("Fünf auf die Sau"))
    elif kind == "seven":
        text = Markup("{}: {}").format(name, term("Sechs auf den Siebener"))
    else:   # the delayed trump
        text = Markup("{}: {}").format(name, term("Packerl"))
    return {"text": text, "cards": cards}


# --- tricks -----------------------------------------------------------------------------------------


def trick_view(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The trick on the table: the open one, or the last one with its winner until the next lead."""
    deal = state["deal"]
    trick = deal["tricks"][-1]
    winner = trick["winner"]
    winning = _winning_card(trick, deal["trump"]) if trick["cards"] else None
    cards = [{"name": names[c["player"]], "card": c["card"], "lead": k == 0,
              "wins": (c["player"] == winner) if winner is not None else (c["card"] == winning)}
             for k, c in enumerate(trick["cards"])]
    out: dict[str, Any] = {"number": trick["number"], "cards": cards, "winner": None, "next": None}
    if winner is not None:
        out["winner"] = _("Trick %(n)s goes to %(name)s.", n=trick["number"], name=names[winner])
        if deal["next_leader"] is not None:
            out["next"] = _("%(name)s leads the next trick.", name=names[deal["next_leader"]])
    return out


def _winning_card(trick: Mapping[str, Any], trump: str | None) -> str | None:
    from scorekeeper.engine.mulatschak import ORDER
    from scorekeeper.engine.tricks import winning_index

    cards = [parse_card(c["card"], "german") for c in trick["cards"]]
    return str(cards[winning_index(cards, trump, ORDER)])


def past_tricks(state: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    deal = state["deal"]
    return [{"number": t["number"], "cards": [c["card"] for c in t["cards"]],
             "winner": names[t["winner"]] if t["winner"] is not None else None}
            for t in deal["tricks"] if t["winner"] is not None]


# --- the sheet --------------------------------------------------------------------------------------


def _winners(state: Mapping[str, Any]) -> list[int]:
    w = state["winner"]
    if w is None:
        return []
    return list(w) if isinstance(w, list) else [w]


def sheet(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    rows = []
    winners = _winners(state)
    last = len(state["sheet"]) - 1
    for k, r in enumerate(state["sheet"]):
        cells = []
        for p in range(len(names)):
            t = r["tricks"][p]
            home = p in r["home"]
            if home:
                what = term_text("daheim bleiben")
            elif r["declarer"] is None:
                what = ""
            else:
                what = ngettext("%(num)s trick", "%(num)s tricks", t or 0)
            cells.append({"change": r["changes"][p], "total": r["totals"][p], "home": home, "what": what,
                          "declarer": p == r["declarer"], "revoke": p in r["revokes"],
                          "breaker": p == r["breaker"], "winner": k == last and p in winners})
        if r["declarer"] is None:
            bid: Markup | str = _("Thrown in: everyone passed")
        elif r["muli"]:
            bid = term("Muli")
        elif r["forced"]:
            bid = _("%(n)s (everyone passed)", n=r["bid"])
        else:
            bid = str(r["bid"])
        rows.append({
            "deal": r["deal"], "dealer": names[r["dealer"]],
            "declarer": names[r["declarer"]] if r["declarer"] is not None else None,
            "bid": bid, "trump": maybe_suit(r["trump"]), "multiplier": r["multiplier"],
            "causes": [cause_label(c) for c in r["causes"]], "made": r["made"], "cells": cells,
            "spoken": row_words(r, names),
        })
    return {"rows": rows, "start": START, "names": list(names), "winners": winners}


def row_words(r: Mapping[str, Any], names: Sequence[str]) -> str:
    if r["declarer"] is None:
        return _("Deal %(n)s thrown in", n=r["deal"])
    made = _("made it") if r["made"] else _("failed")
    return _("Deal %(n)s: %(name)s bid %(bid)s and %(made)s", n=r["deal"], name=names[r["declarer"]],
             bid=r["bid"], made=made)


def chart(state: Mapping[str, Any]) -> list[list[int]] | None:
    if not state["sheet"]:
        return None
    n = len(state["scores"])
    return [[START] * n] + [list(r["totals"]) for r in state["sheet"]]


def result(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    winners = _winners(state)
    if len(winners) == 1:
        headline = _("%(name)s wins with %(n)s points!", name=names[winners[0]], n=state["scores"][winners[0]])
    else:
        headline = _("%(names)s share the win!", names=names_of(winners, names))
    rule = "MULAT-END-2" if sum(1 for s in state["scores"] if s <= 0) > 1 else "MULAT-END-1"
    return {"headline": headline, "rule": rule}


# --- revokes ----------------------------------------------------------------------------------------


def proposal_words(prop: Mapping[str, Any], deal: Mapping[str, Any] | None, names: Sequence[str]) -> dict[str, Any]:
    """The evidence in plain words: what was played, what it should have been, and the proof."""
    who = names[prop["player"]]
    card, evidence = _card_word(prop["card"]), _card_word(prop["evidence"])
    trump = deal["trump"] if deal else None
    led = None
    if deal and 0 < prop["trick"] <= len(deal["tricks"]):
        first = deal["tricks"][prop["trick"] - 1]["cards"][0]["card"]
        lead_card = parse_card(first, "german")
        led = trump if lead_card.is_weli or lead_card.suit == trump else lead_card.suit
    led_name = suit_info(led)["name"] if led else "?"
    trump_name = suit_info(trump)["name"] if trump else "?"
    kind = prop["kind"]
    if kind == "follow":
        what = _("In trick %(n)s %(name)s played the %(card)s although %(suit)s was led.", n=prop["trick"],
                 name=who, card=card, suit=led_name)
        why = _("%(name)s had to follow suit.", name=who)
    elif kind == "trump":
        what = _("In trick %(n)s %(name)s could not follow %(suit)s and played the %(card)s, not a trump.",
                 n=prop["trick"], name=who, suit=led_name, card=card)
        why = _("%(name)s had to play a trump (%(trump)s).", name=who, trump=trump_name)
    else:
        what = _("In trick %(n)s %(name)s played the %(card)s, which does not beat the trick.", n=prop["trick"],
                 name=who, card=card)
        why = _("%(name)s had to beat the trick if able.", name=who)
    if prop["evidence_trick"] is None:
        proof = _("The %(card)s is in the hand %(name)s entered, so %(name)s held it then.", card=evidence,
                  name=who)
    else:
        proof = _("But %(name)s played the %(card)s later, in trick %(n)s, so %(name)s held it then.", name=who,
                  card=evidence, n=prop["evidence_trick"])
    penalty = (_("If confirmed, %(name)s scores as failed: +10 × the multiplier.", name=who)
               if deal and prop["player"] == deal["declarer"] else
               _("If confirmed, %(name)s scores as if without a trick: +5 × the multiplier.", name=who))
    return {"who": who, "what": what, "why": why, "proof": proof, "penalty": penalty,
            "title": _("Revoke? %(name)s, trick %(n)s", name=who, n=prop["trick"])}


# --- the controls of each phase ---------------------------------------------------------------------


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
    m = deal["multiplier"]
    cost = 0 if raw.opts.stayhome_free else (1 if raw.opts.stayhome_flat else m)
    return {"can_home": can_home, "why": why, "cost": cost,
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
                item["rule"] = BREACH_RULE[breach.kind]
                notes.setdefault(item["rule"], []).append(_card_word(code))
        cards.append(item)
    why = {"follow": _("must follow suit"), "trump": _("must play a trump"), "head": _("must beat the trick")}
    reasons = [{"rule": rule, "text": _("Not allowed now: %(cards)s — %(why)s.", cards=", ".join(codes),
                                        why=why[next(k for k, v in BREACH_RULE.items() if v == rule)])}
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
