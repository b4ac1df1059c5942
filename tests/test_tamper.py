"""The tamper suite: an attacker with the file (not the data folder's key) edits the log the
ways the issue measured; every edit is detected and the first bad event or the head mismatch
is named. Evidence tools never change the file or its -wal."""

from __future__ import annotations

import hashlib
import itertools
import json
import shutil
import sqlite3
import subprocess

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dealer_assist.cli import main
from dealer_assist.reports.reconcile import reconcile_log
from dealer_assist.session.engine import Session
from dealer_assist.session.keys import public_key_hex
from dealer_assist.session.log import Head, canonical_json, genesis, message, verify
from dealer_assist.session.simulate import greek31_events, greek31_start

EVENTS = 120


def play(path, events=EVENTS):
    start = greek31_start()
    session = Session.new(start["game"], start["options"], start["seats"], start["first_dealer"],
                          path=path)
    for event in itertools.islice(greek31_events(1000, seed=5), events - 1):
        session.submit(event)
    return session


@pytest.fixture
def log(tmp_path):
    session = play(tmp_path / "s.db")
    head = session.log.head
    session.close()
    return tmp_path / "s.db", head


def sql(path, *statements):
    con = sqlite3.connect(path)
    for statement in statements:
        con.execute(*statement) if isinstance(statement, tuple) else con.execute(statement)
    con.commit()
    con.close()


def rows(path):
    con = sqlite3.connect(path)
    out = con.execute("SELECT seq, at, type, body, prev, sig FROM events ORDER BY seq").fetchall()
    meta = dict(con.execute("SELECT key, value FROM meta"))
    con.close()
    return out, meta


def resign(path, edit_seq, new_body, *, keep_meta_key=False):
    """The strongest forgery: edit one body, then re-sign the whole chain with the attacker's
    own key (and put that key in meta), exactly as the app would have."""
    key = Ed25519PrivateKey.generate()
    old, meta = rows(path)
    if not keep_meta_key:
        meta["public_key"] = public_key_hex(key.public_key())
    prev = genesis(meta)
    new = []
    for seq, at, kind, body, _, _ in old:
        if seq == edit_seq:
            body = canonical_json(new_body)
        sig = key.sign(message(seq, kind, at, prev, body)).hex()
        new.append((seq, at, kind, body, prev, sig))
        prev = sig
    sql(path, "DELETE FROM events", "DELETE FROM meta")
    con = sqlite3.connect(path)
    con.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)", new)
    con.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
    con.commit()
    con.close()


def body_of(path, seq):
    return json.loads(rows(path)[0][seq - 1][3])


def test_intact_log_and_its_head(log, capsys):
    path, head = log
    report = verify(path)
    assert report.ok and report.head == head and report.events == EVENTS
    assert main(["verify", str(path), "--expect-head", str(head)]) == 0
    assert f"head {head}" in capsys.readouterr().out


def test_forgery_with_every_signature_recomputed_under_a_new_key(log, capsys, tmp_path,
                                                                monkeypatch):
    path, head = log
    edited = body_of(path, 7) | {"amount": 9}
    resign(path, 7, edited)
    report = verify(path)  # the session's key is in this data folder
    assert not report.ok and "signed with another key" in report.reason
    # an auditor elsewhere (another data folder), with only the slip's head: the rewrite shows
    monkeypatch.setenv("DEALER_ASSIST_DATA", str(tmp_path / "auditor"))
    assert "public key is not in this data folder" in verify(path).reason
    assert main(["verify", str(path), "--expect-head", str(head)]) == 1
    out = capsys.readouterr().out
    assert f"head mismatch: event {EVENTS} is not the one on the slip ({head})" in out


def test_forgery_signed_with_another_key_but_the_sessions_public_key_kept(log):
    path, _ = log
    resign(path, 7, body_of(path, 7) | {"amount": 9}, keep_meta_key=True)
    report = verify(path)
    assert (report.ok, report.first_bad_seq) == (False, 1)
    assert "signature does not match" in report.reason


def test_one_body_edited_without_a_key(log):
    path, _ = log
    sql(path, ("UPDATE events SET body = ? WHERE seq = 9",
               [canonical_json(body_of(path, 9) | {"seat": 2})]))
    report = verify(path)
    assert (report.ok, report.first_bad_seq, report.events) == (False, 9, 8)
    assert report.first_bad_type == body_of(path, 9)["type"]


def test_cut_tail_is_detected_by_the_close_record_and_by_the_head(log, capsys):
    path, head = log
    sql(path, "DELETE FROM events WHERE seq > 90")
    report = verify(path)
    assert not report.ok and "closed with 120 events but the file has 90" in report.reason
    # the attacker also fixes the writer's record: the slip's head still catches it
    sql(path, "UPDATE writer SET events = 90")
    assert verify(path).ok and verify(path).events == 90  # the 90 left are genuine...
    assert main(["verify", str(path), "--expect-head", str(head)]) == 1
    assert "the slip shows 120:" in capsys.readouterr().out  # ...but the end was cut off


