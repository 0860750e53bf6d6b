"""schemathesis hooks for tests/web/test_openapi_fuzz.py (loaded through ``SCHEMATHESIS_HOOKS``).

One auth provider: the credentials a stateful run sends are the ones ``POST /api/v1/tables``
(or the import) answered, put in the ``Authorization`` header by the document's links.
schemathesis 4 counts a header a link fills in as generated (likely invalid) credentials, and
fails every 2xx it gets with them; declared explicit, its ``ignored_auth`` check instead probes
each operation's first 2xx without them (401 expected) and with a wrong one (401/403).

One filter, ``filter_failure``: what it drops is tests/web/fuzz_filter.py's ``keep_failure``
(kept apart so that tests can call it without registering these hooks in their process).
"""

from __future__ import annotations

from typing import Any

import schemathesis

from tests.web.fuzz_filter import keep_failure


@schemathesis.auth()
class TokensFromLinks:
    def get(self, case: Any, context: Any) -> str:
        return "from the links"

    def set(self, case: Any, data: str, context: Any) -> None:
        pass  # the links already put the table's token in the Authorization header


@schemathesis.hook
def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    return keep_failure(failure, case, response)
