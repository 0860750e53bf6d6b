"""Two (or eight) phones submitting at once never lose or duplicate a move."""

from __future__ import annotations

import threading
import time

import pytest

PHONES = 8
ROUNDS = 6
WAIT = 60  # seconds a phone waits for the others: a phone that died must fail the test, not hang it


def run_phones(phone, count: int, barrier: threading.Barrier) -> list[BaseException]:
    """Start ``count`` phones, wait for them, and return what any of them raised. A phone that
    raises breaks the barrier, so the others stop at once instead of waiting for it forever."""
    errors: list[BaseException] = []

    def guarded(n: int) -> None:
        try:
            phone(n)
        except threading.BrokenBarrierError:
            pass
        except BaseException as error:  # noqa: BLE001 - reported by the test below
            errors.append(error)
            barrier.abort()

    threads = [threading.Thread(target=guarded, args=(n,)) for n in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT * 3)
    assert not any(t.is_alive() for t in threads), "a phone is still waiting"
    return errors


def hammer(app, table_id: str, token: str, *, with_expected: bool) -> list[tuple[int, dict]]:
    results: list[tuple[int, dict]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(PHONES)

    def phone(n: int) -> None:
        client = app.test_client()
        headers = {"Authorization": f"Bearer {token}"}
        for _ in range(ROUNDS):
            barrier.wait(WAIT)
            body: dict = {"type": "points", "side": n % 2, "points": 1}
            if with_expected:
                body["expected_seq"] = client.get(f"/api/v1/tables/{table_id}", headers=headers).json["seq"]
            response = client.post(f"/api/v1/tables/{table_id}/events", json=body, headers=headers)
            with lock:
                results.append((response.status_code, response.json))

    errors = run_phones(phone, PHONES, barrier)
    assert not errors, errors
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
            barrier.wait(WAIT)
            note = f"phone {n} round {r}"
            response = phone_client.post(f"{url}/events", json={"type": "points", "side": n % 2, "points": 1,
                                                                "note": note}, headers=headers)
            with lock:
                writes.append((response.status_code, response.json, note))
            if n % 3 == 0:
                response = phone_client.post(f"{url}/undo", headers=headers)
                with lock:
                    undos.append((response.status_code, response.json))

    errors = run_phones(phone, RACERS, barrier)
    assert not errors, errors
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


def test_writers_waiting_their_turn_hold_no_connection(tmp_path, monkeypatch) -> None:
    """SQLite, a pool smaller than the crowd of writers (as gunicorn's 32 threads against the
    default pool of 15), phones posting the sheet's form (the view reads the table through the
    session before it records the move), each write reading the table's head and log from the
    database (as after a restart, or when another process wrote): a phone must give its session's
    connection back before it takes one for the write, or phones holding one each wait for a
    second that never comes — every write stalled until the pool's timeout (500). The writer is
    held inside its write for a moment (as a busy machine deschedules it), so the crowd is always
    waiting."""
    from scorekeeper.extensions import db
    from scorekeeper.service import cache, store
    from tests.web.conftest import make_app

    append = store.Writer.append

    def descheduled(self, *args):
        time.sleep(0.02)
        return append(self, *args)

    monkeypatch.setattr(store.Writer, "append", descheduled)
    monkeypatch.setattr(cache, "latest", lambda table_id: None)

    # Three connections: the one this process writes on, and two for eight phones.
    app = make_app(f"sqlite:///{tmp_path / 'small-pool.sqlite'}",
                   SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 3, "max_overflow": 0, "pool_timeout": 5})
    try:
        client = app.test_client()
        table = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"],
                                                    "options": {"target": 10_000}}).json
        results: list[int] = []
        lock = threading.Lock()
        barrier = threading.Barrier(PHONES)

        def phone(n: int) -> None:
            phone_client = app.test_client()
            assert phone_client.get(f"/t/{table['id']}/k/{table['write_token']}").status_code == 302
            for _ in range(ROUNDS):
                barrier.wait(WAIT)
                response = phone_client.post(f"/t/{table['id']}/events", headers={"HX-Request": "true"},
                                             data={"type": "points", "side:int": str(n % 2), "points:int": "1"})
                with lock:
                    results.append(response.status_code)

        errors = run_phones(phone, PHONES, barrier)
        assert not errors, errors
        assert results == [200] * (PHONES * ROUNDS)
        headers = {"Authorization": f"Bearer {table['read_token']}"}
        log = client.get(f"/api/v1/tables/{table['id']}/events", headers=headers).json["events"]
        assert [e["seq"] for e in log] == list(range(1, PHONES * ROUNDS + 1))
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_a_write_from_another_process_is_seen_before_the_next_move(app) -> None:
    """This process keeps the newest state it has seen; another worker (or a command) may have
    moved the table since. The next move lands after that one, and a phone that expected the old
    head is told the sheet moved (409) — nothing lost, nothing written twice."""
    from scorekeeper.extensions import db
    from scorekeeper.models import Event, Table

    client = app.test_client()
    table = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]}).json
    url, headers = f"/api/v1/tables/{table['id']}", {"Authorization": f"Bearer {table['write_token']}"}
    assert client.post(f"{url}/events", json={"type": "points", "side": 0, "points": 1}, headers=headers).json["seq"] == 1
    with app.app_context():  # another process: straight to the database, past this one's caches
        db.session.add(Event(table_id=table["id"], seq=2, type="points", payload={"type": "points", "side": 1,
                                                                                  "points": 7}))
        db.session.get(Table, table["id"]).head_seq = 2
        db.session.commit()
    stale = client.post(f"{url}/events", json={"type": "points", "side": 0, "points": 2, "expected_seq": 1},
                        headers=headers)
    assert stale.status_code == 409 and stale.json["seq"] == 2 and stale.json["state"]["scores"] == [1, 7]
    moved = client.post(f"{url}/events", json={"type": "points", "side": 0, "points": 2}, headers=headers)
    assert moved.status_code == 201 and moved.json["seq"] == 3 and moved.json["state"]["scores"] == [3, 7]
    log = client.get(f"{url}/events", headers={"Authorization": f"Bearer {table['read_token']}"}).json["events"]
    assert [e["seq"] for e in log] == [1, 2, 3]


