"""schemathesis hooks for tests/web/test_openapi_fuzz.py (loaded through ``SCHEMATHESIS_HOOKS``).

One hook, ``filter_failure``: it drops a "schema-valid request rejected" (positive data
acceptance) only where the refusal is one the document states in words because JSON Schema
cannot say it, and lets every other failure through:

* names that differ only in case, compatibility forms or invisible characters, and a score pad
  whose target equals its start (NewTable's and Export's description): the server's 400/422
  naming exactly that;
* a move, a log or a position the rules refuse — 422 with a rule id (``illegal_move``,
  ``illegal_position``, ``unsupported`` from a replayed log) — or an unreadable card
  (400 ``bad_notation``): legality depends on the position, which no schema of one request holds;
* an event of another game or mode than the table's (the event schema is the union of all games'
  events, of both modes);
* a field the document leaves optional that the position needs (the first deal's ``dealer``);
* a seat beyond the table's (``player``, ``side``, ``dealer`` …: their range is the table's);
* a log whose undo has nothing to undo (an export never holds one);
* a whole number written as a float (``2.0``) where the document says integer: JSON Schema cannot
  tell ``2.0`` from ``2``; the server reads only ``2`` as a whole number (left as it is).

A 2xx that the ``ignored_auth`` check takes for one with generated credentials is re-checked:
dropped only if the same request without credentials is 401 and with a wrong token 403.

And one auth provider: the credentials a stateful run sends are the ones ``POST /api/v1/tables``
answered, put in the ``Authorization`` header by the document's links.
schemathesis takes link values for generated (likely invalid) credentials; declaring them explicit
makes its ``ignored_auth`` check probe each 2xx without them (401) and with a wrong one (403).

Every dropped failure is counted in the run's report (``filtered``), which the test prints.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import requests
import schemathesis

from scorekeeper.service.tables import INVISIBLE

POSITIVE = "RejectedPositiveData"
GENERATED_AUTH = "(generated auth likely invalid)"
SEATS = ("side", "player", "dealer", "taker", "declarer", "breaker")
RULE_CODES = {"illegal_move", "illegal_position", "unsupported", "stale"}


def _fold(name: str) -> str:
    text = " ".join(INVISIBLE.sub("", name).split())
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold() if unicodedata.category(c) != "Cf")


def _unsayable(body: Any) -> bool:
    """Does this set-up break one of the rules the document states only in words?"""
    if not isinstance(body, dict):
        return False
    players = body.get("players")
    if isinstance(players, list) and all(isinstance(p, str) for p in players):
        folded = [_fold(p) for p in players]
        if len(set(folded)) < len(folded):
            return True
    options = body.get("options") or {}
    if body.get("game") == "scorepad" and isinstance(options, dict):
        return options.get("start", 0) == options.get("target", 61)
    return False


def _members_unsayable(body: Any) -> bool:
    """Two members (other names included) equal after folding: NewCircle's description says so."""
    members = body.get("members") if isinstance(body, dict) else None
    if not isinstance(members, list):
        return False
    names = [n for m in members for n in ([m] if isinstance(m, str) else
                                          [m.get("name"), *(m.get("aliases") or [])] if isinstance(m, dict) else [])]
    folded = [_fold(n) for n in names if isinstance(n, str)]
    return len(set(folded)) < len(folded)


def _error(response: Any) -> dict[str, Any]:
    try:
        data = json.loads(response.content)
    except ValueError:
        return {}
    return data.get("error") or {} if isinstance(data, dict) else {}


def _whole_float(value: Any) -> bool:
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, dict):
        return any(_whole_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_whole_float(v) for v in value)
    return False


@schemathesis.auth()
class TokensFromLinks:
    def get(self, case: Any, context: Any) -> str:
        return "from the links"

    def set(self, case: Any, data: str, context: Any) -> None:
        pass  # the links already put the table's token where the operation reads it


