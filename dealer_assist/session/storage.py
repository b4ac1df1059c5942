"""Opening session files safely: what a file is before anything is written, one writer per
session, read-only opening for evidence, and SQLite faults turned into StorageError.

A session log (format 2) is an SQLite file whose ``application_id`` is ``APPLICATION_ID`` and
whose ``user_version`` is the format number. Anything else is refused before a byte is written.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from dealer_assist.errors import StorageError, os_error_kind

APPLICATION_ID = 0x31DEA1E5  # "31 dealer": marks a file as this app's session log
FORMAT = 2  # user_version of a signed log; 0 with a _sqlite_migrations table: format 1
SQLITE_MAGIC = b"SQLite format 3\x00"

# SQLite primary result codes (sqlite3.Error.sqlite_errorcode & 0xFF)
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = (
    3, 5, 6, 8, 10, 11, 13, 14, 26)


def wal_path(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def shm_path(path: Path) -> Path:
    return path.with_name(path.name + "-shm")


def storage_error(exc: BaseException, path: Path, doing: str) -> StorageError:
    """The StorageError for an sqlite3 or OS error met while ``doing`` something to ``path``."""
    code = getattr(exc, "sqlite_errorcode", None)
    code = None if code is None else code & 0xFF
    os_kind = os_error_kind(exc)
    text = str(exc)
    if code == _FULL or os_kind == "disk_full" or "disk is full" in text:
        return StorageError(
            "disk_full", f"There is no space left on the disk: {doing} was not saved "
            f"({path.parent}).",
            "Nothing was recorded and the table is as it was. Free some space, then enter it "
            "again.")
    if code in (_READONLY, _PERM) or os_kind == "read_only":
        return StorageError(
            "read_only", f"{path.name} cannot be written (read-only file, folder or medium): "
            f"{doing} was not saved.",
            "Copy the session file to a writable folder and open the copy, or make the folder "
            "writable.")
    if code in (_BUSY, _LOCKED):
        return StorageError("locked", f"{path.name} is locked by another program.",
                            "Close the other program or window using it, then try again.")
    if code == _NOTADB:
        return StorageError("not_sqlite", f"{path.name} is not a session log (not an SQLite "
                            "file).", "Choose a session log (.db) made by this app.")
    if code == _CORRUPT or "malformed" in text:
        return StorageError("damaged", f"{path.name} is damaged ({text}).",
                            "Use a backup copy; dealer-assist verify names what is left intact.")
    return StorageError("io", f"{path.name}: {doing} failed ({text}).",
                        "Check the disk and the folder, then try again.")


# ---------------------------------------------------------------- what a file is


def check_regular(path: Path) -> None:
    try:
        info = path.stat()
    except FileNotFoundError:
        raise StorageError("missing", f"There is no file {path}.",
                           "Check the name and folder.") from None
    except OSError as exc:
        raise storage_error(exc, path, "reading it") from None
    if not stat.S_ISREG(info.st_mode):
        raise StorageError("not_sqlite", f"{path} is not a regular file.",
                           "Choose a session log (.db) made by this app.")


def classify(con: sqlite3.Connection, path: Path) -> int:
    """The format of an open file (2; 1 for the unsigned logs of earlier versions), or
    StorageError for anything that is not a session log this version can use."""
    try:
        app_id = con.execute("PRAGMA application_id").fetchone()[0]
        version = con.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.Error as exc:
        raise storage_error(exc, path, "reading it") from None
    if app_id == APPLICATION_ID:
        if version > FORMAT:
            raise StorageError("newer", f"{path.name} was written by a newer version of "
                               f"dealer-assist (log format {version}; this one reads {FORMAT}).",
                               "Update dealer-assist to open it.")
        if version == FORMAT and {"events", "meta", "writer"} <= tables:
            return FORMAT
        raise StorageError("damaged", f"{path.name} is a session log with its tables missing.",
                           "Use a backup copy.")
    if app_id == 0 and {"events", "meta", "_sqlite_migrations"} <= tables:
        return 1
    if app_id == 0 and not tables:
        raise StorageError("foreign", f"{path.name} is an empty SQLite file, not a session log.",
                           "Choose a session log, or start a new session in a new file.")
    raise StorageError("foreign", f"{path.name} is an SQLite file of another program, not a "
                       "session log; it was not changed.",
                       "Choose a session log (.db) made by this app.")


def sniff(path: Path) -> None:
    """Refuse a file that is not even SQLite, by its first bytes (nothing is opened for writing)."""
    check_regular(path)
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise storage_error(exc, path, "reading it") from None
    if head != SQLITE_MAGIC:
        raise StorageError("not_sqlite", f"{path.name} is not a session log (not an SQLite file).",
                           "Choose a session log (.db) made by this app.")


# ---------------------------------------------------------------- reading evidence


def _lenient_text(raw: bytes) -> str:
    """Stored text that is not UTF-8 (a damaged file) is read with U+FFFD in place of the bad
    bytes: the row's signature then fails and verify names the event, instead of a crash."""
    return raw.decode("utf-8", "replace")


