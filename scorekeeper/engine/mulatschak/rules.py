"""The Mulatschak rules object: set-up, options, and events dispatched to their phase's handler."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from scorekeeper.engine.core import (
    JSON,
    BaseRules,
    Dispatch,
    Event,
    Mode,
    OptionSpec,
    Outcome,
    RuleViolation,
    SetupError,
    common_json,
    evolve,
)
from scorekeeper.engine.mulatschak.bidding import (
    on_bid,
    on_collapse,
    on_cut,
    on_dealer,
    on_hand,
    on_hold,
    on_muli,
    on_pass,
    on_stay,
    on_trump,
)
from scorekeeper.engine.mulatschak.exchange import on_bridge_cards, on_exchange
from scorekeeper.engine.mulatschak.play import on_play, on_resolve
from scorekeeper.engine.mulatschak.present import _deal_json, _describe, _hints
from scorekeeper.engine.mulatschak.state import (
    BID_LIMIT,
    START,
    STAY_LIMIT,
    M,
    MulState,
    Opts,
    _fresh_deal,
)
from scorekeeper.engine.mulatschak.tally import on_deal_result


class Mulatschak(BaseRules):
    id: ClassVar[str] = "mulatschak"
    name: ClassVar[str] = "Mulatschak"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    player_rule: ClassVar[str | None] = "MULAT-COMP-4"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("pack36", False, "MULAT-OPT-PACK36", "36-card pack (sixes in Herz, Laub, Eichel)"),
        OptionSpec("no_stichzwang", False, "MULAT-OPT-NO-STICHZWANG", "No duty to beat the trick"),
        OptionSpec("muli_breaker", False, "MULAT-OPT-MULI-BREAKER", "Failed Muli: only the breaker gains"),
        OptionSpec("stayhome_flat", False, "MULAT-OPT-STAYHOME-FLAT", "Staying home costs 1 even when doubled"),
        OptionSpec("stayhome_free", False, "MULAT-OPT-STAYHOME-FREE", "Staying home costs nothing"),
        OptionSpec("allpass_redeal", False, "MULAT-OPT-ALLPASS-REDEAL", "All pass: next dealer redeals"),
        OptionSpec("collapse_optional", False, "MULAT-OPT-COLLAPSE-OPTIONAL", "Declaring a weak hand is optional"),
        OptionSpec("collapse_cap", False, "MULAT-OPT-COLLAPSE-CAP", "Collapses in a row double only once"),
        OptionSpec("no_knock", False, "MULAT-OPT-NO-KNOCK", "No knocking"),
        OptionSpec("exch_limit", 5, "MULAT-OPT-EXCH-LIMIT", "Most cards one player may exchange (5 = no limit)",
                   kind="int", minimum=0, maximum=5),
        OptionSpec("reshuffle", False, "MULAT-OPT-RESHUFFLE", "Reshuffle the thrown cards when the stock runs out"),
        OptionSpec("hold_muli", False, "MULAT-OPT-HOLD-MULI", "The dealer may hold a Muli bid in turn"),
        OptionSpec("weli_weak", False, "MULAT-OPT-WELI-WEAK", "The Weli counts as low for the collapse"),
    )

    # -- set-up --------------------------------------------------------------------------------

    def new(self, players: Sequence[str], options: Mapping[str, Any], mode: Mode = "adjudicate") -> MulState:
        self.check_players(players)
        if options.get("teams") if isinstance(options, Mapping) else False:
            raise SetupError("MULAT-COMP-4", M("in Mulatschak everyone plays for themselves"))
        parsed = self.parse_options(options, len(players))
        parsed.pop("teams", None)
        opts = Opts(**parsed)
        if opts.stayhome_flat and opts.stayhome_free:
            raise SetupError("MULAT-OPT-STAYHOME-FREE", M("staying home cannot be both flat and free"))
        if mode not in ("adjudicate", "tally"):
            raise SetupError(None, M("unknown mode %(mode)s", mode=repr(mode)))
        n = len(players)
        state = MulState(tuple(players), opts, mode, (START,) * n, dealer=0)
        return state if mode == "tally" else evolve(state, deal=_fresh_deal(state, 1, 0, 0))

    # -- dispatch --------------------------------------------------------------------------------

    def apply(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        handler, event = DISPATCH.route(event, state.mode)
        if state.over:
            raise RuleViolation("MULAT-END-1", M("the game is over; undo the last entry to correct it"))
        new = handler(state, event)
        return new if new.scored or not state.scored else evolve(new, scored=())

    # -- reading the state -----------------------------------------------------------------------

    def outcome(self, state: MulState) -> Outcome | None:
        if not state.winner:
            return None
        winner: int | list[int] = state.winner[0] if len(state.winner) == 1 else list(state.winner)
        rule = "MULAT-END-2" if sum(1 for s in state.scores if s <= 0) > 1 else "MULAT-END-1"
        return Outcome(winner, M("reached 0 from 21"), rule)

    def hints(self, state: MulState) -> list[Event]:
        if state.over or state.deal is None:
            return [] if state.over else [{"type": "deal_result"}]
        return _hints(state, state.deal)

    def to_json(self, state: MulState) -> JSON:
        deal = state.deal
        winner: int | list[int] | None = None
        if state.winner:
            winner = state.winner[0] if len(state.winner) == 1 else list(state.winner)
        to_act = None if state.over or deal is None else deal.to_act
        data = common_json(state.scores, state.over, winner, to_act)
        data.update(
            mode=state.mode,
            phase="over" if state.over else ("tally" if deal is None else deal.phase),
            dealer=state.dealer,
            start=START,
            sheet=[row.to_json() for row in state.sheet],
            proposals=[p.to_json() for p in state.proposals],
            limits={"bid": BID_LIMIT, "stay": STAY_LIMIT},
            deal=None if deal is None else _deal_json(state, deal),
        )
        return data

    def describe(self, event: Mapping[str, Any], players: Sequence[str]) -> str:
        return _describe(event, players)


DISPATCH = Dispatch[MulState]("Mulatschak", {
    "dealer": on_dealer,
    "cut": on_cut,
    "knock": on_cut,
    "hand": on_hand,
    "collapse": on_collapse,
    "muli": on_muli,
    "bid": on_bid,
    "pass": on_pass,
    "hold": on_hold,
    "trump": on_trump,
    "join": on_stay,
    "stay_home": on_stay,
    "exchange": on_exchange,
    "bridge_cards": on_bridge_cards,
    "play": on_play,
    "confirm": on_resolve,
    "dismiss": on_resolve,
}, {
    "dealer": on_dealer,
    "deal_result": on_deal_result,
})
