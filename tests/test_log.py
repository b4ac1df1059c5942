"""The session log: signed chain, reading back, format, one writer, keys outside the file."""

import sqlite3

import pytest

from dealer_assist.errors import StorageError
from dealer_assist.session import keys
from dealer_assist.session.log import EventLog, Head, genesis, verify, verify_rows
from dealer_assist.session.storage import APPLICATION_ID, FORMAT


def make_log(path, n=5):
    log = EventLog.create(path, {"type": "session_start", "game": "greek31"})
    for i in range(n - 1):
        log.append({"type": "note", "n": i, "text": "é"})
    log.close()
    return path


def test_appended_events_read_back_in_order(tmp_path):
    log = EventLog(make_log(tmp_path / "s.db"))
    assert [e.get("n") for e in log.events()] == [None, 0, 1, 2, 3]
    assert log.last_seq == 5
    log.close()


def test_identical_events_read_back_as_equal_but_separate_dicts(tmp_path):
    """Each distinct body is decoded once (a long session repeats a few hundred events); an
    event changed by a reader does not change the identical event beside it."""
    log = EventLog.create(tmp_path / "s.db", {"type": "session_start", "game": "greek31"})
    log.append_many([{"type": "deal", "seat": 2, "card": "QS"}] * 3)
    log.close()
    log = EventLog(tmp_path / "s.db")
    events = log.events()
    log.close()
    assert events[1] == events[2] == events[3] == {"type": "deal", "seat": 2, "card": "QS"}
    events[1]["seat"] = 5
    assert events[2]["seat"] == events[3]["seat"] == 2


def test_intact_log_verifies_with_the_key_of_the_data_folder(tmp_path):
    path = make_log(tmp_path / "s.db")
    report = verify(path)
    assert report.ok and report.events == 5
    assert report.proof == "signed with this session's key"
    assert str(report).startswith("OK: 5 events, signed chain intact, head 5:")


def test_file_is_marked_as_this_apps_log(tmp_path):
    con = sqlite3.connect(make_log(tmp_path / "s.db"))
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("PRAGMA user_version").fetchone()[0] == FORMAT
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def test_private_key_lives_outside_the_log(tmp_path, data_dir):
    path = make_log(tmp_path / "s.db")
    log = EventLog(path)
    session_id = log.meta("session_id")
    log.close()
    private = keys.private_key_path(session_id)
    assert private.parent == data_dir / "keys" and private.stat().st_mode & 0o777 == 0o600
    pem = private.read_bytes()
    assert pem not in path.read_bytes()
    assert b"PRIVATE" not in path.read_bytes()


def test_a_log_from_another_data_folder_cannot_be_continued(tmp_path, monkeypatch):
    path = make_log(tmp_path / "s.db")
    monkeypatch.setenv("DEALER_ASSIST_DATA", str(tmp_path / "elsewhere"))
    with pytest.raises(StorageError) as err:
        EventLog(path)
    assert err.value.kind == "key_missing" and "Copy that key file here" in str(err.value)
    # not proven without the key, but the chain is consistent and the head proves it
    report = verify(path)
    assert not report.ok and report.unproven and "--key" in report.reason
    assert str(report).startswith("NOT PROVEN: 5 events") and report.head is not None
    assert verify(path, expect_head=report.head).ok


def test_verify_rows_api_checks_a_sequence_and_continues_after_a_known_row(tmp_path):
    path = make_log(tmp_path / "s.db", n=6)
    con = sqlite3.connect(path)
    meta = dict(con.execute("SELECT key, value FROM meta"))
    rows = con.execute("SELECT seq, at, type, body, prev, sig FROM events ORDER BY seq").fetchall()
    con.close()
    key = bytes.fromhex(meta["public_key"])
    whole = verify_rows(rows, key, genesis(meta))
    assert whole.ok and whole.events == 6 and whole.head.events == 6
    first = verify_rows(rows[:3], key, genesis(meta))
    rest = verify_rows(rows[3:], key, genesis(meta), after=(3, first.last_sig))
    assert rest.ok and rest.head == whole.head
    assert verify_rows(rows[4:], key, genesis(meta), after=(3, first.last_sig)).first_bad_seq == 4


def test_head_text_round_trips():
    head = Head(12, "0123456789abcdef")
    assert Head.parse(str(head)) == head and str(head) == "12:0123456789abcdef"
    with pytest.raises(ValueError):
        Head.parse("12:xyz")


def test_a_second_writer_is_refused_and_writes_nothing(tmp_path):
    path = make_log(tmp_path / "s.db")
    first = EventLog(path)
    before = path.read_bytes()
    with pytest.raises(StorageError) as err:
        EventLog(path)
    assert err.value.kind == "locked" and "already open for writing by this program" in str(err.value)
    assert path.read_bytes() == before
    first.append({"type": "note"})
    first.close()
    second = EventLog(path)  # the lock goes with the first writer
    assert second.last_seq == 6
    second.close()


def test_a_session_id_in_meta_cannot_point_outside_the_keys_folder(tmp_path):
    path = make_log(tmp_path / "s.db")
    con = sqlite3.connect(path)
    con.execute("UPDATE meta SET value = '../../elsewhere' WHERE key = 'session_id'")
    con.commit()
    con.close()
    with pytest.raises(StorageError) as err:
        EventLog(path)
    assert err.value.kind == "damaged" and "not one this app made" in str(err.value)
    assert not verify(path).ok
