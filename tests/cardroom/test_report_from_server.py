"""The back office's report from the server: the same reconciliation as from the files."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import psycopg
from logs import make_log, tamper
from pgfixtures import db, pg, tablet  # noqa: F401 (fixtures used by name)
from reports.report_sessions import greek_session, trianta_session

from dealer_assist.cardroom.source import server_sessions
from dealer_assist.cardroom.sync import sync_log
from dealer_assist.reports.reconcile import reconcile

CLI = [sys.executable, "-m", "dealer_assist.cli"]


def report(*args):
    return subprocess.run([*CLI, "report", *args], capture_output=True, text=True, check=False)


def without_files(text: str) -> dict:
    """The report without the files' names and how each chain was proven (the tablet's data
    folder for a file, the key its tablet registered for the server's copy)."""
    data = json.loads(text)
    for table in data["tables"]:
        table.pop("file")
        table["integrity"].pop("proof", None)
        table["integrity"].pop("text", None)
    return data


def card_room(db, tmp_path, tampered=True):
    """Three tables' logs synced: Greek 31 (golden), Trianta Ena (golden), a third one that
    was altered at event 20 (unless ``tampered`` is false)."""
    logs = {"T1": greek_session(tmp_path / "t1.db"), "T2": trianta_session(tmp_path / "t2.db"),
            "T3": make_log(tmp_path / "t3.db", rounds=4)}
    if tampered:
        tamper(logs["T3"], 20)
    for table, path in logs.items():
        sync_log(path, db, table)
    return logs


def test_the_report_from_the_server_is_the_report_from_the_files(db, tmp_path):
    logs = card_room(db, tmp_path, tampered=False)
    for fmt in ("json", "text"):
        from_files = report(*(str(p) for p in logs.values()), "--format", fmt)
        from_server = report("--from", db, "--format", fmt)
        assert from_files.returncode == from_server.returncode  # 1: a golden chip discrepancy
        if fmt == "json":  # tables, results, checks, who pays whom: all the same
            assert without_files(from_server.stdout) == without_files(from_files.stdout)
            texts = [t["integrity"]["text"] for t in json.loads(from_server.stdout)["tables"]]
            assert all("the key its tablet registered" in t for t in texts)
        else:
            names = [f"{t}-" for t in logs]
            assert [n for n in names if f"== {n}" in from_server.stdout] == names
    one = report("--from", db, "--table", "T1", "--format", "json")
    assert json.loads(one.stdout)["tables"][0]["file"].startswith("T1-")
    assert without_files(one.stdout)["tables"] == without_files(
        report(str(logs["T1"]), "--format", "json").stdout)["tables"]


def test_a_tampered_tables_intact_part_is_on_the_server_and_reported_intact(db, tmp_path):
    logs = card_room(db, tmp_path)
    files = without_files(report(*(str(p) for p in logs.values()), "--format", "json").stdout)
    server = without_files(report("--from", db, "--format", "json").stdout)
    assert server["tables"][:2] == files["tables"][:2]
    assert files["tables"][2]["integrity"]["first_bad_seq"] == 20
    assert server["tables"][2]["integrity"]["ok"]
    assert server["tables"][2]["integrity"]["events"] == 19


def test_table_and_since_choose_the_sessions(db, tmp_path):
    card_room(db, tmp_path)
    only = json.loads(report("--from", db, "--table", "T2", "--format", "json").stdout)
    assert [t["game"] for t in only["tables"]] == ["trianta_ena"]
    assert report("--from", db, "--since", "2999-01-01").returncode == 1
    assert "no session" in report("--from", db, "--since", "2999-01-01").stderr
    assert len(server_sessions(db, since="2000-01-01T00:00:00.000+00:00")) == 3
    bad = report("--from", db, "--since", "yesterday")
    assert bad.returncode == 2 and "not a time" in bad.stderr


def test_an_altered_server_copy_is_named_in_the_report(db, tmp_path):
    logs = card_room(db, tmp_path)
    with psycopg.connect(db, autocommit=True) as conn:  # an owner who forces the trigger off
        conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_change")
        conn.execute("UPDATE events SET row = jsonb_set(row, '{body}', to_jsonb(replace("
                     "row->>'body', '\"card\":', '\"card\": '))) "
                     "WHERE card_table = 'T1' AND seq = 2")
    rec = reconcile(server_sessions(db))
    assert rec.tables[0].integrity.first_bad_seq == 2
    assert "ALTERED: event 2 (deal" in rec.tables[0].integrity.sentence()
    assert reconcile([logs["T1"]]).tables[0].integrity.ok  # the table's own log is intact


def test_an_unreachable_server_or_missing_input_is_said_plainly(pg, tmp_path):
    down = report("--from", pg.url(port=1))
    assert down.returncode == 2 and "cannot read the card room's server" in down.stderr
    assert report().returncode == 2 and "--from" in report().stderr
    assert "no card-room schema" in report("--from", pg.url()).stderr


def test_the_server_copy_is_proven_only_by_the_key_its_tablet_registered(db, tmp_path):
    """Not by the public key in the shipped meta: a registered key that is not the session's
    makes the copy BROKEN, no registered key leaves it not proven."""
    sync_log(make_log(tmp_path / "t1.db", rounds=2), db, "T1")
    assert server_sessions(db)[0].integrity().ok
    with psycopg.connect(db, autocommit=True) as conn:  # the owner, bypassing the guards
        conn.execute("ALTER TABLE session_keys DISABLE TRIGGER session_keys_no_change")
        conn.execute("UPDATE session_keys SET public_key = %s", ["ab" * 32])
    other = server_sessions(db)[0].integrity()
    assert not other.ok and "another key" in other.reason
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute("DELETE FROM session_keys")
    none = server_sessions(db)[0].integrity()
    assert not none.ok and "no public key is registered" in none.reason


def test_a_chain_check_goes_on_from_an_earlier_one_and_still_finds_a_changed_event(db,
                                                                                 tmp_path):
    """The floor view checks only the events after its last check; a changed event among
    them is still named, and the events checked earlier count as intact."""
    sync_log(make_log(tmp_path / "t1.db", rounds=2), db, "T1")
    whole = server_sessions(db)[0]
    assert whole.chain.ok
    first = replace(whole, raw=whole.raw[:10])
    assert first.chain.ok and first.chain.events == 10
    again = replace(whole, checked=first.chain)
    assert again.chain == whole.chain  # the same result, from the earlier check on
    forged = [dict(r) for r in whole.raw]
    forged[14]["body"] = forged[14]["body"].replace("}", ',"x":1}', 1)
    broken = replace(whole, raw=tuple(forged), checked=first.chain)
    assert not broken.chain.ok and broken.chain.first_bad_seq == 15
    assert broken.chain.events == 14 and not broken.integrity().ok
    stale = replace(whole, raw=whole.raw[:5], checked=first.chain)  # fewer rows than checked
    assert stale.chain.ok and stale.chain.events == 5
