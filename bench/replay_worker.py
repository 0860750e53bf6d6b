"""A worker for ``bench_replays.py --against``: replays recorded sessions with one checkout's engine.

    python bench/replay_worker.py TREE SESSIONS.json

It imports ``TREE``'s engine (not the one next to this file) without ``scorekeeper/__init__.py``,
the web app, whose packages may differ between the checkouts; it replays each session once to
warm up, prints ``ready``, then answers each line ``index count`` read from stdin with the CPU
times of ``count`` replays of that session, as one JSON list on one line.
"""

from __future__ import annotations

import json
import sys
import time
import types
from pathlib import Path


def main(tree: str, sessions_file: str) -> None:
    sys.path.insert(0, tree)
    package = types.ModuleType("scorekeeper")
    package.__path__ = [str(Path(tree) / "scorekeeper")]
    sys.modules["scorekeeper"] = package
    from scorekeeper.engine import RULES
    from scorekeeper.engine.core import replay

    sessions = json.loads(Path(sessions_file).read_text())
    for session in sessions:
        rules = RULES[session["game"]]
        replay(rules, rules.new(session["players"], session["options"]), session["events"])
    print("ready", flush=True)
    for line in sys.stdin:
        index, count = map(int, line.split())
        session = sessions[index]
        rules = RULES[session["game"]]
        times = []
        for _ in range(count):
            start = time.process_time()
            replay(rules, rules.new(session["players"], session["options"]), session["events"])
            times.append(time.process_time() - start)
        print(json.dumps(times), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
