"""The golden logs: long exported tables of every game and mode, and what each replays to.

Each ``logs/<name>.json`` is a table in the export format of ``GET /api/v1/tables/<id>/events``,
made by seeded random legal play (the engines' playout simulators in ``tests/engine``), with
undos woven in (a move entered, taken back, entered again). ``expected/<name>.json`` holds what
the log replays to: a digest of the final state and of the replay's verdicts, and key facts to
read in a diff. ``test_golden.py`` replays every log in CI and compares.

A change that alters any replay fails that test until the expectations are updated, with the
reason, on purpose:

    .venv/bin/python tests/golden/make_corpus.py --update "MULAT-PLAY-3: the entered hand proves the follow duty"

rewrites ``expected/`` from the logs as they stand (the logs themselves never change: they are
what tables stored under older versions) and appends the reason and the changed names to
``REASONS.md``. ``--make`` writes the logs afresh (only for a new game or mode; say why in the
reason as well), ``--check`` only compares.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent.parent))
sys.path.insert(0, str(ROOT.parent.parent / "bench"))

from scorekeeper.engine import RULES, RULES_VERSION  # noqa: E402
from scorekeeper.engine.core import RuleViolation  # noqa: E402

LOGS, EXPECTED, REASONS = ROOT / "logs", ROOT / "expected", ROOT / "REASONS.md"
Events = list[dict[str, Any]]
Case = tuple[str, str, list[str], dict[str, Any], Callable[[], Events]]


# --- Seeded random legal play, per game and mode --------------------------------------------


def attempts(game: str, players: list[str], options: dict[str, Any], mode: str,
             propose: Callable[[random.Random, Any], dict[str, Any] | None], seed: int, limit: int) -> Events:
    """Events drawn from ``propose`` and kept only where the engine accepts them (tally modes,
    whose entries are free-standing facts)."""
    rules, rng = RULES[game], random.Random(seed)
    state, events = rules.new(players, options, mode), []
    for _ in range(limit):
        if rules.to_json(state)["over"]:
            break
        event = propose(rng, state)
        if event is None:
            break
        try:
            state = rules.apply(state, event)
        except (RuleViolation, ValueError):
            continue
        events.append(event)
    return events


def scorepad() -> Events:
    rng = random.Random(25)
    out: Events = []
    for _ in range(240):
        out.append({"type": "points", "side": rng.randrange(4), "points": rng.randint(-5, 30),
                    **({"note": rng.choice(["bonus", "penalty", "Ω → ∑"])} if rng.random() < 0.1 else {})})
    return out


def mulle(n: int, options: dict[str, Any], seed: int) -> Callable[[], Events]:
    def make() -> Events:
        from tests.engine.test_mulle_playout import random_game

        return random_game(n, options, seed).events
    return make


def mulle_tally() -> Events:
    from scorekeeper.engine.mulle.state import TALLY

    def propose(rng: random.Random, state: Any) -> dict[str, Any]:
        if rng.random() < 0.12:
            return {"type": "deal", **({"dealer": 0} if state.deal_no == 0 else {})}
        return {"type": "tally", "what": rng.choice(list(TALLY)), "player": rng.randrange(3),
                "count": rng.choice([1, 1, 1, 2])}
    return attempts("mulle", ["Anna", "Bo", "Cilla"], {}, "tally", propose, 251, 2000)


def kasino(n: int, options: dict[str, Any], seed: int) -> Callable[[], Events]:
    def make() -> Events:
        from tests.engine.test_kasino_playouts import Sim

        sim = Sim(n, options, random.Random(seed))
        sim.play_game(misdeal_chance=0.01)
        return sim.events
    return make


def kasino_tally() -> Events:
    from tests.engine.test_kasino_playouts import _tally_piles

    def propose(rng: random.Random, state: Any) -> dict[str, Any]:
        if rng.random() < 0.2:
            return {"type": "penalty", "player": rng.choice(state.active)}
        entries: list[dict[str, Any] | None] = [None] * 3
        for p, pile in zip(state.active, _tally_piles(rng, len(state.active), False), strict=True):
            entries[p] = pile
        return {"type": "deal_result", "players": entries}
    return attempts("kasino", ["Anna", "Bo", "Cilla"], {"variant": "misar"}, "tally", propose, 252, 400)


def mulatschak(options: dict[str, Any], seed: int, deals: int = 30) -> Callable[[], Events]:
    """A game of real cards (cut or knock, weak hands collapsing, bids, exchanges, a hand entered
    now and then, deliberate revokes proposed and decided), up to ``deals`` deals."""
    def make() -> Events:
        from scorekeeper.engine.mulatschak import START
        from tests.engine.test_mulatschak_playouts import Table

        class Recording(Table):  # type: ignore[misc]
            def send(self, event: dict[str, Any]) -> None:
                super().send(event)
                events.append(dict(event))

        events: Events = []
        table = Recording(random.Random(seed), 4, options, [START] * 4, dealer=0)
        for _ in range(deals):
            if table.js()["over"]:
                break
            table.play_deal()
        return events
    return make


def mulatschak_tally() -> Events:
    from bench_mulatschak import whole_game

    from tests.engine.test_mulatschak_playouts import as_tally_event

    sheet = whole_game(4, seed=2030)[1]
    opts = RULES["mulatschak"].new(["A", "B", "C", "D"], {}, "tally").opts
    return [as_tally_event(row, opts) for row in sheet]


def mousel(options: dict[str, Any], mode: str, seed: int, n: int = 5, deals: int = 24) -> Callable[[], Events]:
    def make() -> Events:
        from tests.engine.test_mousel_playouts import simulate_session

        return simulate_session(n, deals, options, seed=seed, mode=mode, revoke_rate=0.08, leave_rate=0.05)[1]
    return make


def muggins() -> Events:
    from tests.engine.test_muggins_playouts import PACK, playout

    rng = random.Random(2560)
    deck = list(PACK)
    rng.shuffle(deck)
    return recorded(RULES["muggins"], lambda: playout(4, deck, {}, rng, 0.1))


def muggins_tally() -> Events:
    return [{"type": "result", "placings": [[2], [0, 3], [1]]}]


def recorded(rules: Any, play: Callable[[], object]) -> Events:
    """The events a simulator applied and the engine accepted (refused attempts are not kept)."""
    events: Events = []
    cls = type(rules)
    original = cls.apply

    def apply(self: Any, state: Any, event: Mapping[str, Any]) -> Any:
        after = original(self, state, event)
        events.append(dict(event))
        return after

    cls.apply = apply  # type: ignore[method-assign]
    try:
        play()
    finally:
        cls.apply = original  # type: ignore[method-assign]
    return events


def seats(n: int) -> list[str]:
    return ["Anna", "Bo", "Cilla", "Dag", "Eva", "Frans", "Greta"][:n]


CASES: list[Case] = [
    ("scorepad", "adjudicate", seats(4), {"target": 2000}, scorepad),
    ("mulle", "adjudicate", seats(2), {}, mulle(2, {}, 2501)),
    ("mulle", "adjudicate", seats(4), {"teams": [[0, 2], [1, 3]], "strict_value": True, "no_last_sweep": True,
                                       "mulle_alone": True}, mulle(4, {"teams": [[0, 2], [1, 3]], "strict_value": True,
                                                                      "no_last_sweep": True, "mulle_alone": True}, 2502)),
    ("mulle", "tally", seats(3), {}, mulle_tally),
    ("kasino", "adjudicate", seats(4), {"pairs": True}, kasino(4, {"pairs": True}, 2511)),
    ("kasino", "adjudicate", seats(4), {"variant": "misar", "misar_penalty_b": True},
     kasino(4, {"variant": "misar", "misar_penalty_b": True}, 2512)),
    ("kasino", "adjudicate", seats(3), {"variant": "misar"}, kasino(3, {"variant": "misar"}, 2513)),
    ("kasino", "adjudicate", seats(3), {"variant": "drag", "drag_misar": True},
     kasino(3, {"variant": "drag", "drag_misar": True}, 2514)),
    ("kasino", "tally", seats(3), {"variant": "misar"}, kasino_tally),
    ("mulatschak", "adjudicate", ["P0", "P1", "P2", "P3"], {}, mulatschak({}, 2534)),
    ("mulatschak", "adjudicate", ["P0", "P1", "P2", "P3"], {"reshuffle": True, "collapse_optional": True},
     mulatschak({"reshuffle": True, "collapse_optional": True}, 2533)),
    ("mulatschak", "tally", ["A", "B", "C", "D"], {}, mulatschak_tally),
    ("mousel", "adjudicate", [f"P{i}" for i in range(5)], {}, mousel({}, "adjudicate", 2541)),
    ("mousel", "adjudicate", [f"P{i}" for i in range(7)], {"52": True, "reshuffle": True},
     mousel({"52": True, "reshuffle": True}, "adjudicate", 2542, n=7)),
    ("mousel", "tally", [f"P{i}" for i in range(5)], {}, mousel({}, "tally", 2543)),
    ("muggins", "adjudicate", ["P0", "P1", "P2", "P3"], {}, muggins),
    ("muggins", "tally", seats(4), {}, muggins_tally),
]


def name_of(case: Case, index: int) -> str:
    game, mode, players, options, _ = case
    extra = "-".join(str(k) if v is True else f"{k}_{v}" for k, v in options.items()
                     if k not in ("teams", "target")) or "plain"
    return f"{index:02d}-{game}-{mode}-{len(players)}p-{extra}".replace(" ", "")


# --- The export, undos woven in ---------------------------------------------------------------


def with_undos(events: Events, seed: int) -> Iterator[dict[str, Any]]:
    """The moves in order, some entered, taken back and entered again (one or two at a time):
    what phones store, and the same effective moves."""
    rng = random.Random(seed)
    i = 0
    while i < len(events):
        if i and rng.random() < 0.04:
            ahead = events[i:i + rng.choice([1, 1, 2])]
            yield from ahead
            for _ in ahead:
                yield {"type": "undo"}
        yield events[i]
        i += 1


def export(game: str, mode: str, players: list[str], options: dict[str, Any], events: Events,
           seed: int) -> dict[str, Any]:
    start = datetime(2026, 11, 26, 12, 0, 0, tzinfo=UTC)
    rows, stack = [], []
    for seq, event in enumerate(with_undos(events, seed), start=1):
        if event["type"] == "undo":
            event = {"type": "undo", "undoes": stack.pop()}
        else:
            stack.append(seq)
        by = event.get("player")
        rows.append({"seq": seq, "by": by if isinstance(by, int) and not isinstance(by, bool) else None,
                     "at": (start + timedelta(seconds=7 * seq)).replace(tzinfo=None).isoformat() + "Z",
                     "event": event})
    return {"format": "scorekeeper/1", "game": game, "mode": mode, "options": options, "players": players,
            "rules_version": RULES_VERSION, "events": rows}


# --- What a log replays to --------------------------------------------------------------------


def replayed(log: dict[str, Any]) -> dict[str, Any]:
    """The final state the service makes of ``log`` (the lenient replay every table gets), as a
    digest and the facts a reader checks first."""
    from scorekeeper.localize import localize
    from scorekeeper.service.facts import TableFacts
    from scorekeeper.service.snapshots import effective_events, judged_replay

    facts = TableFacts("golden", log["game"], log["mode"], log["options"], tuple(log["players"]), "", "")
    rows = [(row["seq"], row["event"]) for row in log["events"]]
    effective = effective_events(rows)
    state, verdicts = judged_replay(facts, effective)
    data = localize(dict(RULES[log["game"]].to_json(state)), log["players"])
    notes = [[v.seq, v.status, v.rule] for v in verdicts]
    text = json.dumps([data, notes], sort_keys=True, ensure_ascii=False, default=str)
    return {"digest": hashlib.sha256(text.encode()).hexdigest(), "seq": len(rows), "effective": len(effective),
            "undos": sum(1 for _seq, event in rows if isinstance(event, dict) and event.get("type") == "undo"),
            "scores": data.get("scores"), "over": data.get("over"), "winner": data.get("winner"),
            "to_act": data.get("to_act"), "stored_moves": notes}


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.parent == LOGS:  # one event a line: a diff names the moves
        head = {k: v for k, v in data.items() if k != "events"}
        lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "events": [']
        lines += [" " + json.dumps(e, ensure_ascii=False) + ("," if i < len(data["events"]) - 1 else "")
                  for i, e in enumerate(data["events"])]
        path.write_text("\n".join(lines) + "\n]}\n", encoding="utf-8")
    else:
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def logs() -> list[Path]:
    return sorted(LOGS.glob("*.json"))


def make() -> None:
    for index, case in enumerate(CASES, start=1):
        game, mode, players, options, play = case
        events = play()
        write_json(LOGS / f"{name_of(case, index)}.json", export(game, mode, players, options, events, index))


def differences() -> dict[str, tuple[Any, Any]]:
    out = {}
    for path in logs():
        now = replayed(json.loads(path.read_text(encoding="utf-8")))
        expected_path = EXPECTED / path.name
        was = json.loads(expected_path.read_text(encoding="utf-8")) if expected_path.exists() else None
        if now != was:
            out[path.stem] = (was, now)
    return out


def update(reason: str) -> list[str]:
    changed = differences()
    for name, (_was, now) in changed.items():
        write_json(EXPECTED / f"{name}.json", now)
    if changed:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d")
        with REASONS.open("a", encoding="utf-8") as out:
            out.write(f"\n## {stamp} · rules version {RULES_VERSION}\n\n{reason}\n\n")
            out.writelines(f"* `{name}`\n" for name in sorted(changed))
    return sorted(changed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--make", action="store_true", help="write the logs afresh from the simulators")
    parser.add_argument("--update", metavar="REASON", help="rewrite the expectations that changed, and log why")
    parser.add_argument("--check", action="store_true", help="only compare (what CI does)")
    args = parser.parse_args()
    if args.make:
        if not args.update:
            parser.error("--make needs --update REASON: say why the logs are made afresh")
        make()
    if args.update:
        if not args.update.strip():
            parser.error("the reason may not be empty")
        for name in update(args.update.strip()):
            print(f"updated expected/{name}.json")
        return
    changed = differences()
    for name in sorted(changed):
        print(f"{name}: replays otherwise than expected")
    raise SystemExit(1 if changed else 0)


if __name__ == "__main__":
    main()
