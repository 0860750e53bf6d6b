"""What a stored table's lenient replay costs (issue 25); prints figures, asserts nothing.

1. ``replay`` — a cache miss on each golden log (tests/golden/logs): the service's replay
   (``judged_replay``: the plain fold, and the lenient walk only once the fold is refused) against
   the engine's fold alone, blocks alternating, CPU time. A log the rules accept should cost the
   same.
2. ``refused`` — the same logs with one damaged entry stored after the first move: the walk that
   notes the verdict, against the plain fold of the clean log. This is paid only by a table that
   holds such a move, once per cache miss.
3. ``writes`` — ``service.record`` of score-pad entries on a SQLite table, in-process, this tree
   against another checkout (``--against TREE``, e.g. ``git worktree add /tmp/base main``), one
   worker process per tree, blocks alternating.

    .venv/bin/python bench/bench_stored.py [--against /tmp/base] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WRITER = r'''
import sys, time, tempfile, os
sys.path.insert(0, sys.argv[1])
from scorekeeper import create_app, service
from scorekeeper.extensions import db
work = tempfile.mkdtemp()
app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{work}/w.sqlite", "SECRET_KEY": "b",
                  "PUBLIC_URL": "http://127.0.0.1:1", "TESTING_NO_LISTENER": True})
with app.app_context():
    db.create_all()
    table = service.create_table("scorepad", ["A", "B"], "adjudicate", {"target": 10_000})
    tid = table.id
    for line in sys.stdin:
        n = int(line)
        start = time.process_time()
        for i in range(n):
            service.record(tid, {"type": "points", "side": i % 2, "points": 1})
        print((time.process_time() - start) / n * 1e6, flush=True)
'''


def cpu(fn: Any, repeat: int) -> float:
    start = time.process_time()
    for _ in range(repeat):
        fn()
    return (time.process_time() - start) / repeat * 1e3


def replays(rounds: int) -> None:
    from scorekeeper.engine import RULES
    from scorekeeper.engine.core import replay as fold
    from scorekeeper.service.facts import TableFacts
    from scorekeeper.service.snapshots import effective_events, judged_replay, new_state
    from scorekeeper.service.stored import lenient_fold

    print("1. replay: judged_replay ÷ engine fold (CPU ms per replay, medians over rounds)")
    print("2. refused: one damaged entry after the first move, lenient walk ÷ plain fold")
    for path in sorted((ROOT / "tests/golden/logs").glob("*.json")):
        log = json.loads(path.read_text(encoding="utf-8"))
        facts = TableFacts("b", log["game"], log["mode"], log["options"], tuple(log["players"]), "", "")
        effective = effective_events([(e["seq"], e["event"]) for e in log["events"]])
        payloads = [p for _, p in effective]
        rules = RULES[log["game"]]
        damaged = [effective[0], (0, ["not", "an", "event"]), *effective[1:]]
        repeat = max(1, 2000 // max(1, len(effective)))
        plain, judged, walk = [], [], []

        def folded(rules: Any = rules, facts: Any = facts, payloads: Any = payloads) -> Any:
            return fold(rules, new_state(facts), payloads)

        def served(facts: Any = facts, effective: Any = effective) -> Any:
            return judged_replay(facts, effective)

        def walked(rules: Any = rules, facts: Any = facts, damaged: Any = damaged) -> Any:
            return lenient_fold(rules, new_state(facts), damaged)

        for _ in range(rounds):
            plain.append(cpu(folded, repeat))
            judged.append(cpu(served, repeat))
            walk.append(cpu(walked, repeat))
        p, j, w = (statistics.median(x) for x in (plain, judged, walk))
        print(f"  {path.stem[:46]:46} {len(effective):5} moves  fold {p:7.2f}  judged {j:7.2f} "
              f"({j / p:4.2f}x)  refused {w:7.2f} ({w / p:4.2f}x)")


def writes(other: str, rounds: int, block: int) -> None:
    trees = {"this": str(ROOT), "other": other}
    workers = {name: subprocess.Popen([sys.executable, "-c", WRITER, tree], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, cwd=tempfile.gettempdir(),
                                      env={**os.environ, "PYTHONPATH": tree})
               for name, tree in trees.items()}
    results: dict[str, list[float]] = {name: [] for name in trees}
    try:
        for r in range(rounds):
            order = list(trees) if r % 2 == 0 else list(reversed(trees))
            for name in order:
                w = workers[name]
                assert w.stdin and w.stdout
                w.stdin.write(f"{block}\n")
                w.stdin.flush()
                results[name].append(float(w.stdout.readline()))
    finally:
        for w in workers.values():
            w.stdin.close()  # type: ignore[union-attr]
            w.wait()
    ratios = [a / b for a, b in zip(results["this"], results["other"], strict=True)]
    print(f"3. writes: service.record, CPU µs per write (block of {block}, {rounds} rounds alternating)")
    print(f"  this {statistics.median(results['this']):.0f}  other {statistics.median(results['other']):.0f}  "
          f"ratio median {statistics.median(ratios):.3f} (range {min(ratios):.3f}–{max(ratios):.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", metavar="TREE", help="another checkout for the write comparison")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    replays(args.rounds)
    if args.against:
        writes(args.against, args.rounds * 2, 500)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
