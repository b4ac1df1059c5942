"""Shipping logs to a real PostgreSQL server: idempotent, in order, resumable, chain-checked."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import threading

import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from faults import CuttingProxy
from logs import LiveTable, make_log, server_rows, tamper
from pgfixtures import db, pg, tablet  # noqa: F401 (fixtures used by name)

from dealer_assist.cardroom.chain import read_log, session_id
from dealer_assist.cardroom.sync import sync_log
from dealer_assist.session import keys
from dealer_assist.session.engine import Session
from dealer_assist.session.log import canonical_json, message

CLI = [sys.executable, "-m", "dealer_assist.cli"]


def on_server(url, path):
    """The server's rows of the log's session, and the log's own rows."""
    rows, _ = read_log(path)
    with psycopg.connect(url) as conn:
        return [r for _, r in server_rows(conn, session_id(rows))], rows


def assert_same(url, path):
    server, rows = on_server(url, path)
    assert server == rows  # every column of every row, in order, once


def test_a_log_arrives_whole_and_resending_is_harmless(db, tmp_path):
    path = make_log(tmp_path / "t1.db", rounds=5)
    first = sync_log(path, db, "T1", batch=40)
    assert first.ok and first.sent == first.events == first.on_server
    assert_same(db, path)
    again = sync_log(path, db, "T1")
    assert again.ok and again.sent == 0 and again.on_server == first.events
    assert_same(db, path)


def test_a_growing_log_ships_only_its_new_events_and_its_meta_and_key_once(db, tmp_path):
    table = LiveTable(tmp_path / "t1.db").play(2)
    first = sync_log(table.path, db, "T1")
    table.play(3)
    second = sync_log(table.path, db, "T1")
    table.close()
    assert second.sent == second.on_server - first.on_server > 0
    assert_same(db, table.path)
    _, log_meta = read_log(table.path)
    with psycopg.connect(db) as conn:
        meta = conn.execute("SELECT key, value FROM session_meta").fetchall()
        registered = conn.execute("SELECT public_key FROM session_keys").fetchall()
    assert dict(meta) == log_meta and len(meta) == len(log_meta)  # the signed meta, once
    assert log_meta["game"] == "greek31" and set(log_meta) >= {"session_id", "public_key"}
    assert registered == [(log_meta["public_key"],)]


def test_a_connection_dropped_mid_batch_resumes_without_loss_or_doubles(pg, db, tmp_path):
    path = make_log(tmp_path / "t1.db", rounds=20)
    proxy = CuttingProxy(pg.port)
    try:
        proxy.cut_after(30_000)  # well inside the first batch of 400 rows
        url = db.replace(f":{pg.port}/", f":{proxy.port}/")
        result = sync_log(path, url, "T1", batch=400)
    finally:
        proxy.close()
    assert proxy.cuts == 1
    assert result.ok and result.on_server == result.events
    assert_same(db, path)


def test_an_unreachable_server_leaves_the_log_as_it_was_and_sync_resumes_after(pg, db,
                                                                              tmp_path):
    table = LiveTable(tmp_path / "t1.db").play(2)
    first = sync_log(table.path, db, "T1")
    pg.stop()
    try:
        table.play(2)  # the table keeps working with the network down
        with pytest.raises(psycopg.OperationalError):
            sync_log(table.path, db, "T1", retries=0)
    finally:
        pg.start()
    table.close()
    second = sync_log(table.path, db, "T1")
    assert second.ok and second.sent == second.on_server - first.on_server
    assert_same(db, table.path)


def test_a_server_restarted_during_a_sync_loses_and_doubles_nothing(pg, db, tmp_path):
    path = make_log(tmp_path / "t1.db", rounds=60)
    results = []
    worker = threading.Thread(
        target=lambda: results.append(sync_log(path, db, "T1", batch=50, retries=8)))
    worker.start()
    pg.restart()
    worker.join()
    assert results[0].ok and results[0].on_server == results[0].events
    assert_same(db, path)


