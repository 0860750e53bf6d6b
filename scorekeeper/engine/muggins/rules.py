"""The ``Muggins`` rules object: set-up, the event dispatch, and what the screens read (hints, the
JSON state, history lines)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from scorekeeper.cards import FRENCH_RANKS, Card, french_pack, parse_card
from scorekeeper.engine.base import (
    JSON,
    MODES,
    BaseRules,
    Event,
    Mode,
    OptionSpec,
    Outcome,
    SetupError,
    common_json,
)
from scorekeeper.engine.core import Dispatch
from scorekeeper.engine.messages import Join, M, Msg
from scorekeeper.engine.muggins.piles import (
    _call_json,
    _card_order,
    _hands_after_turnover,
    _known_locations,
    _next_seat,
    _placement_json,
    _step2_seat,
    correct_places,
    placements_for,
)
from scorekeeper.engine.muggins.play import on_setup, on_stop, on_turn
from scorekeeper.engine.muggins.state import Hand, MugginsOptions, MugginsState
from scorekeeper.engine.muggins.tally import on_result

if TYPE_CHECKING:
    from scorekeeper.engine.muggins.state import Phase

# --- The rules object ------------------------------------------------------------------------


class Muggins(BaseRules):
    id: ClassVar[str] = "muggins"
    name: ClassVar[str] = "Muggins"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 7
    player_rule: ClassVar[str | None] = "MUGGINS-COMP-2"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("one_card", False, "MUGGINS-OPT-ONE-CARD", "One card per turn"),
        OptionSpec("neighbour_only", False, "MUGGINS-OPT-NEIGHBOUR-ONLY",
                   "Only the left neighbour's discard pile"),
        OptionSpec("any_opponent", False, "MUGGINS-OPT-ANY-OPPONENT",
                   "Any opponent's discard pile (nearest to the left first)"),
        OptionSpec("play_stands", False, "MUGGINS-OPT-PLAY-STANDS",
                   "A wrongly placed card stays and the turn goes on"),
        OptionSpec("coach", False, "MUGGINS-OPT-COACH", "Coach: refuse breaches instead of punishing"),
        OptionSpec("placings", False, "MUGGINS-OPT-PLACINGS", "Play on to rank every player"),
    )

    # -- set-up --------------------------------------------------------------------------------

    def new(self, players: Sequence[str], options: Mapping[str, Any], mode: Mode = "adjudicate") -> MugginsState:
        self.check_players(players)
        if mode not in MODES:
            raise SetupError(None, M("mode must be one of %(modes)s, not %(mode)s", modes=", ".join(MODES),
                                     mode=repr(mode)))
        if isinstance(options, Mapping) and options.get("teams"):
            raise SetupError("MUGGINS-COMP-2", M("in Muggins everybody plays alone; there are no teams"))
        opts = self.parse_options(options, len(players))
        if opts["neighbour_only"] and opts["any_opponent"]:
            raise SetupError("MUGGINS-OPT-ANY-OPPONENT",
                             M("neighbour_only and any_opponent contradict each other; choose one"))
        chosen = MugginsOptions(**{spec.key: opts[spec.key] for spec in self.option_specs})
        phase: Phase = "setup" if mode == "adjudicate" else "play"
        return MugginsState(tuple(players), chosen, mode, phase, dealer=len(players) - 1)

    # -- events --------------------------------------------------------------------------------

    def apply(self, state: MugginsState, event: Mapping[str, Any]) -> MugginsState:
        handler, event = _EVENTS.route(event, state.mode)
        return handler(state, event)

    # -- reading the state ---------------------------------------------------------------------

    def outcome(self, state: MugginsState) -> Outcome | None:
        if not state.over:
            return None
        winner = state.winner
        if state.stalemate is not None:
            how = {"repeat": M("the position repeated"), "turned_over_twice":
                   M("every player turned their pile over twice without progress"),
                   "agreed": M("the players agreed to stop")}[state.stalemate.reason]
            return Outcome(winner, M("stalemate (%(how)s); fewest cards wins", how=how), "MUGGINS-END-2")
        if state.mode == "tally":
            return Outcome(winner, M("result entered"), "MUGGINS-END-1")
        first = state.placings[0]
        names = Join(tuple(state.players[p] for p in first), "and")
        return Outcome(winner, M("%(names)s got rid of every card", names=names), "MUGGINS-END-1")

    def hints(self, state: MugginsState) -> list[Event]:
        """The correct turn events for the player to act: for the known top card, or else for every
        card not seen yet (best place first)."""
        if state.phase != "play" or state.to_act is None:
            return []
        mover = state.to_act
        hand = state.hands[mover]
        draw = hand.draw if hand.draw else hand.discard
        if draw[0] is not None:
            candidates: list[Card] = [draw[0]]
        else:
            known = _known_locations(state)
            candidates = sorted((c for c in french_pack() if c not in known), key=_card_order)
        return [{"type": "turn", "player": mover, "card": str(card), "to": place["to"]}
                for card in candidates for place in placements_for(state, card) if place["correct"]]

    def to_json(self, state: MugginsState) -> JSON:
        n = len(state.players)
        scores = [1 if state.placings and p in state.placings[0] else 0 for p in range(n)]
        data = common_json(scores, state.over, state.winner, state.to_act)
        data.update(
            mode=state.mode,
            phase=state.phase,
            options=state.options.to_json(),
            dealer=state.dealer if state.mode == "adjudicate" else None,
            forehand=_next_seat(state.dealer, n) if state.mode == "adjudicate" else None,
            muggins=[{"index": i, "top": str(pile[-1]), "count": len(pile), "cards": [str(c) for c in pile]}
                     for i, pile in enumerate(state.muggins)],
            players=[self._player_json(state, p) for p in range(n)],
            placements=[_placement_json(p) for p in state.history],
            last_muggins=_call_json(state, state.last_muggins),
            muggins_called=any(s.what == "muggins" for s in state.scored),
            placings=[list(g) for g in state.placings],
            stalemate=None if state.stalemate is None else {
                "reason": state.stalemate.reason, "rule": "MUGGINS-END-2", "cards": list(state.stalemate.cards)},
            cards_total=sum(len(p) for p in state.muggins) + sum(h.cards for h in state.hands),
            unseen=sum(1 for h in state.hands for s in h.draw if s is None),
        )
        data.update(self._turn_json(state))
        return data

    def _player_json(self, state: MugginsState, seat: int) -> JSON:
        hand = state.hands[seat] if state.hands else Hand()
        place = next((k for k, g in enumerate(state.placings, start=1) if seat in g), None)
        return {
            "seat": seat,
            "name": state.players[seat],
            "draw": len(hand.draw),
            "discard": len(hand.discard),
            "discard_top": str(hand.discard[-1]) if hand.discard else None,
            "discard_cards": [str(c) for c in hand.discard],
            "cards": hand.cards,
            "draw_top": str(hand.draw[0]) if hand.draw and hand.draw[0] is not None else None,
            "finished": place is not None,
            "place": place,
            "turnovers": hand.turnovers,
        }

    def _turn_json(self, state: MugginsState) -> JSON:
        """What the screen needs for the player to act: the next card if known, whether the pile
        is turned over first, and the correct places for each rank (suits never matter)."""
        mover = state.to_act
        if mover is None or state.phase != "play":
            return {"next_card": None, "turns_over_first": False, "left_pile": None, "places_by_rank": {}}
        hand = state.hands[mover]
        draw = hand.draw if hand.draw else hand.discard
        hands = _hands_after_turnover(state, mover)
        by_rank: dict[str, list[JSON]] = {}
        for rank in FRENCH_RANKS:
            probe = Card(rank, "S")
            by_rank[rank] = [p.to_json() for p in correct_places(state.muggins, hands, mover, probe, state.options)]
        default_left = _step2_seat(hands, mover, Card("A", "S"), replace(state.options, any_opponent=False))
        return {
            "next_card": str(draw[0]) if draw and draw[0] is not None else None,
            "turns_over_first": not hand.draw,
            "left_pile": default_left,
            "places_by_rank": by_rank,
        }

    def describe(self, event: Mapping[str, Any], players: Sequence[str]) -> Msg:
        """One line of the history: who turned which card and where it went. The event alone does
        not say whether it was a muggins (the state does), except when a ``moved_to`` was given."""
        def who(seat: Any) -> str:
            return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"

        kind = event.get("type")
        if kind == "setup":
            raw = event.get("muggins")
            items = raw.split() if isinstance(raw, str) else raw if isinstance(raw, list) else []
            laid = Join(tuple(_pretty(c) for c in items))
            dealer = event.get("dealer")
            if isinstance(dealer, int) and 0 <= dealer < len(players):
                return M("Muggins cards laid out: %(cards)s; %(dealer)s deals, %(forehand)s starts", cards=laid,
                         dealer=who(dealer), forehand=who((dealer + 1) % len(players)))
            return M("Muggins cards laid out: %(cards)s", cards=laid)
        if kind == "turn":
            mover = event.get("player")
            name = who(mover) if mover is not None else M("Next player")
            card, to = _pretty(event.get("card")), _describe_raw_place(event.get("to"), players, mover)
            if isinstance(event.get("moved_to"), Mapping):
                return M("%(player)s turned %(card)s and put it on %(place)s (Muggins! moved to %(moved)s)",
                         player=name, card=card, place=to,
                         moved=_describe_raw_place(event.get("moved_to"), players, mover))
            return M("%(player)s turned %(card)s and put it on %(place)s", player=name, card=card, place=to)
        if kind == "stop":
            return M("The players agree to stop: whoever holds the fewest cards wins")
        if kind == "result":
            placings = event.get("placings")
            if isinstance(placings, list):
                groups = [g if isinstance(g, list) else [g] for g in placings]
                return M("Result: %(placings)s", placings=Join(tuple(
                    Msg("%(k)s. %(names)s", {"k": k, "names": Join(tuple(who(p) for p in g), "and")})
                    for k, g in enumerate(groups, start=1)), ", "))
            winner = event.get("winner")
            names = Join(tuple(who(p) for p in winner), "and") if isinstance(winner, list) else who(winner)
            return M("Result: %(names)s won", names=names)
        return Msg("%(text)s", {"text": super().describe(event, players)})


def _pretty(text: Any) -> Card | str:
    """A card as the history shows it (``6♥``); text that is not a card is shown as entered."""
    try:
        return parse_card(str(text), "french")
    except ValueError:
        return str(text)


def _describe_raw_place(raw: Any, players: Sequence[str], mover: Any) -> Msg | str:
    """A place as an event spells it (not yet validated), in words."""
    place = raw if isinstance(raw, Mapping) else {}
    pile, seat = place.get("pile"), place.get("player")
    if pile == "muggins" and isinstance(place.get("index"), int) and not isinstance(place.get("index"), bool):
        return M("muggins pile %(n)s", n=place["index"] + 1)
    if pile == "discard" and isinstance(seat, int) and 0 <= seat < len(players):
        return M("their own discard pile") if seat == mover else M("%(name)s's discard pile", name=players[seat])
    return M("their own discard pile") if pile == "own" else "?"


# Each mode's events and their handlers.
_EVENTS = Dispatch[MugginsState]("Muggins", adjudicate={"setup": on_setup, "turn": on_turn, "stop": on_stop},
                                 tally={"result": on_result})
