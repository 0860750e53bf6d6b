"""Old tables are forgotten after the configured number of days of inactivity."""

from __future__ import annotations

from datetime import timedelta

from scorekeeper.extensions import db
from scorekeeper.models import Event, Seat, Table, utcnow


def test_expire_tables_command(app) -> None:
    client = app.test_client()
    old = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]}).json
    fresh = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["C", "D"]}).json
    client.post(f"/api/v1/tables/{old['id']}/events", json={"type": "points", "side": 0, "points": 1},
                headers={"Authorization": f"Bearer {old['write_token']}"})
    with app.app_context():
        db.session.get(Table, old["id"]).updated_at = utcnow() - timedelta(days=31)
        db.session.commit()
    result = app.test_cli_runner().invoke(args=["expire-tables"])
    assert "expired 1 table(s)" in result.output
    with app.app_context():
        assert db.session.get(Table, old["id"]) is None and db.session.get(Table, fresh["id"]) is not None
        assert db.session.query(Event).filter_by(table_id=old["id"]).count() == 0
        assert db.session.query(Seat).filter_by(table_id=old["id"]).count() == 0
    result = app.test_cli_runner().invoke(args=["expire-tables", "--days", "0"])
    assert "expired 1 table(s)" in result.output