@contextlib.contextmanager
def open_read_only(path: str | Path) -> Iterator[tuple[sqlite3.Connection, str]]:
    """A read-only connection that never changes the file, its -wal or its folder, and a note
    on how it was read. Without a -wal the file is opened ``immutable``; with a -wal and its -shm
    (a session open or crashed here) ``mode=ro``; otherwise (a -wal without -shm, or a medium
    that refuses even that) the file and its -wal are copied to a temporary folder first."""
    path = Path(path)
    sniff(path)
    wal, shm = wal_path(path), shm_path(path)
    uri = path.resolve().as_uri()
    con = None
    note = ""
    try:
        if not wal.exists():
            con = sqlite3.connect(f"{uri}?immutable=1", uri=True)
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        elif shm.exists():
            probe = sqlite3.connect(f"{uri}?mode=ro", uri=True)
            try:
                probe.execute("SELECT count(*) FROM sqlite_master").fetchone()
                con = probe
            except sqlite3.Error:  # a medium that refuses even reading the -shm: copy
                probe.close()
        if con is not None:
            con.text_factory = _lenient_text
            yield con, note
            return
        with tempfile.TemporaryDirectory(prefix="dealer-assist-") as tmp:
            copy = Path(tmp) / path.name
            try:
                shutil.copyfile(path, copy)
                shutil.copyfile(wal, wal_path(copy))
            except OSError as exc:
                raise storage_error(exc, path, "copying it to read") from None
            con = sqlite3.connect(copy)
            con.text_factory = _lenient_text
            try:
                yield con, "read from a temporary copy with its -wal"
            finally:
                con.close()
                con = None
    except sqlite3.Error as exc:
        raise storage_error(exc, path, "reading it") from None
    except UnicodeDecodeError:  # SQLite's own message about a damaged schema is not UTF-8
        raise StorageError("damaged", f"{path.name} is damaged (its schema cannot be read).",
                           "Use a backup copy.") from None
    finally:
        if con is not None:
            con.close()


# ---------------------------------------------------------------- one writer


def _holder(path: Path) -> str:
    """Who holds the lock on ``path``: the process found in /proc/locks (Linux), if any."""
    try:
        info = path.stat()
        wanted = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
        for line in Path("/proc/locks").read_text().splitlines():
            parts = line.split()
            if len(parts) > 5 and parts[1] == "FLOCK" and parts[5] == wanted:
                pid = int(parts[4])
                raw = Path(f"/proc/{pid}/cmdline").read_bytes()
                command = " ".join(a.decode(errors="replace") for a in raw.split(b"\0") if a)
                if pid == os.getpid():
                    return f"this program (process {pid})"
                return f"process {pid}: {command[:120]}"
    except (OSError, ValueError):
        pass
    return "another program"


class WriterLock:
    """An exclusive advisory lock (flock) on the session file for as long as it is open for
    writing; readers (verify, report) do not take it and are not blocked."""

    def __init__(self, path: Path) -> None:
        import fcntl

        self.path = path
        self.fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self.fd)
            raise StorageError(
                "locked", f"{path.name} is already open for writing by {_holder(path)}.",
                "Only one window can run a table: close the other one (or use it), then open "
                "the session again. Nothing was written.") from None

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing the descriptor releases the lock
            self.fd = -1
