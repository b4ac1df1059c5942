"""Where a report's events come from: a session log file or the card room's server.

A report reads each session through an ``EventSource``; it never cares which kind. A source
names itself, checks its own chain and hands over its raw rows ``(seq, at, type, body)``.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from dealer_assist.session.integrity import Integrity, RawRow

__all__ = ["EventSource", "RawRow", "SourceError"]


class SourceError(Exception):
    """The source's events cannot be read (its message says why); ``unreadable`` when it is
    not a session log at all (a report's exit status 2)."""

    def __init__(self, message: str, *, unreadable: bool = False) -> None:
        super().__init__(message)
        self.unreadable = unreadable


@runtime_checkable
class EventSource(Protocol):
    """One session's events, from wherever they are kept."""

    @property
    def label(self) -> str:
        """How reports name this session (a file's path; a server's table and session)."""
        ...

    def integrity(self) -> Integrity:
        """The chain check of these events."""
        ...

    def rows(self) -> list[RawRow]:
        """Every event in ``seq`` order; ``SourceError`` if they cannot be read."""
        ...