def _needed_by_position(message: str) -> bool:
    """"the event needs 'x'" for an ``x`` that no event model requires: the engine asks for it
    in some positions only (a missing field the model requires is refused before the engine)."""
    from scorekeeper.schemas import GAMES, event_models

    text = message.split(": ", 1)[-1] if message.startswith("event ") else message
    if not text.startswith("the event needs '"):
        return False
    field = text[len("the event needs '"):].rstrip("'")
    fields = [model.model_fields[field] for game in GAMES for model in event_models(game).values()
              if field in model.model_fields]
    return bool(fields) and not any(f.is_required() for f in fields)


def _enforced(response: Any) -> bool:
    """The same request again without its credentials, then with a wrong one: 401, then 403?"""
    sent = response.request
    url = urlsplit(sent.url)
    query = urlencode([(k, v) for k, v in parse_qsl(url.query) if k != "token"])
    bare = urlunsplit(url._replace(query=query))
    headers = {k: v for k, v in sent.headers.items() if k.lower() != "authorization"}
    without = requests.request(sent.method, bare, headers=headers, data=sent.body, timeout=30)
    wrong = requests.request(sent.method, bare, headers={**headers, "Authorization": "Bearer wrong"},
                             data=sent.body, timeout=30)
    if without.status_code != 401:
        return False
    # A deletion that answered 2xx has already erased the table: a wrong token then finds none (404).
    gone = sent.method == "DELETE" and wrong.status_code == 404
    return wrong.status_code == 403 or gone


@schemathesis.hook
def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    if GENERATED_AUTH in str(getattr(failure, "message", "")) and 200 <= response.status_code < 300:
        # A stateful step may carry a real token from an earlier step (schemathesis' own inferred
        # links copy it), which it takes for generated; what the check asks is checked here.
        return not _enforced(response)
    if type(failure).__name__ == "IgnoredAuth" and case.method == "DELETE" and response.status_code == 404:
        return False  # an earlier step erased the table: no token opens it any more (404 before 401/403)
    if type(failure).__name__ != POSITIVE:
        return True
    operation = case.operation.definition.raw.get("operationId")
    error = _error(response)
    code, message = error.get("code"), str(error.get("message", ""))
    if operation in ("createTable", "importTable") and _unsayable(case.body):
        return False
    if operation in ("createCircle", "importCircle", "changeCircle") and _members_unsayable(case.body):
        return False
    if operation == "addCircleTable" and code in ("unknown_table", "forbidden"):
        return False  # the body must name a table there is, with its own write token (stated in words)
    if operation == "importCircle" and message.startswith("table "):
        return False  # one of its tables refused as importTable refuses it (the rules stated in words, a replay)
    if _whole_float(case.body):
        return False
    if operation == "importTable" and message.endswith(": there is nothing to undo"):
        return False
    if operation in ("postEvent", "judgePosition", "importTable") and (
            (code in RULE_CODES and error.get("rule")) or code == "bad_notation"):
        return False
    if operation == "judgePosition" and code == "bad_request":
        return False  # the desk's cross-field checks (a seat beyond the lists, a breaker without a trick)
    if operation in ("postEvent", "importTable") and code == "malformed_event" and any(
            message.split(": ")[-1].startswith(f"{key!r} must be at most") for key in SEATS) or "; seats are 0 to " in message:
        return False  # a seat beyond this table's (the schema's seat is any whole number)
    if operation in ("postEvent", "importTable") and code == "malformed_event" and _needed_by_position(message):
        return False  # a field the document leaves optional that this position needs (a first deal's dealer)
    if operation in ("postEvent", "importTable") and code == "malformed_event" and " per player, " in message:
        return False  # a list as long as this table has players (the schema cannot count the players)
    if operation in ("postEvent", "importTable") and code == "malformed_event" and " has no " in message:
        return False  # an event of another game, or of the other mode, than the table's
    return True
