"""The errors a command or the GUI shows as they are, and the exit status each one means.

- :class:`RuleError`: a command the rules refuse; nothing changes (exit 1).
- :class:`InputError`: a file or value that cannot be read at all (exit 2).
- :class:`StorageError`: the session file or its folder cannot be used as it is (full disk,
  read-only, not a session log, locked by another window...). It says what happened and what to
  do; the GUI shows it as a dialog (exit 1, or 2 when the file is not a readable log).

Anything else escaping a command is a bug: exit 3 with where to report it (``cli.main``).
"""

from __future__ import annotations

import errno
from typing import ClassVar

EXIT_OK, EXIT_REFUSED, EXIT_UNREADABLE, EXIT_INTERNAL = 0, 1, 2, 3
REPORT_BUGS = "please report it with the command you ran: see README.md, 'Reporting a problem'"


class RuleError(ValueError):
    """A command the rules refuse (bad card, out of turn, bet out of limits...). Nothing changes."""


class InputError(ValueError):
    """An input file or value that cannot be read (not UTF-8, not JSON, too deep, too big...)."""


class StorageError(Exception):
    """A session file that cannot be used as it is. ``kind`` names the fault (see KINDS)."""

    KINDS: ClassVar[dict[str, tuple[str, int]]] = {
        # kind: (title for a dialog, exit status)
        "read_only": ("The session file cannot be written", EXIT_REFUSED),
        "disk_full": ("The disk is full", EXIT_REFUSED),
        "locked": ("The session is open in another window", EXIT_REFUSED),
        "key_missing": ("This session's signing key is not here", EXIT_REFUSED),
        "exists": ("The file already exists", EXIT_REFUSED),
        "not_sqlite": ("Not a session log", EXIT_UNREADABLE),
        "foreign": ("Not a session log of this app", EXIT_UNREADABLE),
        "newer": ("Made by a newer version", EXIT_UNREADABLE),
        "older": ("Made by an older version", EXIT_UNREADABLE),
        "damaged": ("The session file is damaged", EXIT_UNREADABLE),
        "missing": ("No such session file", EXIT_UNREADABLE),
        "io": ("The session file cannot be read or written", EXIT_REFUSED),
    }

    def __init__(self, kind: str, what: str, todo: str, title: str | None = None) -> None:
        """``title``: the dialog's title when the file is not a session log (a deck, say);
        by default the kind's."""
        super().__init__(f"{what} {todo}".strip())
        self.kind, self.what, self.todo, self._title = kind, what, todo, title

    @property
    def title(self) -> str:
        return self._title or self.KINDS.get(self.kind, ("Storage problem", EXIT_REFUSED))[0]

    @property
    def exit_status(self) -> int:
        return self.KINDS.get(self.kind, ("", EXIT_REFUSED))[1]


def os_error_kind(exc: BaseException) -> str | None:
    """The StorageError kind an OS error's errno names: ``disk_full`` or ``read_only``; None for
    any other fault (and for an error with no errno)."""
    code = getattr(exc, "errno", None)
    if code == errno.ENOSPC:
        return "disk_full"
    if code in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "read_only"
    return None
