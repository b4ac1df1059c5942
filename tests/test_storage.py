"""Storage faults at the session's open/submit boundary: read-only, full disk, not SQLite,
foreign SQLite, newer or older format, a second writer. Each is a StorageError that says what
to do; the session stays as it was and a foreign file is never modified."""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import subprocess
import sys

import pytest

from dealer_assist.cli import main
from dealer_assist.errors import StorageError
from dealer_assist.session.engine import Session
from dealer_assist.session.log import read_events, verify

SEATS = [{"name": "Ann", "money": 50}, {"name": "Bea", "money": 20}, {"name": "Cy", "money": 20}]
DEALS = [{"type": "deal", "seat": 3, "card": "9H"}, {"type": "deal", "seat": 2, "card": "KS"},
         {"type": "bet", "seat": 3, "amount": 5}]


def new(path):
    return Session.new("greek31", {"max_bet": 10}, SEATS, 1, path=path)


def fingerprint(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


@pytest.fixture
def tmpfs(tmp_path):
    """A small tmpfs the test mounts (root only), so full and read-only are real."""
    mount = tmp_path / "fs"
    mount.mkdir()

    def make(size="512k"):
        if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
                          capture_output=True).returncode:
            pytest.skip("cannot mount a tmpfs here (not root)")
        return mount

    yield make
    subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_full_disk_refuses_the_entry_and_the_session_goes_on_once_freed(tmpfs):
    folder = tmpfs("400k")
    session = new(folder / "s.db")
    session.submit(DEALS[0])
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    with contextlib.suppress(OSError):  # fill the disk to the last byte
        while True:
            os.write(fd, b"\0" * 4096)
    os.close(fd)
    state, entries = session.state, list(session.entries)
    with pytest.raises(StorageError) as err:
        for event in DEALS[1:] * 200:  # until a page no longer fits
            session.submit(event)
            state, entries = session.state, list(session.entries)
    assert err.value.kind == "disk_full"
    assert "Nothing was recorded" in str(err.value) and "Free some space" in str(err.value)
    assert session.state == state and session.entries == entries
    filler.unlink()
    session.submit({"type": "void"} if session.round_entries else DEALS[1])
    assert len(read_events(folder / "s.db")) == len(session.entries) + 0
    session.close()
    assert verify(folder / "s.db").ok


def test_a_log_on_a_read_only_medium_cannot_be_continued_but_can_be_verified(tmp_path, tmpfs):
    folder = tmpfs()
    session = new(folder / "s.db")
    for event in DEALS:
        session.submit(event)
    session.close()
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
    with pytest.raises(StorageError) as err:
        Session.open(folder / "s.db")
    assert err.value.kind == "read_only"
    assert "Copy the session file to a writable folder" in str(err.value)
    assert main(["verify", str(folder / "s.db")]) == 0
    with pytest.raises(StorageError) as err:
        new(folder / "new.db")
    assert err.value.kind == "read_only"


def test_a_session_cannot_be_created_in_a_read_only_folder_and_leaves_nothing(tmp_path, tmpfs,
                                                                              data_dir):
    folder = tmpfs()
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
    with pytest.raises(StorageError):
        new(folder / "s.db")
    assert list((data_dir / "keys").iterdir()) == []  # no orphan key


def test_a_foreign_sqlite_file_is_refused_and_not_modified(tmp_path, capsys):
    path = tmp_path / "budget.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE events (seq INTEGER, what TEXT)")  # even with a look-alike table
    con.execute("INSERT INTO events VALUES (1, 'rent')")
    con.commit()
    con.close()
    before = fingerprint(tmp_path)
    with pytest.raises(StorageError) as err:
        Session.open(path)
    assert err.value.kind == "foreign" and "another program" in str(err.value)
    assert fingerprint(tmp_path) == before  # no WAL switch, no tables, no -wal/-shm
    assert main(["verify", str(path)]) == 2 and main(["report", str(path)]) == 2
    assert fingerprint(tmp_path) == before
    assert "an SQLite file of another program" in capsys.readouterr().out


def test_not_sqlite_newer_and_older_formats(tmp_path):
    text = tmp_path / "notes.db"
    text.write_text("groceries")
    with pytest.raises(StorageError) as err:
        Session.open(text)
    assert err.value.kind == "not_sqlite"

    newer = tmp_path / "newer.db"
    new(newer).close()
    con = sqlite3.connect(newer)
    con.execute("PRAGMA user_version = 7")
    con.commit()
    con.close()
    with pytest.raises(StorageError) as err:
        Session.open(newer)
    assert err.value.kind == "newer" and "Update dealer-assist" in str(err.value)
    assert "newer version" in verify(newer).reason

    older = tmp_path / "older.db"  # format 1: hash chain only, no signatures
    con = sqlite3.connect(older)
    con.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, at TEXT, type TEXT, body TEXT, "
                "prev_hash TEXT, hash TEXT)")
    con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    con.execute("CREATE TABLE _sqlite_migrations (id INTEGER)")
    con.commit()
    con.close()
    with pytest.raises(StorageError) as err:
        Session.open(older)
    assert err.value.kind == "older"
    assert "unsigned log of an earlier version" in verify(older).reason


HOLD = """
import sys
from dealer_assist.session.engine import Session
session = Session.open(sys.argv[1])
print("open", flush=True)
sys.stdin.read()
session.submit({"type": "deal", "seat": 2, "card": "KS"})
print(session.log.last_seq, flush=True)
"""


def test_a_second_writer_process_is_refused_and_writes_nothing(tmp_path):
    path = tmp_path / "s.db"
    session = new(path)
    session.submit(DEALS[0])
    session.close()
    other = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert other.stdout.readline().strip() == "open"
    with pytest.raises(StorageError) as err:
        Session.open(path)
    assert err.value.kind == "locked" and f"process {other.pid}" in str(err.value)
    other.stdin.close()  # the first writer goes on undisturbed
    assert other.stdout.readline().strip() == "3"
    other.wait()
    assert verify(path).ok and len(read_events(path)) == 3


def test_a_log_with_an_unreadable_body_is_refused_on_resume(tmp_path):
    path = tmp_path / "s.db"
    new(path).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE events SET body = ? WHERE seq = 1", ["[" * 5000 + "]" * 5000])
    con.commit()
    con.close()
    with pytest.raises(StorageError) as err:
        Session.open(path)
    assert err.value.kind == "damaged" and "dealer-assist verify" in str(err.value)
    with pytest.raises(StorageError, match="cannot be read"):  # not "locked": no lock left
        Session.open(path)
