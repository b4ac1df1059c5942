"""Roles on the server: a tablet inserts only its own table's events, the back office reads,
nobody updates or deletes (docs/card-room.md)."""

from __future__ import annotations

import psycopg
import pytest
from logs import make_log
from pgfixtures import db, office, pg, tablet  # noqa: F401 (fixtures used by name)

from dealer_assist.cardroom import schema
from dealer_assist.cardroom.source import server_sessions
from dealer_assist.cardroom.sync import sync_log
from dealer_assist.reports.reconcile import reconcile

REFUSED = psycopg.errors.InsufficientPrivilege


@pytest.fixture
def room(db, tablet, tmp_path):
    """Tables T1 and T2 synced by their own tablets."""
    urls = {t: tablet(t) for t in ("T1", "T2")}
    for n, (t, url) in enumerate(urls.items(), start=1):
        assert sync_log(make_log(tmp_path / f"t{n}.db", rounds=2, seed=n), url, t).ok
    return urls


def test_a_tablet_cannot_write_another_tables_events(room, tmp_path):
    path = make_log(tmp_path / "t3.db", rounds=1, seed=3)
    result = sync_log(path, room["T1"], "T3")
    assert not result.ok and "may not write table T3's events" in result.problem
    with psycopg.connect(room["T1"]) as conn, pytest.raises(REFUSED):
        conn.execute("INSERT INTO sync_runs (session_id, card_table, ok, events) "
                     "VALUES ('x', 'T2', true, 0)")


def test_a_tablet_sees_only_its_own_table(room):
    with psycopg.connect(room["T1"]) as conn:
        tables = conn.execute("SELECT DISTINCT card_table FROM events").fetchall()
    assert tables == [("T1",)]


@pytest.mark.parametrize("sql", [
    "UPDATE events SET at = at",
    "DELETE FROM events",
    "DELETE FROM sessions",
    "UPDATE session_meta SET value = 'x'",
    "TRUNCATE events",
])
def test_nobody_updates_or_deletes(room, db, office, sql):
    for url in (room["T1"], office):
        with psycopg.connect(url) as conn, pytest.raises(REFUSED):
            conn.execute(sql)
    with psycopg.connect(db) as conn, pytest.raises(psycopg.errors.RaiseException,
                                                    match="append only"):
        conn.execute(sql + (" CASCADE" if sql.startswith("TRUNCATE") else ""))


def test_the_back_office_reads_every_table_and_writes_nothing(room, office):
    rec = reconcile(server_sessions(office))
    assert [t.path.name.split("-")[0] for t in rec.tables] == ["T1", "T2"]
    assert all(t.integrity.ok and len(t.rounds) == 2 for t in rec.tables)
    with psycopg.connect(office) as conn, pytest.raises(REFUSED):
        conn.execute("INSERT INTO sync_runs (session_id, card_table, ok, events) "
                     "VALUES ('x', 'T1', true, 0)")


def test_the_server_refuses_events_out_of_order_from_anyone(room, db):
    with psycopg.connect(db) as conn:
        sid, last = conn.execute("SELECT session_id, max(seq) FROM events "
                                 "WHERE card_table = 'T1' GROUP BY session_id").fetchone()
    for url in (room["T1"], db):
        with psycopg.connect(url) as conn, pytest.raises(psycopg.errors.RaiseException,
                                                         match="out of order"):
            conn.execute("INSERT INTO events (session_id, card_table, seq, type, at, row) "
                         "VALUES (%s, 'T1', %s, 'note', 'now', '{}')", [sid, last + 2])


def test_migrations_run_once_and_upgrade_an_older_schema(pg, monkeypatch):
    full = list(schema.MIGRATIONS)
    with psycopg.connect(pg.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE upgrade_test")
    with psycopg.connect(pg.url(db="upgrade_test"), autocommit=True) as conn:
        monkeypatch.setattr(schema, "MIGRATIONS", full[:1])  # an older app made the schema
        assert schema.migrate(conn) == 1
        monkeypatch.setattr(schema, "MIGRATIONS", full)
        with pytest.raises(schema.SchemaError, match="schema version 1"):
            schema.check(conn)
        assert schema.migrate(conn) == schema.migrate(conn) == len(full)
        schema.check(conn)
