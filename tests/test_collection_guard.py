"""The guard in tests/conftest.py: a run fails when pytest-xdist runs fewer tests than it collected
(two tests sharing one node id run once under --dist loadgroup, and nothing else reports it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CONFTEST = '''
from tests.conftest import pytest_configure  # noqa: F401 - the guard, as the real suite loads it


def pytest_collection_modifyitems(items):
    if "SHARE_IDS" in __import__("os").environ:  # what schemathesis' parametrisation once did
        try:  # pytest 9.2's structured node ids
            from _pytest.nodeid import coerce_node_id
        except ImportError:
            for item in items:
                item._nodeid = "test_x.py::test_shared"
        else:
            for item in items:
                item._id = coerce_node_id("test_x.py::test_shared")
'''
TESTS = '''
import pytest


@pytest.mark.parametrize("n", [1, 2, 3])
def test_shared(n):
    assert n
'''


def run(tmp_path: Path, share: bool) -> subprocess.CompletedProcess[str]:
    """(The suite itself is the run where every collected test runs and the guard stays quiet.)"""
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_x.py").write_text(TESTS)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if share:
        env["SHARE_IDS"] = "1"
    # Its own --basetemp: a pytest session makes /tmp/pytest-of-<user> 0700 again as it starts, and
    # the outer run's throwaway PostgreSQL (run as `postgres`, its data under that folder) then
    # could not reach its own files and stopped: every later PostgreSQL test errored.
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                           "--basetemp", str(tmp_path / "inner"), "-n", "2", "--dist", "loadgroup", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_a_run_that_skips_collected_tests_fails(tmp_path: Path) -> None:
    result = run(tmp_path, share=True)
    assert result.returncode == 1, result.stdout
    assert "only 1 of 3 collected tests ran" in result.stdout
    assert "test id(s) are shared by several tests" in result.stdout


GROUPED = '''
import pytest

pytestmark = pytest.mark.xdist_group("together")


@pytest.mark.parametrize("n", range(6))
def test_grouped(n):
    assert n >= 0
'''


def test_tests_of_one_xdist_group_run_on_one_worker(tmp_path: Path) -> None:
    """`make test` relies on it: a module's fixture started once (test_offline_games.py's phone, a
    Pyodide start) and the packaging tests on one worker. pytest 9.2 with pytest-xdist 3.8 dropped the
    groups without a word (pytest-dev/pytest-xdist#1386): the lock holds pytest below 9.2 until
    that is fixed."""
    (tmp_path / "test_g.py").write_text(GROUPED)
    result = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "--basetemp",
                             str(tmp_path / "inner"), "-n", "2", "--dist", "loadgroup", str(tmp_path)],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout
    workers = {line.split()[0] for line in result.stdout.splitlines() if "PASSED" in line}
    assert len(workers) == 1, f"one group ran on {sorted(workers)}:\n{result.stdout}"