@pytest.mark.parametrize("edit, first_bad", [
    ("DELETE FROM events WHERE seq = 40", 40),
    ("UPDATE events SET seq = -seq WHERE seq IN (30, 31)", 30),  # reorder, step 1 ...
    ("UPDATE events SET type = 'bet' WHERE seq = 12", 12),
    ("UPDATE events SET at = '2020-01-01T00:00:00.000+00:00' WHERE seq = 50", 50),
    ("UPDATE events SET body = NULL WHERE seq = 60", 60),
])
def test_row_edits_name_the_first_bad_event(log, edit, first_bad):
    path, _ = log
    if "NULL" in edit:  # NOT NULL is in the schema text: an attacker rewrites that too
        con = sqlite3.connect(path)
        con.execute("PRAGMA writable_schema = ON")
        con.execute("UPDATE sqlite_master SET sql = replace(sql, 'body TEXT NOT NULL', "
                    "'body TEXT') WHERE name = 'events'")
        con.commit()
        con.close()
    sql(path, edit)
    if "-seq" in edit:  # ... step 2: put them back swapped
        sql(path, "UPDATE events SET seq = 31 WHERE seq = -30",
            "UPDATE events SET seq = 30 WHERE seq = -31")
    report = verify(path)
    assert (report.ok, report.first_bad_seq) == (False, first_bad)
    assert main(["verify", str(path)]) == 1


def test_an_inserted_row_is_detected(log):
    path, _ = log
    old, _ = rows(path)
    seq, at, kind, body, _prev, sig = old[-1]
    sql(path, ("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
               [seq + 1, at, kind, body, sig, "00" * 64]), "UPDATE writer SET events = 121")
    report = verify(path)
    assert (report.ok, report.first_bad_seq, report.events) == (False, 121, 120)


@pytest.mark.parametrize("key, value", [("game", "trianta_ena"), ("created", "2001-01-01")])
def test_meta_is_covered(log, key, value):
    path, _ = log
    sql(path, (f"UPDATE meta SET value = ? WHERE key = '{key}'", [value]))
    report = verify(path)
    assert (report.ok, report.first_bad_seq) == (False, 1)
    assert "meta table was changed" in report.reason


def test_an_empty_events_table_is_broken(log, capsys):
    path, _ = log
    sql(path, "DELETE FROM events", "UPDATE writer SET events = 0")
    report = verify(path)
    assert not report.ok and "the log has no events" in report.reason
    assert main(["verify", str(path)]) == 1
    assert "BROKEN: the log has no events" in capsys.readouterr().out


def test_a_copy_without_its_wal_says_so(tmp_path, capsys):
    session = play(tmp_path / "live.db")  # open: its newest events are in the -wal
    copy = tmp_path / "copy.db"
    shutil.copyfile(tmp_path / "live.db", copy)
    report = verify(copy)
    assert not report.ok and "its -wal file is missing" in report.reason
    assert report.events == 1 and "holds only the 1 events" in report.reason
    assert main(["report", str(copy)]) == 1
    assert "-wal file is missing" in capsys.readouterr().out
    session.close()


def digest(*paths):
    return [hashlib.sha256(p.read_bytes()).hexdigest() if p.exists() else None for p in paths]


def test_verify_and_report_never_change_the_file_or_its_wal(tmp_path):
    session = play(tmp_path / "live.db")
    path = tmp_path / "live.db"
    files = [path, tmp_path / "live.db-wal"]  # (the -shm is shared memory, not evidence)
    crashed = tmp_path / "crashed"  # a crash leftover: a -wal without its -shm
    crashed.mkdir()
    shutil.copyfile(path, crashed / "s.db")
    shutil.copyfile(tmp_path / "live.db-wal", crashed / "s.db-wal")
    before, before_crashed = digest(*files), digest(crashed / "s.db", crashed / "s.db-wal")
    assert verify(path).ok and verify(path).events == EVENTS
    assert reconcile_log(path).integrity.ok
    assert main(["verify", str(crashed / "s.db")]) == 0  # read through a temporary copy
    assert digest(*files) == before
    assert digest(crashed / "s.db", crashed / "s.db-wal") == before_crashed
    assert sorted(p.name for p in crashed.iterdir()) == ["s.db", "s.db-wal"]
    session.close()


@pytest.fixture
def read_only_medium(tmp_path):
    """A tmpfs the test mounts and then remounts read-only (needs root)."""
    mount = tmp_path / "medium"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)],
                      capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (not root)")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_verify_on_a_write_blocked_medium(tmp_path, read_only_medium, capsys):
    session = play(tmp_path / "s.db")
    head = session.log.head
    shutil.copyfile(tmp_path / "s.db", read_only_medium / "s.db")
    shutil.copyfile(tmp_path / "s.db-wal", read_only_medium / "s.db-wal")  # crashed, say
    session.close()
    subprocess.run(["mount", "-o", "remount,ro", str(read_only_medium)], check=True)
    assert main(["verify", str(read_only_medium / "s.db"), "--expect-head", str(head)]) == 0
    assert "OK: 120 events" in capsys.readouterr().out


def test_head_parse_refuses_bad_text(capsys):
    assert Head.parse("5:0123456789ABCDEF").digest == "0123456789abcdef"
    with pytest.raises(SystemExit) as exc:
        main(["verify", "x.db", "--expect-head", "five"])
    assert exc.value.code == 2
