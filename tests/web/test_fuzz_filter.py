"""The fuzz run's filter (tests/web/fuzz_filter.py) drops exactly what it says, and nothing else."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from schemathesis.openapi.checks import AuthScenario, IgnoredAuth

from tests.web.fuzz_filter import keep_failure

DELETE = ("DELETE", "/api/v1/tables/{table_id}")


def _case(method: str, path: str) -> Any:
    return SimpleNamespace(method=method, operation=SimpleNamespace(path=path))


def _auth_failure(probe_status: str, scenario: AuthScenario = AuthScenario.INVALID_AUTH) -> IgnoredAuth:
    # As schemathesis raises it: the probe's status is in the message only; the hook gets the
    # authenticated response that worked.
    return IgnoredAuth(operation="DELETE /api/v1/tables/{table_id}", scenario=scenario,
                       message=f"Expected 401 or 403, got `{probe_status}` for `DELETE /api/v1/tables/{{table_id}}`",
                       title="Unexpected response to invalid authentication")


@pytest.mark.parametrize("path", ["/api/v1/tables/{table_id}", "/api/v1/circles/{circle_id}"])
def test_the_auth_probe_of_a_delete_that_worked_may_answer_404(path: str) -> None:
    # A circle, erased, is 404 to every token as a table is (no tombstone): the same contract.
    assert keep_failure(_auth_failure("404 Not Found"), _case("DELETE", path), SimpleNamespace(status_code=200)) is False


@pytest.mark.parametrize(("failure", "case", "status"), [
    (_auth_failure("200 OK"), _case(*DELETE), 204),                                   # the probe got through
    (_auth_failure("204 No Content", AuthScenario.NO_AUTH), _case(*DELETE), 204),
    (_auth_failure("404 Not Found"), _case("POST", "/api/v1/tables/{table_id}/undo"), 201),  # another operation
    (_auth_failure("404 Not Found"), _case(*DELETE), 404),                           # the delete itself failed
    (_auth_failure("404 Not Found"), _case("GET", "/api/v1/circles/{circle_id}"), 200),   # a circle's read
    (_auth_failure("404 Not Found"), _case("DELETE", "/api/v1/circles/{circle_id}/tables/{table_id}"), 200),
])
def test_every_other_auth_failure_is_kept(failure: IgnoredAuth, case: Any, status: int) -> None:
    assert keep_failure(failure, case, SimpleNamespace(status_code=status, content=b"{}")) is True
