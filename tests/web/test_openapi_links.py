"""The document's links lead a client to a 2xx of every operation that needs a chain of calls
(test_openapi_fuzz.py's ``DEEP``): followed here step by step, each parameter worked out from the
answer and request before it as the link says, so a link that names a wrong field or token fails
here every time, not only when the fuzzer's random walk happens to take it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient


@pytest.fixture
def client(sqlite_app: Flask) -> FlaskClient:
    return sqlite_app.test_client()


class Step:
    """One call made, as a link's runtime expressions read it."""

    def __init__(self, path_params: dict[str, str], headers: dict[str, str], body: Any, answer: Any) -> None:
        self.path, self.headers, self.body, self.answer = path_params, headers, body, answer

    def value(self, expression: Any) -> Any:
        if not isinstance(expression, str):
            return {k: self.value(v) for k, v in expression.items()} if isinstance(expression, dict) else expression
        embedded = re.fullmatch(r"(.*)\{(\$[^}]+)\}(.*)", expression)
        if embedded:
            return embedded[1] + str(self.value(embedded[2])) + embedded[3]
        if expression.startswith("$response.body#/"):
            return self.answer[expression.removeprefix("$response.body#/")]
        if expression.startswith("$request.body#/"):
            return self.body[expression.removeprefix("$request.body#/")]
        if expression.startswith("$request.path."):
            return self.path[expression.removeprefix("$request.path.")]
        if expression.startswith("$request.header."):
            return self.headers[expression.removeprefix("$request.header.")]
        return expression


def operations(doc: dict[str, Any]) -> dict[str, tuple[str, str, dict[str, Any]]]:
    return {op["operationId"]: (method, path, op) for path, item in doc["paths"].items() for method, op in item.items()}


def follow(client: FlaskClient, doc: dict[str, Any], step: Step, source: str, status: str, link: str) -> Step:
    """Call what the link ``link`` of ``source``'s ``status`` answer names, with what it says."""
    ops = operations(doc)
    spec = ops[source][2]["responses"][status]["links"][link]
    method, path, _ = ops[spec["operationId"]]
    params = {k: step.value(v) for k, v in spec.get("parameters", {}).items()}
    path_params = {k.removeprefix("path."): v for k, v in params.items() if k.startswith("path.")}
    headers = {k.removeprefix("header."): v for k, v in params.items() if k.startswith("header.")}
    body = step.value(spec["requestBody"]) if "requestBody" in spec else None
    url = re.sub(r"\{(\w+)\}", lambda m: path_params[m[1]], path)
    answer = client.open(url, method=method.upper(), headers=headers, data=None if body is None else json.dumps(body),
                         content_type="application/json" if body is not None else None)
    assert 200 <= answer.status_code < 300, (spec["operationId"], answer.status_code, answer.get_json())
    return Step(path_params, headers, body, answer.get_json())


def test_a_move_then_its_undo_and_the_review_by_the_links(client: FlaskClient) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    body = {"game": "scorepad", "players": ["Anna", "Bo"]}
    made = client.post("/api/v1/tables", json=body)
    assert made.status_code == 201
    table = Step({}, {}, body, made.get_json())
    moved = follow(client, doc, table, "createTable", "201", "ScorePadPoints")
    follow(client, doc, moved, "postEvent", "201", "ReviewDeal")
    undone = follow(client, doc, moved, "postEvent", "201", "Undo")
    assert undone.answer["seq"] == 2


def test_a_table_kept_in_and_taken_out_of_a_circle_by_the_links(client: FlaskClient) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    body = {"name": "Friday", "members": []}
    made = client.post("/api/v1/circles", json=body)
    assert made.status_code == 201
    circle = Step({}, {}, body, made.get_json())
    table = follow(client, doc, circle, "createCircle", "201", "OpenCircleTable")
    kept = follow(client, doc, table, "createTable", "201", "KeepInCircle")
    assert kept.answer["added"] is False  # opened in it: kept already
    follow(client, doc, kept, "addCircleTable", "200", "RemoveCircleTable")
    back = follow(client, doc, table, "createTable", "201", "KeepInCircle")  # out, so kept anew
    assert back.answer["added"] is True
