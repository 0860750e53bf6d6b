"""The sentences of the dispute desk and the post-deal review, in the reader's language.

The engine hands over data (a verdict's kind, a line's ``what`` and its facts); each sentence
here is one gettext message with named parameters, so Swedish and German put the words in
their own order. Seats are named by the table's players when there is a table, else
"player 1" (counted from 1, as people count).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.engine.analysis.desk import Line
from scorekeeper.engine.analysis.desk_tricks import CardVerdict, TrickVerdict
from scorekeeper.engine.analysis.review import ReviewLine
from scorekeeper.localize import gettext as _
from scorekeeper.localize import ngettext
from scorekeeper.web import card_label, card_pretty, suit_label


def seat_name(seat: int | None, names: Sequence[str] = ()) -> str:
    if seat is None:
        return ""
    if 0 <= seat < len(names):
        return names[seat]
    return _("player %(n)s", n=seat + 1)


def card_text(code: str | None, pack: str = "french") -> str:
    if not code:
        return ""
    return card_label(code, pack) if pack == "german" else card_pretty(code)


def cards_text(codes: str | Sequence[str], pack: str = "french") -> str:
    items = codes.split() if isinstance(codes, str) else list(codes)
    return " ".join(card_text(c, pack) for c in items) or "—"


def _pack(game: str) -> str:
    return "german" if game == "mulatschak" else "french"


# --- tricks ------------------------------------------------------------------------------------


def card_verdict_text(v: CardVerdict, game: str, names: Sequence[str] = ()) -> str:
    pack = _pack(game)
    who, card = seat_name(v.player, names), card_text(str(v.card), pack)
    suit = suit_label(v.led_suit, pack) if v.led_suit else ""
    held = ", ".join(card_text(str(c), pack) for c in v.evidence)
    if v.kind == "lead":
        return _("%(player)s led %(card)s: any card may be led.", player=who, card=card)
    if v.kind == "followed":
        return _("%(player)s followed %(suit)s with %(card)s.", player=who, suit=suit, card=card)
    if v.kind == "trumped":
        return _("%(player)s could not follow %(suit)s and trumped with %(card)s.", player=who, suit=suit, card=card)
    if v.kind == "discarded":
        return _("%(player)s could not follow %(suit)s and threw %(card)s.", player=who, suit=suit, card=card)
    if v.breach == "follow":
        return _("%(player)s had to follow %(suit)s: played %(card)s while holding %(held)s.",
                 player=who, suit=suit, card=card, held=held)
    if v.breach == "trump":
        return _("%(player)s could not follow %(suit)s and had to trump: played %(card)s while holding %(held)s.",
                 player=who, suit=suit, card=card, held=held)
    return _("%(player)s had to beat %(best)s: played %(card)s while holding %(held)s.",
             player=who, best=card_text(str(v.beating), pack), card=card, held=held)


def winner_text(t: TrickVerdict, names: Sequence[str] = ()) -> str:
    pack = _pack(t.game)
    if t.winner is None or t.winning_card is None:
        return ""
    ranking = " > ".join(t.ranking)
    who, card = seat_name(t.winner, names), card_text(str(t.winning_card), pack)
    if t.by_trump:
        text = _("%(player)s wins with %(card)s: the highest trump takes the trick (%(ranking)s).",
                 player=who, card=card, ranking=ranking)
    else:
        text = _("%(player)s wins with %(card)s: no trump was played, so the highest card of the suit led "
                 "(%(suit)s) takes the trick (%(ranking)s).", player=who, card=card,
                 suit=suit_label(t.led_suit or "", pack), ranking=ranking)
    if t.weli:
        text += " " + _("The Weli is always the second-highest trump, whatever suit is trumps.")
    return text


def trick_json(t: TrickVerdict, names: Sequence[str] = ()) -> dict[str, Any]:
    data = t.to_json()
    data["text"] = winner_text(t, names)
    for item, v in zip(data["verdicts"], t.verdicts, strict=True):
        item["text"] = card_verdict_text(v, t.game, names)
    return data


# --- worked lines (pot, sheet, placements) -----------------------------------------------------


def line_text(line: Line, names: Sequence[str] = (), game: str = "") -> str:  # noqa: C901, PLR0911, PLR0912
    f: Mapping[str, Any] = line.facts
    who = seat_name(line.player, names)
    n = line.amount
    what = line.what
    if what == "pot":
        return _("The pot is %(pot)s tokens; %(n)s tricks were played.", pot=f["pot"], n=f["n"])
    if what == "folded":
        return _("%(player)s folded: no share, no penalty.", player=who)
    if what == "revoke_share":
        return ngettext("%(player)s revoked: the share for %(num)s trick stays in the pot.",
                        "%(player)s revoked: the share for %(num)s tricks stays in the pot.", f["tricks"], player=who)
    if what == "share":
        return ngettext("%(player)s: %(pot)s × %(tricks)s ÷ %(n)s = %(num)s token.",
                        "%(player)s: %(pot)s × %(tricks)s ÷ %(n)s = %(num)s tokens.", n or 0, player=who,
                        pot=f["pot"], tricks=f["tricks"], n=f["n"])
    if what == "share_rounded":
        return ngettext("%(player)s: %(pot)s × %(tricks)s ÷ %(n)s = %(exact)s, paid out as %(num)s token.",
                        "%(player)s: %(pot)s × %(tricks)s ÷ %(n)s = %(exact)s, paid out as %(num)s tokens.", n or 0,
                        player=who, pot=f["pot"], tricks=f["tricks"], n=f["n"], exact=f["exact"])
    if what == "penalty_taker":
        return ngettext("%(player)s took the trump, won %(num)s trick and pays %(amount)s into the next pot.",
                        "%(player)s took the trump, won %(num)s tricks and pays %(amount)s into the next pot.",
                        f["tricks"], player=who, amount=n)
    if what == "penalty_zero":
        return _("%(player)s won no trick and pays %(amount)s into the next pot.", player=who, amount=n)
    if what == "penalty_revoke":
        return _("%(player)s revoked and pays %(amount)s into the next pot.", player=who, amount=n)
    if what == "leftover":
        return ngettext("%(num)s token does not divide and stays in the pot.",
                        "%(num)s tokens do not divide and stay in the pot.", n or 0)
    if what == "next_pot":
        return _("Next pot: %(leftover)s left over + %(penalties)s in penalties + %(antes)s antes = %(amount)s.",
                 leftover=f["leftover"], penalties=f["penalties"], antes=f["antes"], amount=n)
    if what == "multiplier":
        return _("Multiplier ×%(m)s (doublings: %(causes)s).", m=f["m"], causes=f["causes"])
    if what == "sheet":
        change = f"{n or 0:+d}"
        return _("%(player)s: %(change)s (%(why)s), %(before)s → %(after)s.", player=who, change=change,
                 why=sheet_reason(line.rule, f), before=f["before"], after=f["after"])
    if what == "game_over":
        winners = ", ".join(seat_name(int(s), names) for s in str(f["winners"]).split(", ") if s)
        return _("%(players)s reached 0 or below: game over.", players=winners)
    if what == "priority_muggins":
        return _("A muggins pile fits, so %(card)s must go on a muggins pile.", card=card_text(f["card"]))
    if what == "priority_left":
        return _("No muggins pile fits, but the nearest discard pile to the left does: %(card)s must go there.",
                 card=card_text(f["card"]))
    if what == "priority_own":
        return _("%(card)s fits neither a muggins pile nor the nearest discard pile to the left: it goes on "
                 "the player's own pile.", card=card_text(f["card"]))
    if what == "cost":
        return ngettext("A muggins costs %(num)s card: one from each other player still holding cards.",
                        "A muggins costs %(num)s cards: one from each other player still holding cards.", f["cards"])
    if what == "moved":
        return _("The wrongly placed card is moved to a correct place and the turn ends.")
    return what


def sheet_reason(rule: str, f: Mapping[str, Any]) -> str:
    if rule == "MULAT-SCORE-5":
        return _("stayed home")
    if rule == "MULAT-SCORE-9":
        return _("revoke: scored as failed")
    if rule == "MULAT-SCORE-4":
        return _("Muli")
    tricks = f.get("tricks")
    return ngettext("%(num)s trick", "%(num)s tricks", tricks if tricks is not None else 0)


def misar_text(what: str, played: str, must_take: Sequence[Sequence[str]], sweeper: str | None) -> str:
    options = _(" or ").join(cards_text(c) for c in must_take)
    if what == "sweep_owed":
        return _("%(card)s could take the whole table: in misär the tabbe is forced.", card=card_text(sweeper))
    if what == "trail_breaks":
        return _("%(card)s can capture, so it may not trail: it must take %(options)s.", card=card_text(played),
                 options=options)
    if what == "too_small":
        return _("%(card)s must take as much as it can: %(options)s.", card=card_text(played), options=options)
    if what == "trail_ok":
        return _("%(card)s can take nothing here, so trailing it is allowed.", card=card_text(played))
    return _("%(card)s takes a largest capture: the duty to capture is kept.", card=card_text(played))


# --- review lines ------------------------------------------------------------------------------


def review_text(line: ReviewLine, game: str, names: Sequence[str] = ()) -> str:  # noqa: PLR0911
    pack = _pack(game)
    f = line.facts
    who, card = seat_name(line.player, names), card_text(line.card, pack)
    if f.get("held") and line.what in ("mulle", "sweep"):
        held = card_text(str(f["held"]), pack)
        if line.what == "mulle":
            return _("%(player)s played %(card)s (%(points)s) while holding %(held)s (played at #%(seq)s): %(held)s "
                     "could have taken its twin alone, a mulle (%(better)s): %(gain)s more.", player=who, card=card,
                     points=f["played_points"], held=held, seq=f["held_seq"], better=f["points"], gain=line.gain)
        return _("%(player)s played %(card)s (%(points)s) while holding %(held)s (played at #%(seq)s), which could "
                 "have swept the table (%(better)s): %(gain)s more.", player=who, card=card,
                 points=f["played_points"], held=held, seq=f["held_seq"], better=f["points"], gain=line.gain)
    if line.what == "mulle":
        return _("%(player)s played %(card)s and took %(taken)s (%(points)s); taking the twin alone was a mulle "
                 "(%(better)s): %(gain)s more.", player=who, card=card, taken=cards_text(f["taken"]),
                 points=f["played_points"], better=f["points"], gain=line.gain)
    if line.what == "sweep":
        return _("%(player)s played %(card)s and took %(taken)s (%(points)s); %(capture)s swept the table "
                 "(%(better)s): %(gain)s more.", player=who, card=card, taken=cards_text(f["taken"]),
                 points=f["played_points"], capture=cards_text(f["capture"]), better=f["points"], gain=line.gain)
    if line.what == "points":
        return _("%(player)s played %(card)s and took %(taken)s (%(points)s); %(capture)s took more point cards "
                 "(%(better)s): %(gain)s more.", player=who, card=card, taken=cards_text(f["taken"]),
                 points=f["played_points"], capture=cards_text(f["capture"]), better=f["points"], gain=line.gain)
    if line.what == "fewer_points":
        return _("%(player)s played %(card)s and took %(taken)s (%(points)s); %(capture)s was allowed too "
                 "and costs %(better)s: %(gain)s fewer.", player=who, card=card, taken=cards_text(f["taken"]),
                 points=f["played_points"], capture=cards_text(f["capture"]), better=f["points"], gain=line.gain)
    if line.what == "left_sweep":
        capture = cards_text(f["capture"]) if f["capture"] else _("trailing")
        return _("%(player)s played %(card)s and left a table that the next card, %(sweeper)s, swept; "
                 "%(capture)s would have left no sweep: %(gain)s better.", player=who, card=card,
                 sweeper=card_text(f["sweeper"]), capture=capture, gain=line.gain)
    if line.what == "muggins":
        return ngettext("%(player)s put %(card)s in the wrong place (muggins) and was given %(num)s card.",
                        "%(player)s put %(card)s in the wrong place (muggins) and was given %(num)s cards.",
                        line.gain, player=who, card=card)
    should = card_text(str(f["should"]), pack)
    text = _("Trick %(trick)s: %(player)s played %(card)s but held %(should)s, which had to go there.",
             trick=f["trick"], player=who, card=card, should=should)
    if f.get("would_win") is not None and f["would_win"] != f["won_by"]:
        text += " " + _("With it, %(winner)s would have won the trick, not %(actual)s.",
                        winner=seat_name(int(f["would_win"]), names), actual=seat_name(int(f["won_by"]), names))
    if f["status"] == "open":
        return text
    if f["unit"] == "points":
        cost = ngettext("The revoke costs %(num)s point on the sheet.", "The revoke costs %(num)s points on the sheet.",
                        line.gain)
    else:
        cost = ngettext("The revoke costs %(num)s token.", "The revoke costs %(num)s tokens.", line.gain)
    if f["status"] == "dismissed":
        cost = _("The table dismissed it; confirmed, it would have cost %(gain)s.", gain=line.gain)
    return text + " " + cost


def review_json(line: ReviewLine, game: str, names: Sequence[str] = ()) -> dict[str, Any]:
    data = line.to_json()
    data["text"] = review_text(line, game, names)
    return data
