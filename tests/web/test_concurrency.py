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


RACERS = 30
RACE_ROUNDS = 3


def test_thirty_writers_and_undos_race_on_one_table(app) -> None:
    """Issue 17: 30 phones at once, a third of them undoing after each move. The log stays
    gap-free, every 201 is in it with the move that was sent, no move is undone twice, and the
    sheet equals a fresh replay of the log."""
    client = app.test_client()
    table = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"],
                                                "options": {"target": 10_000}}).json
    url = f"/api/v1/tables/{table['id']}"
    writes: list[tuple[int, dict, str]] = []
    undos: list[tuple[int, dict]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(RACERS)

    def phone(n: int) -> None:
        phone_client = app.test_client()
        headers = {"Authorization": f"Bearer {table['write_token']}"}
        for r in range(RACE_ROUNDS):
            barrier.wait()
            note = f"phone {n} round {r}"
            response = phone_client.post(f"{url}/events", json={"type": "points", "side": n % 2, "points": 1,
                                                                "note": note}, headers=headers)
            with lock:
                writes.append((response.status_code, response.json, note))
            if n % 3 == 0:
                response = phone_client.post(f"{url}/undo", headers=headers)
                with lock:
                    undos.append((response.status_code, response.json))

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(RACERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(writes) == RACERS * RACE_ROUNDS and len(undos) == (RACERS + 2) // 3 * RACE_ROUNDS
    assert {status for status, _, _ in writes} == {201}, [body for status, body, _ in writes if status != 201][:3]
    assert all(status == 200 for status, _ in undos), [body for status, body in undos if status != 200][:3]

    headers = {"Authorization": f"Bearer {table['read_token']}"}
    log = client.get(f"{url}/events", headers=headers).json["events"]
    assert [e["seq"] for e in log] == list(range(1, len(writes) + len(undos) + 1))  # gap-free, nothing extra
    by_seq = {e["seq"]: e["event"] for e in log}
    for _, body, note in writes:  # every 201 present, holding the move that was sent
        assert by_seq[body["seq"]]["type"] == "points" and by_seq[body["seq"]]["note"] == note
    assert sorted(body["seq"] for _, body in undos) == sorted(s for s, e in by_seq.items() if e["type"] == "undo")
    undone = [e["undoes"] for e in by_seq.values() if e["type"] == "undo"]
    assert len(undone) == len(set(undone)) and all(by_seq[s]["type"] == "points" for s in undone)
    state = client.get(url, headers=headers).json["state"]
    assert sum(state["scores"]) == len(writes) - len(undos)
    from scorekeeper.service import cache
    cache.clear()
    assert client.get(url, headers=headers).json["state"] == state