def test_the_same_log_from_two_tablets_at_once_is_stored_once(db, tablet, tmp_path):
    path = make_log(tmp_path / "t1.db", rounds=20)
    copy = shutil.copy(path, tmp_path / "t1-spare-tablet.db")
    urls = [tablet("T1", "tablet_t1_a"), tablet("T1", "tablet_t1_b")]
    results = []
    threads = [threading.Thread(target=lambda u=u, p=p: results.append(
        sync_log(p, u, "T1", batch=30))) for u, p in zip(urls, (path, copy), strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.ok for r in results) and sum(r.sent for r in results) == results[0].events
    assert_same(db, path)


def test_a_forked_log_is_refused_and_the_server_copy_is_kept(db, tmp_path):
    table = LiveTable(tmp_path / "t1.db").play(3)
    table.session.log.con.execute("PRAGMA wal_checkpoint(FULL)")
    fork = shutil.copy(table.path, tmp_path / "fork.db")
    table.play(1).close()
    other = Session.open(fork)
    other.submit({"type": "end_session"})
    other.close()
    assert sync_log(fork, db, "T1").ok
    result = sync_log(table.path, db, "T1")
    assert not result.ok and "disagree" in result.problem and result.sent == 0
    assert_same(db, fork)  # the first copy stands, untouched
    with psycopg.connect(db) as conn:
        runs = conn.execute("SELECT ok, problem FROM sync_runs ORDER BY id").fetchall()
    assert runs[-1][0] is False and "disagree" in runs[-1][1]


def test_a_tampered_log_ships_its_intact_part_and_reports_the_tamper(db, tmp_path):
    path = make_log(tmp_path / "t1.db", rounds=3)
    tamper(path, 10)
    result = sync_log(path, db, "T1")
    assert not result.ok and "altered at event 10" in result.problem
    assert result.on_server == 9
    server, rows = on_server(db, path)
    assert server == rows[:9]


def test_a_resync_checks_the_new_events_and_catches_a_tamper_among_them(db, tmp_path,
                                                                         monkeypatch):
    """A tablet syncs every few seconds: only the events after the server's head are checked
    again (the rest were checked when shipped), and a tamper among them is still caught."""
    from dealer_assist.cardroom import sync

    path = make_log(tmp_path / "t1.db", rounds=3)
    first = sync_log(path, db, "T1")
    assert first.ok
    checked = []
    real = sync.verify_rows

    def counting(rows, *args, **kwargs):
        checked.append(len(rows))
        return real(rows, *args, **kwargs)

    monkeypatch.setattr(sync, "verify_rows", counting)
    table = Session.open(path)
    table.submit({"type": "end_session", "reason": "closing"})
    table.close()
    second = sync_log(path, db, "T1")
    assert second.ok and second.sent == 1 and checked == [1, 1]  # event 1, then the new one
    assert_same(db, path)
    table = LiveTable(tmp_path / "t2.db").play(2)
    assert sync_log(table.path, db, "T2").ok
    head = sync_log(table.path, db, "T2").on_server
    table.play(1).close()
    tamper(table.path, head + 2)
    third = sync_log(table.path, db, "T2")
    assert not third.ok and f"altered at event {head + 2}" in third.problem
    assert third.sent == 1 and third.on_server == head + 1


def _resign_from(path, rows, seq, signer):
    """Rewrite event ``seq`` and re-sign it and every event after it with ``signer``."""
    con = sqlite3.connect(path)
    prev = rows[seq - 2]["sig"]
    for row in rows[seq - 1:]:
        body = row["body"]
        if row["seq"] == seq:
            body = canonical_json({**json.loads(body), "amount": 999})
        sig = signer.sign(message(row["seq"], row["type"], row["at"], prev, body)).hex()
        con.execute("UPDATE events SET body = ?, prev = ?, sig = ? WHERE seq = ?",
                    [body, prev, sig, row["seq"]])
        prev = sig
    con.commit()
    con.close()


def test_a_resigned_forgery_of_shipped_events_is_refused(db, tmp_path):
    """Someone with the tablet's private key re-signs the log from event 5: the file verifies
    on its own, but the server's copy disagrees with it and is kept."""
    path = make_log(tmp_path / "t1.db", rounds=3)
    assert sync_log(path, db, "T1").ok
    before, rows = on_server(db, path)
    _, meta = read_log(path)
    _resign_from(path, rows, 5, keys.Signer.load(meta["session_id"]))
    result = sync_log(path, db, "T1")
    assert not result.ok and "disagree" in result.problem
    assert on_server(db, path)[0] == before


def test_a_log_signed_with_another_key_is_not_shipped(db, tmp_path):
    """A forger without the private key re-signs with a key of their own: the tablet checks
    with the key in its data folder (not the log's meta) and ships nothing."""
    path = make_log(tmp_path / "t1.db", rounds=2)
    rows, _ = read_log(path)
    _resign_from(path, rows, 2, Ed25519PrivateKey.generate())
    result = sync_log(path, db, "T1")
    assert not result.ok and "altered at event 2" in result.problem and result.on_server == 1
    with psycopg.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 1


def test_a_log_whose_key_is_not_here_needs_the_exported_key(db, tmp_path):
    path = make_log(tmp_path / "t1.db", rounds=2)
    _, meta = read_log(path)
    pub = keys.trusted_key_path(meta["session_id"])
    exported = tmp_path / "t1.pub.pem"
    shutil.move(pub, exported)
    result = sync_log(path, db, "T1")
    assert not result.ok and "--key" in result.problem and result.on_server == 0
    result = sync_log(path, db, "T1", key=keys.load_public_key(exported))
    assert result.ok and result.on_server == result.events


def test_a_server_with_another_key_registered_refuses(db, tmp_path):
    path = make_log(tmp_path / "t1.db", rounds=1)
    rows, _ = read_log(path)
    with psycopg.connect(db, autocommit=True) as conn:  # the owner plants a key beforehand
        conn.execute("INSERT INTO sessions (session_id, card_table, started_at) "
                     "VALUES (%s, 'T1', 'x')", [session_id(rows)])
        conn.execute("INSERT INTO session_keys (session_id, card_table, public_key) "
                     "VALUES (%s, 'T1', %s)", [session_id(rows), "ab" * 32])
    result = sync_log(path, db, "T1")
    assert not result.ok and "another public key registered" in result.problem
    assert result.on_server == 0


def test_another_tables_session_is_refused(db, tmp_path):
    path = make_log(tmp_path / "t1.db", rounds=1)
    assert sync_log(path, db, "T1").ok
    result = sync_log(path, db, "T2")
    assert not result.ok and "already on the server for table T1" in result.problem


def run(*args):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, check=False)


def test_sync_command_exit_codes(pg, tmp_path):
    with psycopg.connect(pg.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE cli_test")
    url = pg.url(db="cli_test")
    good = make_log(tmp_path / "t1.db", rounds=2)
    refused = run("sync", str(good), "--to", url)
    assert refused.returncode == 1 and "no card-room schema" in refused.stderr
    done = run("sync", str(good), "--to", url, "--migrate")
    assert done.returncode == 0, done.stderr
    assert "t1.db (table t1)" in done.stdout and "on the server" in done.stdout
    bad = make_log(tmp_path / "t2.db", rounds=2)
    tamper(bad, 4)
    altered = run("sync", str(bad), "--to", url)
    assert altered.returncode == 1 and "altered at event 4" in altered.stderr
    (tmp_path / "notes.db").write_text("not a database")
    assert run("sync", str(tmp_path / "notes.db"), "--to", url).returncode == 2
    down = run("sync", str(good), "--to", pg.url(db="cli_test", port=1))
    assert down.returncode == 1 and "cannot reach the server" in down.stderr
    assert "Traceback" not in down.stderr + altered.stderr + refused.stderr
