"""The session log: hash chain, verify, schema migrations."""

import sqlite3

from dealer_assist.session.log import EventLog, migrations, verify


def make_log(path, n=5):
    log = EventLog(path)
    for i in range(n):
        log.append({"type": "note", "n": i, "text": "é"})
    log.close()
    return path


def test_appended_events_read_back_in_order(tmp_path):
    log = EventLog(make_log(tmp_path / "s.db"))
    assert [e["n"] for e in log.events()] == [0, 1, 2, 3, 4]
    assert log.last_seq == 5


def test_intact_log_verifies(tmp_path):
    report = verify(make_log(tmp_path / "s.db"))
    assert report.ok and report.events == 5
    assert "intact" in str(report)


def test_one_changed_byte_names_the_event(tmp_path):
    path = make_log(tmp_path / "s.db")
    con = sqlite3.connect(path)
    body = con.execute("SELECT body FROM events WHERE seq = 3").fetchone()[0]
    con.execute("UPDATE events SET body = ? WHERE seq = 3", [body.replace('"n":2', '"n":7')])
    con.commit()
    con.close()
    report = verify(path)
    assert not report.ok and report.first_bad_seq == 3
    assert "event 3" in str(report)


def test_a_deleted_event_is_detected(tmp_path):
    path = make_log(tmp_path / "s.db")
    con = sqlite3.connect(path)
    con.execute("DELETE FROM events WHERE seq = 2")
    con.commit()
    con.close()
    assert verify(path).first_bad_seq == 2


def test_a_relinked_chain_is_detected(tmp_path):
    path = make_log(tmp_path / "s.db")
    con = sqlite3.connect(path)
    con.execute("UPDATE events SET prev_hash = ? WHERE seq = 4", ["0" * 64])
    con.commit()
    con.close()
    assert verify(path).first_bad_seq == 4


def test_verify_says_what_is_wrong_with_other_files(tmp_path):
    assert "no such file" in verify(tmp_path / "none.db").reason
    sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE x (a)").connection.close()
    assert "not a session log" in verify(tmp_path / "other.db").reason


def test_schema_is_created_by_migrations_and_reopening_is_idempotent(tmp_path):
    path = make_log(tmp_path / "s.db")
    log = EventLog(path)
    assert [m.name for m in migrations.applied(log.db)] == ["m001_events", "m002_meta"]
    assert migrations.pending(log.db) == []
    assert log.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_meta_values(tmp_path):
    log = EventLog(tmp_path / "s.db")
    log.set_meta("game", "greek31")
    assert log.meta("game") == "greek31" and log.meta("none", "x") == "x"
