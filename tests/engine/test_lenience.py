"""core.overrule / core.trusting: a check a newer version made stricter refuses a move entered now,
and lets a stored one stand (the service replays a stored table's refused move inside
``trusting``). Checks that leave nothing to carry out keep refusing either way."""

from __future__ import annotations

import pytest

from scorekeeper.engine import RULES
from scorekeeper.engine.core import RuleViolation, overrule, trusting
from tests.engine import test_mousel as mousel
from tests.engine import test_mulatschak as mulat

MULLE = RULES["mulle"]


def mulle_dealt() -> object:
    state = MULLE.new(["Anna", "Bo"], {}, "adjudicate")
    return MULLE.apply(state, {"type": "deal", "dealer": 0, "table": ["4H", "9S", "KC", "7D"]})


def test_overrule_raises_outside_trusting_and_notes_inside() -> None:
    verdict = RuleViolation("X-1", "no")
    with pytest.raises(RuleViolation):
        overrule(verdict)
    with trusting() as noted:
        overrule(verdict)
        with trusting() as inner:  # nested: the inner one notes its own
            overrule(verdict)
    assert noted == [verdict] and inner == [verdict]
    with pytest.raises(RuleViolation):
        overrule(verdict)


def test_mulle_a_capture_refused_now_stands_when_trusted() -> None:
    state = mulle_dealt()
    move = {"type": "play", "player": 1, "card": "2H", "capture": ["4H"]}
    with pytest.raises(RuleViolation) as refused:
        MULLE.apply(state, move)
    assert refused.value.rule == "MULLE-CAP-4"
    with trusting() as noted:
        after = MULLE.apply(state, move)
    assert [v.rule for v in noted] == ["MULLE-CAP-4"]
    data = MULLE.to_json(after)
    assert data["table"] == ["9S", "KC", "7D"] and data["to_act"] == 0
    assert data["last_move"]["capture"] == ["4H"] and data["last_move"]["grouping"] is None


def test_mulle_a_card_not_on_the_table_is_refused_even_when_trusted() -> None:
    with trusting() as noted, pytest.raises(RuleViolation) as refused:
        MULLE.apply(mulle_dealt(), {"type": "play", "player": 1, "card": "3C", "capture": ["QS"]})
    assert refused.value.rule == "MULLE-TURN-2" and noted == []


def test_kasino_a_capture_refused_now_stands_when_trusted() -> None:
    kasino = RULES["kasino"]
    state = kasino.apply(kasino.new(["Anna", "Bo"], {}, "adjudicate"),
                         {"type": "deal", "dealer": 0, "table": ["4H", "9S", "KC", "7D"]})
    move = {"type": "play", "player": 1, "card": "2H", "capture": ["4H"]}
    with pytest.raises(RuleViolation):
        kasino.apply(state, move)
    with trusting() as noted:
        after = kasino.apply(state, move)
    assert [v.rule for v in noted] == ["KASINO-CAP-4"]
    assert "4H" not in kasino.to_json(after)["table"]


def test_mulatschak_a_duty_breach_stands_when_trusted() -> None:
    s = mulat.run(mulat.to_play(), mulat.hand(2, "KS 7S AE OL 9H"), mulat.play(1, "9S"))
    with pytest.raises(RuleViolation):
        mulat.R.apply(s, mulat.play(2, "AE"))
    with trusting() as noted:
        after = mulat.R.apply(s, mulat.play(2, "AE"))
    assert [v.rule for v in noted] == ["MULAT-PLAY-3"]
    assert mulat.deal(after)["to_act"] == 3


def test_mousel_the_turned_up_card_stands_when_trusted_a_card_seen_twice_never() -> None:
    m = mousel
    state = m.run(m.new(), m.deal(m.D), m.turn("KS"), m.take(m.A), m.ex(m.A, 0), m.ex(m.B, 0), m.ex(m.C, 0),
                  m.ex(m.D, 0), m.discard(m.A), *m.plays((m.A, "AH")))
    taken = m.plays((m.B, "KS"))[0]
    assert m.refused(state, taken).rule == "MOUSEL-COMP-1"
    with trusting() as noted:
        m.R.apply(state, taken)
    assert [v.rule for v in noted] == ["MOUSEL-COMP-1"]
    with trusting() as noted, pytest.raises(RuleViolation):
        m.R.apply(state, m.plays((m.B, "AH"))[0])  # already played
