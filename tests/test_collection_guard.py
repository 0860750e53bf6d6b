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
        from _pytest.nodeid import coerce_node_id

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

