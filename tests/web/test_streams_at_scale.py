"""Many phones on real servers (gunicorn with the project's settings: the gevent worker).

* with the stream cap full a move still lands at once, and the next phone is told 503 + Retry-After;
* one address cannot take every stream; behind a proxy the address is the proxy's header's;
* three servers on one PostgreSQL: a move written through any reaches the phones on all;
* a restart with phones open: every phone is back within seconds, moves written meanwhile reach it;
* a seat change crosses workers through PostgreSQL NOTIFY.
(bench/bench_phones.py does the same with ten thousand phones.)
"""

from __future__ import annotations

import http.client
import secrets
import time

import pytest

from tests.phones import Crowd, Phone, summary
from tests.servers import Server, migrate
from tests.web.conftest import need_postgres, wait_until_listening

pytestmark = pytest.mark.packaging


def open_tables(server: Server, count: int) -> list[dict]:
    tables = []
    for _ in range(count):
        status, table = server.request("POST", "/api/v1/tables", {"game": "scorepad", "players": ["A", "B", "C", "D"]})
        assert status == 201, table
        tables.append(table)
    return tables


def phones_of(table: dict, count: int, address: str = "127.0.0.1", **headers: str) -> list[Phone]:
    path = f"/api/v1/tables/{table['id']}/stream?token={table['read_token']}"
    return [Phone(path, table["id"], address, dict(headers)) for _ in range(count)]


def move(server: Server, table: dict, points: int = 1) -> tuple[int, float]:
    t0 = time.monotonic()
    status, body = server.request("POST", f"/api/v1/tables/{table['id']}/events",
                                  {"type": "points", "side": 0, "points": points}, table["write_token"])
    assert status == 201, body
    return body["seq"], time.monotonic() - t0


def raw_stream_status(server: Server, table: dict, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str]]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", f"/api/v1/tables/{table['id']}/stream?token={table['read_token']}", headers=headers or {})
    response = conn.getresponse()
    got = response.status, {k.lower(): v for k, v in response.getheaders()}
    conn.close()
    return got


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    url = f"sqlite:///{tmp_path / 'streams.sqlite'}"
    migrate(url)
    return url


