"""Replay a whole session of every game from its events; print each game's figure. Asserts nothing.

A server rebuilds a table's state by folding its engine's ``apply`` over the recorded events
(when its snapshot cache misses, after a restart, on undo), so this is the cost a phone waits
for at worst. Targets (issue 16): a 20-deal Mulatschak game ≤ 10 ms, 50 Mousel deals ≤ 6 ms,
one whole 104-card Mulle deal ≤ 5 ms; the other games have no target and are printed for the
record. The sessions come from the engines' random-playout simulators in ``tests/engine``
(seeded, the same every run); only the replay is timed. CPU time (the process's own) is the
figure that stays honest on a shared machine; wall time is printed beside it.

    .venv/bin/python bench/bench_replays.py            # about a minute
    .venv/bin/python bench/bench_replays.py --quick    # fewer runs
    .venv/bin/python bench/bench_replays.py --against /tmp/base mousel   # this tree ÷ another

``--against TREE`` compares this tree's engine with another checkout's (``git worktree add /tmp/base
<commit>``) on the same recorded sessions: one worker process per tree, blocks of replays
alternating between them (which goes first alternates too), CPU time; it prints each tree's
median and the median of the per-round ratios this ÷ other with their quartiles. On a shared
machine only such a same-run ratio means much. Each worker (``replay_worker.py``) imports its
tree's engine without that tree's ``scorekeeper/__init__.py`` (the web app, whose packages may
differ between the trees).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scorekeeper.engine import RULES  # noqa: E402
from scorekeeper.engine.core import replay as engine_replay  # noqa: E402

Events = list[dict[str, Any]]


def recorded(rules: Any, play: Callable[[], object]) -> Events:
    """The events a simulator applied on its main line (refused attempts are not kept)."""
    events: Events = []
    cls = type(rules)
    original = cls.apply

    def apply(self: Any, state: Any, event: Mapping[str, Any]) -> Any:
        after = original(self, state, event)
        events.append(dict(event))
        return after

    cls.apply = apply
    try:
        play()
    finally:
        cls.apply = original
    return events


def mulle() -> tuple[list[str], dict[str, Any], Events, str]:
    from tests.engine.test_mulle_playout import random_game

    game = random_game(2, {}, seed=2024)
    deals = sum(1 for e in game.events if e["type"] == "deal")
    return ["P0", "P1"], {}, game.events, f"2 players, a whole game ({deals} deals)"


def mulle_deal() -> tuple[list[str], dict[str, Any], Events, str]:
    from tests.engine.test_mulle_playout import random_game

    events = random_game(2, {}, seed=2024).events
    second = next(i for i, e in enumerate(events) if e["type"] == "deal" and i > 0)
    return ["P0", "P1"], {}, events[:second], "2 players, one whole 104-card deal"


def kasino() -> tuple[list[str], dict[str, Any], Events, str]:
    from tests.engine.test_kasino_playouts import Sim

    sim = Sim(4, {}, random.Random(2024))
    sim.play_game()
    deals = sum(1 for e in sim.events if e["type"] == "deal")
    return [f"P{i}" for i in range(4)], {}, sim.events, f"4 players, a whole game ({deals} deals)"


def kasino_misar() -> tuple[list[str], dict[str, Any], Events, str]:
    """Misar (KASINO-MIS-*): after every play the engine works out which values would sweep the
    table, and checks each capture against the duty to take the most."""
    from tests.engine.test_kasino_playouts import Sim

    options = {"variant": "misar"}
    sim = Sim(3, options, random.Random(2024))
    sim.play_game()
    deals = sum(1 for e in sim.events if e["type"] == "deal")
    return [f"P{i}" for i in range(3)], options, sim.events, f"3 players with misar, a whole game ({deals} deals)"


def muggins() -> tuple[list[str], dict[str, Any], Events, str]:
    from tests.engine.test_muggins_playouts import PACK, playout

    rng = random.Random(2024)
    deck = list(PACK)
    rng.shuffle(deck)
    events = recorded(RULES["muggins"], lambda: playout(4, deck, {}, rng, 0.1))
    return [f"P{i}" for i in range(4)], {}, events, "4 players, a whole game (one in ten cards misplaced)"


def mulatschak() -> tuple[list[str], dict[str, Any], Events, str]:
    from bench_mulatschak import players, whole_game

    events, sheet, _ = whole_game(4, seed=2030)
    return players(4), {}, events, f"4 players, a whole game ({len(sheet)} deals)"


def mousel() -> tuple[list[str], dict[str, Any], Events, str]:
    from tests.engine.test_mousel_playouts import simulate_session

    final, events = simulate_session(4, 50, {}, seed=2024, mode="adjudicate")
    return list(final.players), {}, events, "4 players, 50 deals"


def scorepad() -> tuple[list[str], dict[str, Any], Events, str]:
    rng = random.Random(2024)
    events = [{"type": "points", "side": rng.randrange(4), "points": rng.randint(1, 30)} for _ in range(200)]
    return ["A", "B", "C", "D"], {"target": 10_000}, events, "4 players, 200 entries"


GAMES: list[tuple[str, str, Callable[[], tuple[list[str], dict[str, Any], Events, str]], float | None]] = [
    ("mulle", "Mulle", mulle_deal, 5.0),
    ("mulle", "Mulle", mulle, None),
    ("kasino", "Kasino", kasino, None),
    ("kasino", "Kasino", kasino_misar, None),
    ("muggins", "Muggins", muggins, None),
    ("mulatschak", "Mulatschak", mulatschak, 10.0),
    ("mousel", "Mousel", mousel, 6.0),
    ("scorepad", "score pad", scorepad, None),
]


def replay(rules: Any, players: Sequence[str], options: dict[str, Any], events: Events) -> Any:
    """What the server's snapshot cache does on a miss: ``engine.core.replay``, the fold of
    ``apply`` with the cyclic collector held (``--collector`` leaves it running, as before)."""
    if COLLECTOR_RUNS:
        apply = rules.apply
        state = rules.new(players, options)
        for event in events:
            state = apply(state, event)
        return state
    return engine_replay(rules, rules.new(players, options), events)


COLLECTOR_RUNS = False


def against(other: str, games: list[str], rounds: int, block: int) -> None:
    """This tree ÷ ``other``, blocks of ``block`` replays alternating for ``rounds`` rounds."""
    sessions = []
    for game_id, name, make, _ in GAMES:
        if not games or game_id in games:
            players, options, events, what = make()
            sessions.append({"game": game_id, "name": name, "what": what, "players": players,
                             "options": options, "events": events})
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(sessions, file)
    this = str(Path(__file__).resolve().parent.parent)
    script = str(Path(__file__).resolve().parent / "replay_worker.py")
    workers = {side: subprocess.Popen([sys.executable, script, tree, file.name], text=True,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE)
               for side, tree in (("this", this), ("other", other))}
    try:
        for proc in workers.values():
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        print(f"this tree ÷ {other}: {rounds} rounds of {block} replays each, alternating, CPU time")
        for index, session in enumerate(sessions):
            times: dict[str, list[float]] = {"this": [], "other": []}
            ratios = []
            for round_ in range(rounds):
                order = ("this", "other") if round_ % 2 == 0 else ("other", "this")
                medians = {}
                for side in order:
                    proc = workers[side]
                    assert proc.stdin is not None and proc.stdout is not None
                    proc.stdin.write(f"{index} {block}\n")
                    proc.stdin.flush()
                    block_times = json.loads(proc.stdout.readline())
                    times[side] += block_times
                    medians[side] = statistics.median(block_times)
                ratios.append(medians["this"] / medians["other"])
            q1, median, q3 = statistics.quantiles(ratios, n=4)
            print(f"  {session['name'] + ',':<12} {session['what']:<44} {len(session['events']):>5} events  "
                  f"this {statistics.median(times['this']) * 1000:6.2f} ms, other "
                  f"{statistics.median(times['other']) * 1000:6.2f} ms; ratio {median:.3f} (quartiles {q1:.3f}–{q3:.3f})")
    finally:
        for proc in workers.values():
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait()
        os.unlink(file.name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 runs per game instead of 40")
    parser.add_argument("--collector", action="store_true",
                        help="fold apply with the cyclic collector running (the replay before issue 16's second pass)")
    parser.add_argument("--against", metavar="TREE", help="compare with another checkout's engine (see above)")
    parser.add_argument("--rounds", type=int, default=30, help="with --against: alternating rounds per game")
    parser.add_argument("game", nargs="*", help="only these games (ids)")
    args = parser.parse_args()
    if args.against:
        against(args.against, args.game, 10 if args.quick else args.rounds, 3)
        return
    global COLLECTOR_RUNS
    COLLECTOR_RUNS = args.collector
    runs = 10 if args.quick else 40
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
          f"{runs} replays each, CPU median (wall median / best)")
    for game_id, name, make, target in GAMES:
        if args.game and game_id not in args.game:
            continue
        players, options, events, what = make()
        rules = RULES[game_id]
        replay(rules, players, options, events)  # warm: parse caches, the scheme's tables
        cpu, wall = [], []
        for _ in range(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            replay(rules, players, options, events)
            cpu.append(time.process_time() - start_cpu)
            wall.append(time.perf_counter() - start)
        median = statistics.median(cpu) * 1000
        verdict = "" if target is None else f"  target ≤ {target:g} ms: {'PASS' if median <= target else 'MISS'}"
        print(f"  {name + ',':<12} {what:<44} {len(events):>5} events  CPU {median:6.2f} ms "
              f"({statistics.median(wall) * 1000:6.2f} / {min(wall) * 1000:6.2f} ms wall)  "
              f"{median / len(events) * 1000:5.1f} µs/event{verdict}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