def test_a_table_expired_by_another_process_answers_404_to_a_write(app) -> None:
    from scorekeeper.commands import expire_tables

    client = app.test_client()
    table = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]}).json
    url, headers = f"/api/v1/tables/{table['id']}/events", {"Authorization": f"Bearer {table['write_token']}"}
    assert client.post(url, json={"type": "points", "side": 0, "points": 1}, headers=headers).status_code == 201
    with app.app_context():
        assert expire_tables(-1) == 1  # everything is older than tomorrow
    gone = client.post(url, json={"type": "points", "side": 0, "points": 1}, headers=headers)
    assert gone.status_code == 404 and gone.json["error"]["code"] == "not_found"
    assert client.post(url, json={"type": "points", "side": 0, "points": 1}, headers=headers).status_code == 404


def test_a_write_that_fails_inside_its_transaction_leaves_the_next_one_free(sqlite_app, monkeypatch) -> None:
    """SQLite: this process writes on one connection it keeps. A write that fails half-way (the
    disk full, say) must end its transaction there, or that connection would keep SQLite's write
    lock and every later write would wait for it."""
    import sqlite3

    from scorekeeper.service import store

    client = sqlite_app.test_client()
    table = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]}).json
    url, headers = f"/api/v1/tables/{table['id']}/events", {"Authorization": f"Bearer {table['write_token']}"}
    assert client.post(url, json={"type": "points", "side": 0, "points": 1}, headers=headers).status_code == 201
    with sqlite_app.app_context():
        writer = store.sqlite_writer()
        broken = store.Statements(**{**writer._sql.__dict__, "insert": "INSERT INTO no_such_table VALUES (?, ?, ?, ?, ?, ?)",
                                     "integrity": (sqlite3.IntegrityError,)})
    monkeypatch.setattr(writer, "_sql", broken)
    sqlite_app.testing = False  # a 500 answered, not raised into the test
    assert client.post(url, json={"type": "points", "side": 0, "points": 2}, headers=headers).status_code == 500
    monkeypatch.undo()
    assert not writer._connection.in_transaction
    done = client.post(url, json={"type": "points", "side": 0, "points": 3}, headers=headers)
    assert done.status_code == 201 and done.json["seq"] == 2 and done.json["state"]["scores"] == [4, 0]
