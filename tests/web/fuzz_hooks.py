"""schemathesis hooks for tests/web/test_openapi_fuzz.py (loaded through ``SCHEMATHESIS_HOOKS``).

One auth provider: the credentials a stateful run sends are the ones ``POST /api/v1/tables``
(or the import) answered, put in the ``Authorization`` header by the document's links.
schemathesis 4 counts a header a link fills in as generated (likely invalid) credentials, and
fails every 2xx it gets with them; declared explicit, its ``ignored_auth`` check instead probes
each operation's first 2xx without them (401 expected) and with a wrong one (401/403).

One filter, ``filter_failure``, which drops a single kind of failure: a schema-valid request
refused 422 with a rule id (``"rule": "MULLE-CAP-4"``): a move, a log or a position the rules of
the game forbid. Whether a move is legal depends on the position, which no schema of one request
can hold. Every other failure is reported; each dropped one is counted in the run's report
(``filtered``), which the test prints. And one case of the auth check: its replay of a DELETE
that already erased the table answers 404, as the contract says (``_replayed_delete``).
"""

from __future__ import annotations

import json
from typing import Any

import schemathesis


@schemathesis.auth()
class TokensFromLinks:
    def get(self, case: Any, context: Any) -> str:
        return "from the links"

    def set(self, case: Any, data: str, context: Any) -> None:
        pass  # the links already put the table's token in the Authorization header


def _rule(response: Any) -> str | None:
    try:
        data = json.loads(response.content)
    except ValueError:
        return None
    error = data.get("error") if isinstance(data, dict) else None
    return error.get("rule") if isinstance(error, dict) else None


def _replayed_delete(failure: Any, case: Any, response: Any) -> bool:
    """The auth check's replay of a DELETE that already worked. schemathesis re-sends the first
    2xx of an operation without credentials and with wrong ones, after the first one erased the
    table; the contract (DESIGN.md §2, docs/api.md) says a deleted table is 404 to everyone, with
    no tombstone to tell "erased" from "never was". Only that case: this operation, 404, in the
    auth check."""
    return (type(failure).__name__ == "IgnoredAuth" and case.method.upper() == "DELETE"
            and case.operation.path == "/api/v1/tables/{table_id}" and response.status_code == 404)


@schemathesis.hook
def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    forbidden_move = response.status_code == 422 and bool(_rule(response))
    if type(failure).__name__ == "RejectedPositiveData" and forbidden_move:
        return False
    return not _replayed_delete(failure, case, response)
