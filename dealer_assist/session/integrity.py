"""What a chain check of one session's events found, in words a report can print; and the raw
event row every event source hands over. Shared by the reports and the card room (which sits
below the reports and must not import them)."""

from __future__ import annotations

from dataclasses import dataclass

RawRow = tuple[int, str, str, str]  # seq, at, type, body (JSON text)


@dataclass(frozen=True, slots=True)
class Integrity:
    """The signed chain check (session/log.py ``verify``), with the first altered event named
    (seq, type and time), the head (``N:HASH``) and how the log was proven."""

    ok: bool
    events: int
    first_bad_seq: int | None = None
    first_bad_type: str = ""
    first_bad_at: str = ""
    reason: str = ""
    head: str = ""
    proof: str = ""

    def sentence(self) -> str:
        if self.ok:
            return (f"Intact: {self.events} events, every signature matches the chain "
                    f"({self.proof}); head {self.head}.")
        if self.first_bad_seq is None:
            return f"Not verifiable: {self.reason}."
        what = f"event {self.first_bad_seq}"
        if self.first_bad_type:
            what += f" ({self.first_bad_type}, logged {self.first_bad_at})"
        return (f"ALTERED: {what} is the first event that does not match: {self.reason}. "
                f"The {self.events} events before it are intact; nothing from it on "
                "can be trusted.")
