"""Two (or eight) phones submitting at once never lose or duplicate a move."""

from __future__ import annotations

import threading

import pytest

PHONES = 8
ROUNDS = 6


def hammer(app, table_id: str, token: str, *, with_expected: bool) -> list[tuple[int, dict]]:
    results: list[tuple[int, dict]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(PHONES)

    def phone(n: int) -> None:
        client = app.test_client()
        headers = {"Authorization": f"Bearer {token}"}
        for _ in range(ROUNDS):
            barrier.wait()
            body: dict = {"type": "points", "side": n % 2, "points": 1}
            if with_expected:
                body["expected_seq"] = client.get(f"/api/v1/tables/{table_id}", headers=headers).json["seq"]
            response = client.post(f"/api/v1/tables/{table_id}/events", json=body, headers=headers)
            with lock:
                results.append((response.status_code, response.json))

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(PHONES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@pytest.mark.parametrize("with_expected", [False, True])
def test_concurrent_writers(app, with_expected: bool) -> None:
    client = app.test_client()
    table = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"],
                                                "options": {"target": 10_000}}).json
    results = hammer(app, table["id"], table["write_token"], with_expected=with_expected)
    assert len(results) == PHONES * ROUNDS
    accepted = sorted(body["seq"] for status, body in results if status == 201)
    refused = [body for status, body in results if status != 201]
    assert all(status in (201, 409) for status, _ in results), {s for s, _ in results}
    if not with_expected:
        assert not refused  # without expected_seq a lost race is re-sequenced, never dropped
    for body in refused:
        assert body["error"]["code"] == "stale" and isinstance(body["seq"], int)
    assert accepted == list(range(1, len(accepted) + 1))  # unique and consecutive
    headers = {"Authorization": f"Bearer {table['read_token']}"}
    log = client.get(f"/api/v1/tables/{table['id']}/events", headers=headers).json["events"]
    assert [e["seq"] for e in log] == accepted
    state = client.get(f"/api/v1/tables/{table['id']}", headers=headers).json["state"]
    assert sum(state["scores"]) == len(accepted)
    # the state the API reports equals a fresh replay of the log
    from scorekeeper.service import cache
    cache.clear()
    assert client.get(f"/api/v1/tables/{table['id']}", headers=headers).json["state"] == state
