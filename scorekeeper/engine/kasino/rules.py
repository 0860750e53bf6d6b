"""The ``Kasino`` rules object: set-up, the event dispatch, and what the screens read (hints,
captures for a card, the JSON state, history lines)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from scorekeeper.cards import Card, parse_card, parse_cards
from scorekeeper.engine.base import (
    JSON,
    BaseRules,
    Event,
    Mode,
    OptionSpec,
    Outcome,
    SetupError,
    Sides,
    common_json,
)
from scorekeeper.engine.capture import (
    Grouping,
    count_captures,
    legal_captures,
    maximal_captures,
)
from scorekeeper.engine.core import Dispatch
from scorekeeper.engine.kasino.claim import on_claim
from scorekeeper.engine.kasino.deal import on_deal, on_draw_dealer
from scorekeeper.engine.kasino.misar import _known_hand
from scorekeeper.engine.kasino.play import on_misdeal, on_play, on_verdict
from scorekeeper.engine.kasino.scoring import _claimable
from scorekeeper.engine.kasino.state import (
    PACK,
    PACK_SIZE,
    PENALTY,
    TARGET,
    VARIANTS,
    KasinoState,
    _cards,
    _hand_count,
    _settings,
    _side_facts,
    _sweep_name,
    _sweeps,
    _upcoming_dealer,
)
from scorekeeper.engine.kasino.tally import on_deal_result, on_penalty
from scorekeeper.engine.messages import Join, M, Msg

# --- The rules ----------------------------------------------------------------------------------


def _opt(key: str, rule: str, label: str) -> OptionSpec:
    return OptionSpec(key, False, rule, label)


class Kasino(BaseRules):
    id: ClassVar[str] = "kasino"
    name: ClassVar[str] = "Kasino"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    player_rule: ClassVar[str | None] = "KASINO-COMP-2"
    team_rule: ClassVar[str | None] = "KASINO-VAR-PAIRS"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("variant", "standard", None, "Game: Kasino, Kasino misär or Dragkasino",
                   kind="choice", choices=VARIANTS),
        _opt("fixed", "KASINO-VAR-FIXED", "Storan always 10, lillan always 2"),
        _opt("handtable", "KASINO-VAR-HANDTABLE", "High values from the hand, low on the table"),
        _opt("must_capture", "KASINO-OPT-MUST-CAPTURE", "A card that can capture must capture, maximally"),
        _opt("sistan", "KASINO-OPT-SISTAN", "+1 for the last capture"),
        _opt("pairs", "KASINO-VAR-PAIRS", "Four players in two partnerships"),
        _opt("pairs_individual", "KASINO-OPT-PAIRS-INDIVIDUAL", "Partnerships compare individual piles"),
        _opt("claim", "KASINO-OPT-CLAIM", "A player may claim 16 during a deal"),
        _opt("claim_tabbe", "KASINO-OPT-CLAIM-TABBE", "Tabbes count toward a claim"),
        _opt("auto_claim", "KASINO-AMB-13", "Claims are made automatically"),
        _opt("no_last_tabbe", "KASINO-OPT-NO-LAST-TABBE", "No tabbe point in the final round"),
        _opt("misar_maxcount", "KASINO-OPT-MISAR-MAXCOUNT", "Misär: take the most cards possible"),
        _opt("misar_strict", "KASINO-OPT-MISAR-STRICT", "Misär: a missed forced tabbe is taken back"),
        _opt("misar_penalty_b", "KASINO-OPT-MISAR-PENALTY-B", "Misär: a short capture costs +5 and stands"),
        _opt("drag_misar", "KASINO-OPT-DRAG-MISAR", "Dragkasino with the misär rules"),
        _opt("single_deal", "KASINO-END-1", "Play a single deal"),
        _opt("draw_ace_low", "KASINO-AMB-1", "Aces rank low in the draw for dealer"),
    )

    # -- set-up ----------------------------------------------------------------------------------

    def new(self, players: Sequence[str], options: Mapping[str, Any], mode: Mode = "adjudicate") -> KasinoState:
        self.check_players(players)
        if mode not in ("adjudicate", "tally"):
            raise SetupError(None, M("mode must be 'adjudicate' or 'tally', not %(mode)s", mode=repr(mode)))
        opts = self.parse_options(options, len(players))
        cfg = _settings(opts, len(players), options)
        sides = Sides(((0, 2), (1, 3))) if cfg.pairs else Sides(tuple((p,) for p in range(len(players))))
        return KasinoState(tuple(players), mode, cfg, sides, scores=(0,) * sides.count,
                           active=tuple(range(len(players))), open_penalties=(0,) * sides.count)

    # -- events ----------------------------------------------------------------------------------

    def apply(self, state: KasinoState, event: Mapping[str, Any]) -> KasinoState:
        handler, event = _EVENTS.route(event, state.mode)
        return handler(state, event)

    # -- reading the state -----------------------------------------------------------------------------

    def outcome(self, state: KasinoState) -> Outcome | None:
        if not state.over:
            return None
        return Outcome(state.winner, state.end_reason, state.end_rule)

    def hints(self, state: KasinoState) -> list[Event]:
        hints: list[Event] = []
        for p in state.pending:
            hints.append({"type": "confirm", "proposal": p.id})
            hints.append({"type": "dismiss", "proposal": p.id})
        if state.phase == "play" and state.cfg.claim and state.mode == "adjudicate":
            for side in range(state.sides.count):
                if _claimable(state, side) >= TARGET:
                    hints.append({"type": "claim", "player": state.sides.teams[side][0]})
        return hints

    def captures_for(self, state: KasinoState, card: Card | str, limit: int | None = None) -> JSON:
        """For the screen: what the player to act may do with ``card`` on the current table.

        ``captures`` are the legal captures in the solver's order (smallest first, then by card),
        each marked ``allowed`` unless the capture duty (misär, must_capture) forbids it; ``count``
        is how many legal captures there are in all. A crowded table can have thousands, so a
        screen should pass ``limit``: then at most ``limit`` are listed, and under a capture duty
        the allowed ones (the biggest) come first, the smallest others after them."""
        played = parse_card(card) if isinstance(card, str) else card
        cfg = state.cfg
        options: Sequence[tuple[tuple[Card, ...], Grouping]] = legal_captures(played, state.table, cfg.scheme, limit=limit)
        count = len(options) if limit is None or len(options) < limit else \
            count_captures(played, state.table, cfg.scheme)
        allowed: list[tuple[Card, ...]]
        if cfg.forced_capture and count:
            by: Literal["inclusion", "count"] = "count" if cfg.misar and cfg.maxcount else "inclusion"
            best = maximal_captures(played, state.table, cfg.scheme, by=by)
            allowed = [c for c, _ in best]
            if limit is not None:
                others = [option for option in options if option[0] not in allowed]
                options = (best + others)[:limit]
        else:
            allowed = [c for c, _ in options]
        return {
            "card": str(played),
            "trail_allowed": not (cfg.forced_capture and count),
            "count": count,
            "captures": [{"capture": [str(c) for c in cards], "grouping": g.to_json(),
                          "tabbe": len(cards) == len(state.table), "allowed": cards in allowed}
                         for cards, g in options],
        }

    def to_json(self, state: KasinoState) -> JSON:
        s = state
        data = common_json(s.scores, s.over, s.winner, s.to_act)
        playing = s.phase == "play"
        hands: list[int | None] = [None] * len(s.players)
        if playing:
            for p in s.active:
                hands[p] = _hand_count(s, p)
        seen = s.seen if playing else frozenset()
        side_piles = _side_facts(s)
        data.update(
            game="kasino",
            mode=s.mode,
            variant=s.cfg.variant,
            misar=s.cfg.misar,
            drag=s.cfg.drag,
            phase=s.phase,
            sides=[list(t) for t in s.sides.teams],
            deal=s.deal_no,
            dealer=s.dealer,
            forehand=s.forehand if playing else None,
            next_dealer=_upcoming_dealer(s),
            round=(s.round if playing and not s.cfg.drag else None),
            rounds_total=(s.rounds_total if not s.cfg.drag and s.mode == "adjudicate" else None),
            is_last_round=s.is_last_round,
            table=[str(c) for c in s.table],
            hands=hands,
            known_hands=[[str(c) for c in _known_hand(s, p)] for p in range(len(s.players))] if s.cfg.drag else None,
            stock=s.stock if (s.cfg.drag and playing) else None,
            unseen={str(c): (0 if c in seen else 1) for c in PACK},
            unseen_count=PACK_SIZE - len(seen) if playing else PACK_SIZE,
            piles=[f.to_json() for f in side_piles] if playing else None,
            player_piles=([s.piles[p].facts().to_json() for p in range(len(s.players))]
                          if playing and s.cfg.pairs else None),
            last_capture=s.last_capturer if playing else None,
            last_move=s.turns[-1].to_json() if s.turns else None,
            plays=len(s.turns) if playing else 0,
            summary=s.summary.to_json() if s.summary else None,
            history=[row.to_json() for row in s.history],
            active=list(s.active),
            eliminated=list(s.eliminated),
            proposals=[p.to_json() for p in s.pending],
            proposals_all=[p.to_json() for p in s.proposals],
            sweep_values=([{"value": v, "name": _sweep_name(v)} for v in _sweeps(s)]
                          if s.cfg.misar and playing else None),
            claimable=([_claimable(s, side) for side in range(s.sides.count)]
                       if s.cfg.claim and playing else None),
            announce=list(s.announce),
            dealer_draw=({"cards": [str(c) if c else None for c in s.draw.cards], "tied": list(s.draw.tied),
                          "dealer": s.draw.dealer} if s.draw else None),
            end={"rule": s.end_rule, "reason": s.end_reason} if s.over else None,
            scored=[x.to_json() for x in s.scored],
        )
        return data

    def describe(self, event: Mapping[str, Any], players: Sequence[str]) -> Msg:
        kind = event.get("type")

        def name(key: str = "player") -> str:
            value = event.get(key)
            return players[value] if isinstance(value, int) and 0 <= value < len(players) else "?"

        def cards(value: Any) -> str | Join:
            try:
                return _cards(parse_cards(value)) if value else ""
            except ValueError:
                return str(value)

        if kind == "deal":
            table = cards(event.get("table"))
            if event.get("dealer") is not None:
                return M("%(dealer)s deals; table %(table)s", dealer=name("dealer"), table=table)
            return M("New deal; table %(table)s", table=table)
        if kind == "play":
            taken = cards(event.get("capture"))
            played = cards([event.get("card")])
            draws = bool(event.get("draw"))
            if taken:
                return (M("%(player)s plays %(card)s and takes %(taken)s and draws", player=name(), card=played,
                          taken=taken) if draws else
                        M("%(player)s plays %(card)s and takes %(taken)s", player=name(), card=played, taken=taken))
            return (M("%(player)s plays %(card)s (trail) and draws", player=name(), card=played) if draws else
                    M("%(player)s plays %(card)s (trail)", player=name(), card=played))
        if kind == "confirm":
            return M("Penalty proposal %(id)s confirmed", id=str(event.get("proposal")))
        if kind == "dismiss":
            return M("Penalty proposal %(id)s dismissed", id=str(event.get("proposal")))
        if kind == "claim":
            return M("%(player)s claims %(target)s", player=name(), target=TARGET)
        if kind == "misdeal":
            return M("Misdeal: the same dealer deals again")
        if kind == "deal_result":
            return M("Deal result entered")
        if kind == "penalty":
            return M("%(player)s +%(points)s penalty", player=name(), points=PENALTY)
        if kind == "draw_dealer":
            return M("Draw for the first dealer")
        return Msg("%(text)s", {"text": super().describe(event, players)})


# Each mode's events and their handlers.
_EVENTS = Dispatch[KasinoState](
    "Kasino",
    adjudicate={
        "draw_dealer": on_draw_dealer,
        "deal": on_deal,
        "play": on_play,
        "confirm": on_verdict,
        "dismiss": on_verdict,
        "claim": on_claim,
        "misdeal": on_misdeal,
    },
    tally={
        "draw_dealer": on_draw_dealer,
        "deal_result": on_deal_result,
        "penalty": on_penalty,
        "claim": on_claim,
    },
)
