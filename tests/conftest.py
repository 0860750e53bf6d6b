"""Shared test set-up: hypothesis profiles (CI is reproducible; `check` is quicker, `dev` digs deeper locally)."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", deadline=None, derandomize=True, max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# `make check`, the loop while you work: the same properties on fewer examples, still reproducible.
settings.register_profile(
    "check", deadline=None, derandomize=True, max_examples=15,  # CHECK_EXAMPLES
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev", deadline=None, max_examples=600,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)
CHECK_EXAMPLES = 15


# The longest files first (each took a minute or more of a worker in a run): xdist hands tests out
# in collection order, and one of these started last kept one core busy minutes after the other
# had finished. The many short tests then fill in. Every worker collects the same order.
SLOW_FIRST = [
    "web/test_openapi_fuzz.py", "test_packaging.py", "browser/test_hut_copy.py", "browser/test_hut_mulatschak.py",
    "browser/test_hut_seats.py", "browser/test_every_page_fits.py", "browser/test_hut.py",
    "browser/test_offline_table.py", "browser/test_hut_scan.py", "browser/test_first_screen.py",
    "browser/test_offline_start.py", "browser/test_offline_games.py", "browser/test_reconnect.py",
    "web/test_fuzz.py", "engine/test_kasino_playouts.py",
    "engine/test_muggins_playouts.py", "engine/test_mulle_playout.py", "web/test_circles.py",
    "engine/test_review.py", "web/test_streams_at_scale.py", "web/test_production.py",
]


def _slowness(item: pytest.Item) -> int:
    path = item.nodeid.split("::")[0].removeprefix("tests/")
    return SLOW_FIRST.index(path) if path in SLOW_FIRST else len(SLOW_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_slowness)  # stable: the rest keep their order
    # A test's own @settings(max_examples=150) outranks any profile: under `check` it is cut to
    # the profile's count too, or the loop would spend most of its time on a few properties.
    if PROFILE != "check":
        return
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples > CHECK_EXAMPLES:
            test._hypothesis_internal_use_settings = settings(own, max_examples=CHECK_EXAMPLES)  # type: ignore[union-attr]


class RunEveryCollectedTest:
    """Fails the run when fewer tests ran than were collected.

    pytest-xdist schedules by node id: tests that share one id (as a plugin's parametrisation
    once produced) run only once under ``--dist loadgroup``, and nothing else reports it. The
    controller hears every worker's collection and every test's teardown, so it can count.
    """

    def __init__(self) -> None:
        self.collected: list[str] | None = None
        self.ran = 0

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        if self.collected is None:  # every worker collects the same list
            self.collected = list(ids)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if session.items:  # without xdist (under it the controller collects nothing)
            self.collected = [item.nodeid for item in session.items]

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "teardown":
            self.ran += 1

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        config = session.config
        if self.collected is None or config.option.collectonly or session.shouldstop or session.shouldfail:
            return
        if exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            return
        problems = []
        shared = sorted({i for i in self.collected if self.collected.count(i) > 1})
        if shared:
            problems.append(f"{len(shared)} test id(s) are shared by several tests, so xdist runs only one "
                            f"of each: {', '.join(shared[:5])}")
        if self.ran < len(self.collected):
            problems.append(f"only {self.ran} of {len(self.collected)} collected tests ran")
        if problems:
            reporter = config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.line("")
                for problem in problems:
                    reporter.line(f"ERROR: {problem}", red=True, bold=True)
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist) counts
        config.pluginmanager.register(RunEveryCollectedTest(), "run-every-collected-test")


@pytest.fixture(autouse=True)
def _the_server_counts_again() -> Iterator[None]:
    """The phone's app switches the server's metrics off for its whole process (phone.prepare): a
    test that ran it here (a phone answered in-process) must not leave the next test's server
    counting nothing. Seen in CI: a browser test's in-process phone, then test_metrics on the same
    worker."""
    yield
    from scorekeeper import metrics

    metrics.set_counting(True)