def test_with_the_cap_full_a_move_still_lands_at_once_and_reaches_the_phones(sqlite_url: str) -> None:
    server = Server(sqlite_url, SSE_MAX_STREAMS="40", SSE_PING_SECONDS="1")
    crowd = Crowd("127.0.0.1", server.port)
    try:
        tables = open_tables(server, 10)
        crowd.add([p for t in tables for p in phones_of(t, 4)])
        assert crowd.wait(lambda: summary(crowd.phones)["connected"] == 40), summary(crowd.phones)
        status, headers = raw_stream_status(server, tables[0])
        assert status == 503 and 5 <= int(headers["retry-after"]) <= 30
        seq, took = move(server, tables[3])
        # Not a timing target (bench/ holds those): a move blocked behind the full cap would wait
        # for a stream slot, seconds at least; 1.1 s was seen on a loaded 2-core machine.
        assert took < 5.0
        moved = [p for p in crowd.phones if p.table == tables[3]["id"]]
        assert crowd.wait(lambda: all(seq in p.arrivals for p in moved), 5)
        assert summary(crowd.phones)["connected"] == 40
        crowd.close()  # the phones go away without a word: the next ping finds them and frees their slots
        # A ping a second; a vanished peer shows only at the second write after its reset, and on a
        # loaded CI machine (the suite runs beside this) that took over 10 s once.
        deadline = time.monotonic() + 30
        while raw_stream_status(server, tables[0])[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert raw_stream_status(server, tables[0])[0] == 200
    finally:
        crowd.close()
        server.stop()


def test_one_address_cannot_take_every_stream_and_a_proxy_names_the_phone(sqlite_url: str) -> None:
    direct = Server(sqlite_url, SSE_MAX_PER_ADDRESS="5")
    crowd = Crowd("127.0.0.1", direct.port)
    try:
        table = open_tables(direct, 1)[0]
        crowd.add(phones_of(table, 5))
        assert crowd.wait(lambda: summary(crowd.phones)["connected"] == 5)
        assert raw_stream_status(direct, table)[0] == 503
        # Without PROXY_COUNT a client's X-Forwarded-For is not believed.
        assert raw_stream_status(direct, table, {"X-Forwarded-For": "198.51.100.7"})[0] == 503
        crowd.add(phones_of(table, 1, address="127.0.0.2"))  # another address still gets in
        assert crowd.wait(lambda: summary(crowd.phones)["connected"] == 6)
    finally:
        crowd.close()
        direct.stop()
    proxied = Server(sqlite_url, SSE_MAX_PER_ADDRESS="5", PROXY_COUNT="1")
    crowd = Crowd("127.0.0.1", proxied.port)
    try:
        crowd.add(phones_of(table, 5, **{"X-Forwarded-For": "198.51.100.7"}))
        assert crowd.wait(lambda: summary(crowd.phones)["connected"] == 5)
        assert raw_stream_status(proxied, table, {"X-Forwarded-For": "198.51.100.7"})[0] == 503
        status, _ = raw_stream_status(proxied, table, {"X-Forwarded-For": "198.51.100.8"})
        assert status == 200  # the same socket address, another phone behind the proxy
    finally:
        crowd.close()
        proxied.stop()


def test_a_restart_with_phones_open_brings_every_phone_back_and_moves_reach_them(sqlite_url: str) -> None:
    server = Server(sqlite_url, SSE_RESTART_SPREAD_MS="3000")  # the default 15 s is for ten thousand
    crowd = Crowd("127.0.0.1", server.port)
    try:
        tables = open_tables(server, 50)
        crowd.add([p for t in tables for p in phones_of(t, 4)])
        assert crowd.wait(lambda: summary(crowd.phones)["connected"] == 200), summary(crowd.phones)
        server.terminate()
        # Every stream ends cleanly at once, not when the graceful timeout (5 s) cuts it.
        assert crowd.wait(lambda: summary(crowd.phones)["connected"] == 0, 3), summary(crowd.phones)
        server.stop()
        assert summary(crowd.phones)["resets"] == 0
        server.start()
        restarted = time.monotonic()
        seqs = {t["id"]: move(server, t)[0] for t in tables[:10]}  # written while phones come back
        assert crowd.wait(lambda: summary(crowd.phones)["connected"] == 200, 30), summary(crowd.phones)
        back = max(p.last_open for p in crowd.phones) - restarted
        assert back < 30
        moved = [p for p in crowd.phones if p.table in seqs]
        assert crowd.wait(lambda: all(seqs[p.table] in p.arrivals for p in moved), 10)
        assert summary(crowd.phones)["refused"] == 0
    finally:
        crowd.close()
        server.stop()


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> str:
    need_postgres()
    info = request.getfixturevalue("postgresql").info
    url = f"postgresql://{info.user}@{info.host}:{info.port}/{info.dbname}"
    migrate(url)
    return url


@pytest.mark.postgres
def test_three_servers_on_one_postgres_every_move_reaches_every_phone(pg_url: str) -> None:
    servers = [Server(pg_url, DB_POOL_SIZE="4") for _ in range(3)]
    crowds = [Crowd("127.0.0.1", s.port) for s in servers]
    try:
        tables = open_tables(servers[0], 6)
        for table in tables:
            for crowd in crowds:  # each table's phones split over the three servers
                crowd.add(phones_of(table, 2))
        phones = [p for c in crowds for p in c.phones]
        assert crowds[0].wait(lambda: summary(phones)["connected"] == 36, 30), summary(phones)
        written = {}
        for i, table in enumerate(tables):
            written[table["id"]] = move(servers[i % 3], table)[0]
        assert crowds[0].wait(lambda: all(written[p.table] in p.arrivals for p in phones), 10)
    finally:
        for crowd in crowds:
            crowd.close()
        for server in servers:
            server.stop()


@pytest.mark.postgres
def test_a_seat_change_crosses_workers_through_notify_and_counts_once(pg_url: str) -> None:
    from scorekeeper import create_app, service
    from scorekeeper.live import Broker, broker, start_pg_listener

    app = create_app({"SQLALCHEMY_DATABASE_URI": pg_url.replace("postgresql://", "postgresql+psycopg://"),
                      "TESTING_NO_LISTENER": True, "SECRET_KEY": "t"})
    elsewhere = Broker()  # another worker's broker, fed only by its listener
    name = f"elsewhere-{secrets.token_hex(4)}"
    start_pg_listener(f"{pg_url}?application_name={name}", elsewhere)
    wait_until_listening(pg_url, name)
    with app.app_context():
        before = broker.seatings("t-seat")
        service.announce_seats("t-seat")
        assert broker.seatings("t-seat") == before + 1  # this worker at once
    deadline = time.monotonic() + 10
    while elsewhere.seatings("t-seat") == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert elsewhere.seatings("t-seat") == 1
    elsewhere.close()


@pytest.mark.postgres
def test_a_listener_cut_off_hears_the_move_it_missed_when_it_is_back(pg_url: str) -> None:
    """The listener's connection is cut (a database restart, a proxy's idle timeout) and a move is
    written before it is back: NOTIFY keeps nothing for it, so at its LISTEN again it reads the
    heads of the tables its phones wait on, and drops the tokens it keeps (codes made meanwhile)."""
    import threading

    import psycopg

    from scorekeeper import create_app
    from scorekeeper.live import Broker, start_pg_listener
    from scorekeeper.service import facts_cache
    from scorekeeper.service.facts import TableFacts

    app = create_app({"SQLALCHEMY_DATABASE_URI": pg_url.replace("postgresql://", "postgresql+psycopg://"),
                      "TESTING_NO_LISTENER": True, "SECRET_KEY": "t", "RATELIMIT_ENABLED": False})
    client = app.test_client()
    table = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]}).json
    elsewhere = Broker()
    name = f"cut-{secrets.token_hex(4)}"
    start_pg_listener(f"{pg_url}?application_name={name}", elsewhere)
    wait_until_listening(pg_url, name)
    heard: list[int | None] = []
    phone = threading.Thread(target=lambda: heard.append(elsewhere.wait(table["id"], 0, 20)), daemon=True)
    phone.start()
    while table["id"] not in elsewhere.watched():
        time.sleep(0.01)
    facts_cache.put(TableFacts("stale", "scorepad", "tally", {}, ("A", "B"), "w", "r"))

    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            "WHERE application_name = %s", (name,)).fetchone()[0] == 1
        while conn.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                           (name,)).fetchone()[0]:
            time.sleep(0.01)
    moved = client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "points", "side": 0, "points": 3},
                        headers={"Authorization": f"Bearer {table['write_token']}"})
    assert moved.status_code == 201, moved.json

    phone.join(15)
    elsewhere.close()
    assert heard == [moved.json["seq"]]
    assert facts_cache.get("stale") is None
