"""A log with one byte changed in one event fails verification and names that event
(the full tamper suite is tests/test_tamper.py)."""

from __future__ import annotations

import sqlite3

import pytest
from report_sessions import greek_session

from dealer_assist.cli import main
from dealer_assist.reports.reconcile import check_integrity, reconcile_log


def flip(path, old: bytes, new: bytes) -> None:
    """Change bytes in the SQLite file itself, the way a hex editor would."""
    assert len(old) == len(new)
    assert not path.with_name(path.name + "-wal").exists() or \
        path.with_name(path.name + "-wal").stat().st_size == 0
    data = path.read_bytes()
    assert data.count(old) == 1, "the bytes to alter must be unique in the file"
    path.write_bytes(data.replace(old, new))


@pytest.fixture
def log(tmp_path):
    return greek_session(tmp_path / "greek.db")


def test_intact_log(log, capsys):
    assert check_integrity(log).ok
    assert main(["verify", str(log)]) == 0
    assert "OK: 39 events, signed chain intact, head 39:" in capsys.readouterr().out


def test_one_byte_changed_in_a_bet(log, capsys):
    # event 5 is Bea's bet of 10 in deal 1; one byte makes it 19
    flip(log, b'{"amount":10,"seat":2,"type":"bet"}', b'{"amount":19,"seat":2,"type":"bet"}')
    report = check_integrity(log)
    assert not report.ok
    assert (report.first_bad_seq, report.first_bad_type, report.events) == (5, "bet", 4)
    assert "its signature does not match" in report.reason
    assert main(["verify", str(log)]) == 1
    out = capsys.readouterr().out
    assert "BROKEN at event 5 (bet, logged " in out
    table = reconcile_log(log)
    assert not table.ok
    assert table.integrity.sentence().startswith("ALTERED: event 5 (bet, logged ")
    assert "event 5 (bet) is refused on replay" in table.error  # 19 is above the maximum


def test_altered_count_that_still_replays_is_caught(log, capsys):
    # Bea's short count of 45 rewritten to 46: the numbers now agree, the chain does not
    flip(log, b'"2":45', b'"2":46')
    table = reconcile_log(log)
    assert not table.error and not table.discrepancies
    assert (table.integrity.first_bad_seq, table.integrity.first_bad_type) == (39, "chip_count")
    assert not table.ok
    assert table.plan is None and "the log was altered" in table.no_plan
    assert main(["report", str(log)]) == 1
    out = capsys.readouterr().out
    assert "ALTERED: event 39 (chip_count" in out
    assert "No transfer plan: the log was altered" in out


def test_deleted_event_is_named(log):
    with sqlite3.connect(log) as con:
        con.execute("DELETE FROM events WHERE seq = 10")
    con.close()
    report = check_integrity(log)
    assert (report.ok, report.first_bad_seq) == (False, 10)
    assert report.reason == "event 10 is missing"


def test_not_a_log(tmp_path):
    path = tmp_path / "x.db"
    path.write_bytes(b"not sqlite at all, just text" * 10)
    table = reconcile_log(path)
    assert not table.ok and table.error
    assert not table.integrity.ok and table.integrity.first_bad_seq is None


def test_verify_command_on_a_file_that_is_not_a_log(tmp_path, capsys):
    path = tmp_path / "notes.db"
    path.write_text("shopping list")
    assert main(["verify", str(path)]) == 2  # unreadable input, not a verdict on a log
    assert "BROKEN: notes.db is not a session log (not an SQLite file)" in capsys.readouterr().out
