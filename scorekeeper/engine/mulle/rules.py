"""The ``Mulle`` rules object: set-up, the event dispatch, and what the screens read (hints, the
JSON state, history lines)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from scorekeeper.cards import Card, parse_card, parse_cards
from scorekeeper.engine.base import (
    JSON,
    MODES,
    BaseRules,
    Event,
    Mode,
    OptionSpec,
    Outcome,
    RuleViolation,
    SetupError,
    common_json,
)
from scorekeeper.engine.capture import (
    count_captures,
    legal_captures,
)
from scorekeeper.engine.core import Dispatch
from scorekeeper.engine.fishing import collector_paused
from scorekeeper.engine.messages import M, Msg, Side
from scorekeeper.engine.mulle.play import on_deal, on_play, plays_left
from scorekeeper.engine.mulle.state import (
    ALL_CARDS,
    HINT_LIMIT,
    PARTNERS,
    TARGET,
    MulleState,
    _move_total,
    _names,
    _sweep_and_mulle,
    _tally_word,
)
from scorekeeper.engine.mulle.tally import on_tally, on_tally_deal


class Mulle(BaseRules):
    id: ClassVar[str] = "mulle"
    name: ClassVar[str] = "Tomelilla Mulle"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    player_rule: ClassVar[str | None] = "MULLE-COMP-2"
    team_rule: ClassVar[str | None] = "MULLE-COMP-2"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("strict_value", False, "MULLE-OPT-STRICT-VALUE",
                   "Strict value: a single card is taken only by value, never by rank alone"),
        OptionSpec("no_last_sweep", False, "MULLE-OPT-NO-LAST-SWEEP",
                   "No sweep point for the last play of a deal"),
        OptionSpec("mulle_alone", False, "MULLE-OPT-MULLE-ALONE",
                   "A twin may only be taken on its own"),
    )

    # --- set-up ---------------------------------------------------------------------------

    def new(self, players: Sequence[str], options: Mapping[str, Any], mode: Mode = "adjudicate") -> MulleState:
        if mode not in MODES:
            raise SetupError(None, M("mode must be one of %(modes)s, not %(mode)s", modes=", ".join(MODES),
                                     mode=repr(mode)))
        self.check_players(players)
        opts = self.parse_options(options, len(players))
        sides = self.sides(options, len(players))
        if sides.count != len(players):
            if len(players) != 4 or sides.teams != PARTNERS:
                raise SetupError("MULLE-COMP-2", M("partnerships are two teams of two with partners "
                                 "sitting opposite: [[0, 2], [1, 3]]"), teams=[list(t) for t in sides.teams])
        zeros = (0,) * sides.count
        return MulleState(
            players=tuple(players), sides=sides, mode=mode,
            strict_value=opts["strict_value"], no_last_sweep=opts["no_last_sweep"],
            mulle_alone=opts["mulle_alone"], scores=zeros, previous=zeros,
            phase="tally" if mode == "tally" else "deal",
            piles=zeros, spades=zeros, deal_points=zeros, sweeps=zeros, mulles=zeros,
        )

    # --- events ---------------------------------------------------------------------------

    def apply(self, state: MulleState, event: Mapping[str, Any]) -> MulleState:
        handler, event = _EVENTS.route(event, state.mode)
        if state.over:
            raise RuleViolation("MULLE-END-3", M("the game is over: %(side)s reached %(target)s",
                                side=self._side_name(state, state.winner), target=TARGET), winner=state.winner)
        return handler(state, event)

    # --- reading the state ----------------------------------------------------------------

    def outcome(self, state: MulleState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(state.winner, M("%(side)s reached %(target)s", side=self._side_name(state, state.winner),
                                       target=TARGET), "MULLE-END-3")

    def hints(self, state: MulleState) -> list[Event]:
        """Every card that could still be played: its trail, then its first HINT_LIMIT captures in
        the solver's order (smallest first, then by card). A crowded table can have tens of
        thousands of captures per card; ``hint_count`` says how many there are in all."""
        if state.phase != "play" or state.to_act is None:
            return []
        with collector_paused():  # thousands of small containers, none in a cycle
            return self._hint_events(state, state.to_act)

    def _hint_events(self, state: MulleState, player: int) -> list[Event]:
        events: list[Event] = []
        # Cards of one rank and value set take the same captures (unless the twin must go alone).
        cache: dict[tuple[str, tuple[int, ...], Card | None], list[list[str]]] = {}
        on_table = set(state.table)
        for card in ALL_CARDS:
            if state.unseen(card) <= 0:
                continue
            code = str(card)
            events.append({"type": "play", "player": player, "card": code, "capture": []})
            alone = card if state.mulle_alone and card in on_table else None
            key = (card.rank, state.scheme.played_values(card), alone)
            captures = cache.get(key)
            if captures is None:
                captures = cache[key] = [[str(c) for c in taken] for taken in
                                         legal_captures(card, state.table, state.scheme, limit=HINT_LIMIT, alone=alone,
                                                        cache=False).taken()]
            # Each event gets its own copy of the capture list: a caller may edit one hint.
            events += [{"type": "play", "player": player, "card": code, "capture": capture[:]}
                       for capture in captures]
        return events

    def hints_for(self, state: MulleState, card: Card | str, limit: int | None = None) -> list[JSON]:
        """The legal captures of one card on the current table, with grouping and points, in the
        solver's order (smallest first, then by card): all of them, or the first ``limit``.

        A crowded table can have tens of thousands (seconds to list and score them all), so a
        screen should pass a limit and take the total from ``hint_count``; with a limit the
        cost follows the captures returned. MULLE-OPT-MULLE-ALONE is applied (a capture holding
        the twin with other cards is left out), in both."""
        played = parse_card(card) if isinstance(card, str) else card
        if state.phase != "play" or state.unseen(played) <= 0:
            return []
        out: list[JSON] = []
        alone = played if state.mulle_alone else None
        sweep_counts = not (state.no_last_sweep and state.final_play_next)
        for taken, grouping in legal_captures(played, state.table, state.scheme, limit=limit, alone=alone):
            sweep, mulle = _sweep_and_mulle(played, taken, state.table)
            out.append({"capture": [str(c) for c in taken], "value": grouping.value,
                        "grouping": grouping.describe(),
                        "points": _move_total(played, taken, state.table, sweep_counts),
                        "sweep": sweep, "mulle": mulle})
        return out

    def hint_count(self, state: MulleState, card: Card | str, at_most: int | None = None) -> int:
        """How many captures ``hints_for`` would list without a limit. Counting is far cheaper than
        listing, but a 30-card table can still take seconds: with ``at_most`` the count stops
        there (smallest captures first) and returns ``at_most``, meaning "at least that many"."""
        played = parse_card(card) if isinstance(card, str) else card
        if state.phase != "play" or state.unseen(played) <= 0:
            return 0
        alone = played if state.mulle_alone else None
        return count_captures(played, state.table, state.scheme, alone=alone, at_most=at_most)

    def to_json(self, state: MulleState) -> JSON:
        data = common_json(state.scores, state.over, state.winner, state.to_act)
        n = state.n
        in_play = state.phase == "play"
        data.update(
            mode=state.mode,
            phase=state.phase,
            target=TARGET,
            players=list(state.players),
            sides=[list(team) for team in state.sides.teams],
            options={"strict_value": state.strict_value, "no_last_sweep": state.no_last_sweep,
                     "mulle_alone": state.mulle_alone},
            previous_scores=list(state.previous),
            deal=state.deal_no,
            dealer=state.dealer,
            next_dealer=state.next_dealer if not in_play else None,
            forehand=None if state.dealer is None else (state.dealer + 1) % n,
            round=state.round_no if in_play else None,
            rounds_total=len(state.rounds),
            is_last_round=in_play and state.is_last_round,
            hand_size=state.hand_size if in_play else None,
            played_this_round=[state.played_this_round(p) if in_play else 0 for p in range(n)],
            cards_in_hand=[state.hand_size - state.played_this_round(p) if in_play else 0 for p in range(n)],
            table=[str(c) for c in state.table],
            table_size=state.table_size,
            unseen={str(c): state.unseen(c) for c in ALL_CARDS} if state.mode == "adjudicate" else None,
            cards_left=plays_left(state) if in_play else 0,
            piles=[{"cards": cards, "spades": spades} for cards, spades in zip(state.piles, state.spades, strict=True)],
            deal_points=list(state.deal_points),
            sweeps=list(state.sweeps),
            mulles=list(state.mulles),
            last_capturer=state.last_capturer,
            last_move=state.last_move.to_json() if state.last_move else None,
            deal_end=state.deal_end.to_json() if state.deal_end else None,
            history=[record.to_json() for record in state.history],
            scored=[fact.to_json() for fact in state.scored],
        )
        return data

    def describe(self, event: Mapping[str, Any], players: Sequence[str]) -> str:
        def who(key: str) -> str:
            index = event.get(key)
            return players[index] if isinstance(index, int) and 0 <= index < len(players) else "?"

        kind = event.get("type")
        try:
            if kind == "deal":
                table = event.get("table")
                named = event.get("dealer") is not None
                if table:
                    shown = _names(parse_cards(table))
                    return (M("%(dealer)s deals; table %(table)s", dealer=who("dealer"), table=shown) if named
                            else M("Next deal; table %(table)s", table=shown))
                return M("%(dealer)s deals", dealer=who("dealer")) if named else M("Next deal")
            if kind == "play":
                card = parse_card(str(event.get("card")))
                taken = parse_cards(event["capture"]) if event.get("capture") else []
                if not taken:
                    return M("%(player)s trails %(card)s", player=who("player"), card=card)
                return M("%(player)s: %(card)s takes %(taken)s", player=who("player"), card=card,
                         taken=_names(taken))
            if kind == "tally":
                what = _tally_word(str(event.get("what")))
                if "side" in event:
                    side = event.get("side")
                    return M("%(side)s: %(what)s", what=what, side=Side(side) if isinstance(side, int)
                             and not isinstance(side, bool) else f"side {side}")
                return Msg("%(player)s: %(what)s", {"player": who("player"), "what": what})
        except (ValueError, TypeError, KeyError):
            pass
        return super().describe(event, players)

    @staticmethod
    def _side_name(state: MulleState, side: int | None) -> str:
        if side is None:
            return M("nobody")
        return " & ".join(state.players[p] for p in state.sides.teams[side])


# Each mode's events and their handlers.
_EVENTS = Dispatch[MulleState]("Mulle", adjudicate={"deal": on_deal, "play": on_play},
                               tally={"deal": on_tally_deal, "tally": on_tally})
