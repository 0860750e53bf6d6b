"""The Mousel rules object: set-up, options, and events dispatched to their phase's handler."""

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
)
from scorekeeper.engine.messages import M
from scorekeeper.engine.mousel.deal import (
    on_deal,
    on_discard,
    on_end,
    on_exchange,
    on_fold,
    on_leave,
    on_look,
    on_refuse,
    on_take,
    on_turn_up,
)
from scorekeeper.engine.mousel.play import on_play, on_verdict
from scorekeeper.engine.mousel.present import _describe, _hints, _leaders, _to_json
from scorekeeper.engine.mousel.state import MouselState, Opts, Session, Status
from scorekeeper.engine.mousel.tally import on_deal_result
from scorekeeper.engine.tricks.ledger import Book
from scorekeeper.engine.vocabulary import ALIASES, canonical


class Mousel(BaseRules):
    id: ClassVar[str] = "mousel"
    name: ClassVar[str] = "Mousel"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 7
    player_rule: ClassVar[str | None] = "MOUSEL-COMP-3"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("52", False, "MOUSEL-OPT-52", "Full 52-card pack (needed for 6 or 7 players)"),
        OptionSpec("last_in_order", False, "MOUSEL-OPT-LAST-IN-ORDER",
                   "The player who must play is the taker's right-hand neighbour; no deferred turn"),
        OptionSpec("reshuffle", False, "MOUSEL-OPT-RESHUFFLE",
                   "Reshuffle the thrown-away cards when the stock runs out during exchanges"),
        OptionSpec("keep_trumpcard", False, "MOUSEL-OPT-KEEP-TRUMPCARD",
                   "The taker may not throw away the turned-up trump card"),
        OptionSpec("dealer_must_take", False, "MOUSEL-OPT-DEALER-MUST-TAKE",
                   "The dealer must accept the last card of the stock (no void deals)"),
        OptionSpec("round_largest", False, "MOUSEL-OPT-ROUND-LARGEST",
                   "Uneven shares: remainders by largest fraction instead of carried over"),
        OptionSpec("bust", False, "MOUSEL-OPT-BUST", "A player who cannot pay in full is out"),
        OptionSpec("stack", 20, "MOUSEL-OPT-BUST", "Tokens each player brings (with the bust rule)",
                   kind="int", minimum=1, maximum=100_000),
        OptionSpec("end_refund", False, "MOUSEL-OPT-END-REFUND",
                   "At the end the pot goes back to whoever paid the last penalties"),
        OptionSpec("end_lastdeal", False, "MOUSEL-OPT-END-LASTDEAL",
                   "The last deal is announced and played without penalties"),
    )

    # ---- set-up

    def new(self, players: Sequence[str], options: Mapping[str, Any], mode: Mode = "adjudicate") -> MouselState:
        self.check_players(players)
        if options.get("teams") if isinstance(options, Mapping) else False:
            raise SetupError("MOUSEL-COMP-3", M("Mousel has no partnerships"))
        raw = self.parse_options(options, len(players))
        opts = Opts(pack52=raw["52"], last_in_order=raw["last_in_order"], reshuffle=raw["reshuffle"],
                    keep_trumpcard=raw["keep_trumpcard"], dealer_must_take=raw["dealer_must_take"],
                    round_largest=raw["round_largest"], bust=raw["bust"], stack=raw["stack"],
                    end_refund=raw["end_refund"], end_lastdeal=raw["end_lastdeal"])
        n = len(players)
        if n * n + 1 > opts.pack_size:
            raise SetupError("MOUSEL-COMP-3",
                             M("%(n)s players need %(value)s cards plus a turn-up; the 32-card pack has 32 (use the 52-card pack option for 6 or 7 players)", n=n, value=n * n), players=n)
        if mode not in ("adjudicate", "tally"):
            raise SetupError(None, M("unknown mode %(mode)s", mode=repr(mode)))
        book = Book.opening(n)
        seated: Status = "in"
        status: tuple[Status, ...] = (seated,) * n
        session = Session(book, status, history=((0, 0, book.balances),), pot_payers=(0,) * n)
        return MouselState(tuple(players), opts, mode, session)

    # ---- events

    def apply(self, state: MouselState, event: Mapping[str, Any]) -> MouselState:
        handler, event = DISPATCH.route(event, state.mode)
        if state.session.end is not None:
            raise RuleViolation("MOUSEL-END-2", M("the session has ended; undo to reopen it"))
        return handler(state, event)

    def outcome(self, state: MouselState) -> Outcome | None:
        if state.end is None:
            return None
        return Outcome(_leaders(state), M("the session has ended; best balance wins"), "MOUSEL-END-2")

    def hints(self, state: MouselState) -> list[Event]:
        return _hints(state)

    def to_json(self, state: MouselState) -> JSON:
        return _to_json(state)

    def describe(self, event: Mapping[str, Any], players: Sequence[str]) -> str:
        return _describe(canonical(self.id, event), players)


DISPATCH = Dispatch[MouselState]("Mousel", {
    "deal": on_deal, "look": on_look, "turn_up": on_turn_up, "take": on_take, "refuse": on_refuse,
    "exchange": on_exchange, "fold": on_fold, "discard": on_discard, "play": on_play,
    "confirm": on_verdict, "dismiss": on_verdict, "leave": on_leave,
    "end_session": on_end,
}, {"deal_result": on_deal_result, "leave": on_leave, "end_session": on_end}, aliases=ALIASES["mousel"])
