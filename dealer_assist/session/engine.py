"""The session engine: a command checked by the game's rules becomes an event in the log.

State is never stored: it is the fold of the events (``variant.apply``). The engine itself
handles three event types that every game shares:

- ``session_start``: the game, its options, the seats and the first dealer (always event 1);
- ``void``: withdraw an event of the round in progress (``target``: its seq, default the last
  entry; ``reason``: required for any but the last entry). The round is re-folded without it;
  if that is illegal the void is refused. A settled round is final.
- ``end_session``: the players agree to stop, between rounds.

A correction (``Session.correct``) is no event type of its own: it is written as voids of the
entries from the last back to the one corrected, then the corrected entry and the later ones
again, so the log keeps both what was entered and what replaced it.
- ``chip_count``: chips counted at a seat (``counts``: seat number as text → amount), between
  rounds or after the end; reconciliation compares it with the money the log says.
"""

from __future__ import annotations

import functools
import gc
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

from dealer_assist import safe_json
from dealer_assist.errors import InputError, RuleError, StorageError
from dealer_assist.session import checkpoint
from dealer_assist.session.log import EventLog
from dealer_assist.variants import get_variant
from dealer_assist.variants.base import (
    RoundResult,
    SeatSpec,
    check_fields,
    event_int,
    make_options,
    options_dict,
)

ENGINE_EVENTS = ("session_start", "void", "end_session", "chip_count")
MONEY_EVENTS = ("buy_in", "cash_out")  # game events that bring money to or take it from the table
SESSION_EVENTS = frozenset({"chip_count", "session_start", "void", "end_session"})  # not a game's


class Entry(NamedTuple):
    """An accepted event with its place in the log."""

    seq: int
    body: dict[str, Any]


# Entry((seq, body)) made in C, without the named tuple's Python __new__: one per replayed event
_new_entry = functools.partial(tuple.__new__, Entry)


class MoneyMove(NamedTuple):
    """A buy-in or cash-out: money added to (+) or taken from (-) a seat between rounds."""

    seq: int
    type: str
    seat: int
    amount: int
    before_round: int  # the number of the round it came before


def _money_move(seq: int, event: dict[str, Any], before: Any, after: Any,
                before_round: int) -> MoneyMove:
    seat = event["seat"]
    change = after.money[seat - 1] - before.money[seat - 1]
    return MoneyMove(seq, event["type"], seat, change, before_round)


class ReplayError(RuleError):
    """An event of a replayed log or scenario was refused; ``index`` is its 0-based position."""

    def __init__(self, index: int, event: dict[str, Any], reason: str) -> None:
        super().__init__(f"event {index} ({event.get('type', '?')}): {reason}")
        self.index, self.event, self.reason = index, event, reason


def _seats_from(raw: list[Any], seat_fields: tuple[str, ...]) -> tuple[SeatSpec, ...]:
    if not isinstance(raw, list) or not raw:
        raise RuleError("a session needs a list of seats, each with a name and money")
    seats, names = [], set()
    for i, item in enumerate(raw, start=1):
        if isinstance(item, SeatSpec):
            item = {k: v for k, v in (("name", item.name), ("money", item.money),
                                      ("age", item.age), ("position", item.position))
                    if v is not None}
        if not isinstance(item, dict):
            raise RuleError(f"seat {i}: expected an object with name and money")
        extra = set(item) - {"name", "money", *seat_fields}
        if extra:
            raise RuleError(f"seat {i}: unknown field(s) {', '.join(sorted(extra))}")
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            raise RuleError(f"seat {i}: a name is required")
        name = name.strip()
        if name.casefold() in names:
            raise RuleError(f"seat {i}: the name {name!r} is already taken at this table")
        names.add(name.casefold())
        money = item.get("money")
        if isinstance(money, bool) or not isinstance(money, int) or money < 0:
            raise RuleError(f"seat {i} ({name}): money must be a whole number of units, 0 or more")
        age = item.get("age")
        if "age" in seat_fields and (isinstance(age, bool) or not isinstance(age, int)):
            raise RuleError(f"seat {i} ({name}): this game needs an age order (1 = oldest)")
        position = item.get("position")
        if "position" in seat_fields and (isinstance(position, bool)
                                          or not isinstance(position, int) or position < 1):
            raise RuleError(f"seat {i} ({name}): this game needs a table position (1, 2, ...)")
        seats.append(SeatSpec(name, money, age if "age" in seat_fields else None,
                              position if "position" in seat_fields else None))
    if "age" in seat_fields:
        ages = sorted(s.age for s in seats)  # type: ignore[type-var]
        if ages != list(range(1, len(seats) + 1)):
            raise RuleError("age order must number the seats 1 (oldest) to N, each once")
    if "position" in seat_fields and len({s.position for s in seats}) != len(seats):
        raise RuleError("two seats cannot share a table position")
    return tuple(seats)


def _check_start_types(game: Any, options: Any, first_dealer: Any) -> None:
    """The shapes every game relies on, checked before any game sees them."""
    if not isinstance(game, str):
        raise RuleError("'game' is the name of a game (text)")
    if options is not None and not isinstance(options, dict):
        raise RuleError("'options' is an object of option names and values")
    if first_dealer is not None and (isinstance(first_dealer, bool)
                                     or not isinstance(first_dealer, int)):
        raise RuleError("'first_dealer' is a seat number (a whole number)")


def _storable(value: Any) -> None:
    """Refuse what the log could not be read back with (safe_json's bounds: depth, integers
    beyond 2**53, text that is not Unicode): a report must be able to read every event."""
    try:
        safe_json.check_value(value)
    except InputError as exc:
        raise RuleError(str(exc)) from None


def start_event(game: str, options: dict[str, Any] | None, seats: list[Any],
                first_dealer: int | None = None) -> dict[str, Any]:
    """Validate a new session and return its ``session_start`` event (options made explicit)."""
    _check_start_types(game, options, first_dealer)
    _storable({"options": options, "seats": seats})
    variant = get_variant(game)
    resolved = make_options(variant.Options, options)
    specs = _seats_from(seats, variant.SEAT_FIELDS)
    body: dict[str, Any] = {
        "type": "session_start",
        "game": variant.NAME,
        "options": options_dict(resolved),
        "seats": [
            {"name": s.name, "money": s.money,
             **{k: getattr(s, k) for k in ("age", "position") if getattr(s, k) is not None}}
            for s in specs
        ],
    }
    if first_dealer is not None:
        body["first_dealer"] = first_dealer
    variant.start(resolved, specs, first_dealer)  # refuses bad seat counts or dealer
    return body


@contextmanager
def _bulk_load() -> Iterator[None]:
    """Pause the cyclic garbage collector while many long-lived objects are made at once.

    A replay keeps every event; left on, the collector rescans them again and again (about a
    quarter of a long replay's time). Nothing a replay makes is cyclic garbage.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.freeze()  # what was loaded lives as long as the session: never rescan it
            gc.enable()


class Session:
    """A live session: the current state, the log it is written to, and the rounds so far."""

    def __init__(self, start: dict[str, Any], log: EventLog | None = None) -> None:
        if not isinstance(start, dict) or start.get("type") != "session_start":
            raise RuleError("the first event of a session must be 'session_start'")
        check_fields(start, ("game", "options", "seats", "first_dealer"))
        _check_start_types(start.get("game", ""), start.get("options"), start.get("first_dealer"))
        self.variant: ModuleType = get_variant(start.get("game", ""))
        options = make_options(self.variant.Options, start.get("options"))
        seats = _seats_from(start.get("seats"), self.variant.SEAT_FIELDS)
        self.options = options
        self.seats = seats
        self.state = self.variant.start(options, seats, start.get("first_dealer"))
        self.log = log
        self.entries: list[Entry] = [Entry(1, start)]
        self.voided: dict[int, str] = {}
        self.rounds: list[RoundResult] = []
        self.ended = False
        self.chip_counts: dict[int, int] = {}
        self.money_moves: list[MoneyMove] = []  # buy-ins and cash-outs, not voided
        self._checkpoint = self.state
        self._round: list[Entry] = []
        self._saved_seq = 0  # the last event in the checkpoint file beside the log

    # ------------------------------------------------------------ creation

    @classmethod
    def new(cls, game: str, options: dict[str, Any] | None, seats: list[Any],
            first_dealer: int | None = None, path: str | Path | None = None) -> Session:
        """Start a session; with ``path`` it is logged to that SQLite file (which must be new)."""
        body = start_event(game, options, seats, first_dealer)
        session = cls(body)
        if path is not None:  # the file, its key and event 1 in one step (StorageError: none)
            session.log = EventLog.create(path, body)
        return session

    @classmethod
    def from_events(cls, events: list[dict[str, Any]], log: EventLog | None = None) -> Session:
        """Replay events (the first is ``session_start``); ReplayError names the first refused."""
        if not events:
            raise ReplayError(0, {}, "no events: a session starts with 'session_start'")
        try:
            session = cls(events[0], log)
        except RuleError as exc:
            raise ReplayError(0, events[0], str(exc)) from exc
        with _bulk_load():
            for index, event in enumerate(events[1:], start=1):
                try:
                    session._accept(event, seq=index + 1)
                except RuleError as exc:
                    raise ReplayError(index, event, str(exc)) from exc
        return session

    @classmethod
    def open(cls, path: str | Path) -> Session:
        """Reopen a logged session and rebuild its state by replaying every event."""
        if not Path(path).exists():
            raise StorageError("missing", f"There is no session log at {path}.",
                               "Check the name and folder.")
        log = EventLog(path)  # StorageError if it is not a log, locked, or not writable
        try:
            with _bulk_load():
                events = log.events()
            session = cls._from_checkpoint(events, log)
            if session is None:
                session = cls.from_events(events, log)
        except BaseException:
            log.close()
            raise
        if len(events) - session._saved_seq >= checkpoint.SAVE_AFTER:
            session.save_checkpoint()
        return session

    @classmethod
    def _from_checkpoint(cls, events: list[dict[str, Any]], log: EventLog) -> Session | None:
        """The session from its checkpoint plus the events after it, or None (no valid one)."""
        with _bulk_load():
            saved = checkpoint.load(log.path, functools.partial(checkpoint.sig_at, log))
            if saved is None or not events or saved[0] > len(events):
                return None
            seq, values = saved
            session = cls(events[0], log)
            session.__dict__.update(values)
            session.entries = list(map(Entry, itertools.count(1), events[:seq]))
            session._saved_seq = seq
            try:
                for index, event in enumerate(events[seq:], start=seq):
                    session._accept(event, seq=index + 1)
            except RuleError:
                return None  # the log says otherwise: replay it in full
        return session

    def save_checkpoint(self) -> None:
        """Cache the folded state beside the log (derived; the log stays the truth)."""
        if self.log is None or not self.entries or self.log.last_seq != self.entries[-1].seq:
            return
        seq = self.log.last_seq
        sig = checkpoint.sig_at(self.log, seq)
        if sig and checkpoint.save(self.log.path, seq, sig,
                                   {k: getattr(self, k) for k in checkpoint.FIELDS}):
            self._saved_seq = seq

    # ------------------------------------------------------------ commands

    def submit(self, event: dict[str, Any]) -> Any:
        """Check a command; if the rules accept it, log it as one event and return the new state."""
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise RuleError("a command is an object with a 'type'")
        _storable(event)
        seq = self.entries[-1].seq + 1
        self._accept(event, seq=seq, write=True)
        return self.state

    def _accept(self, event: dict[str, Any], *, seq: int, write: bool = False) -> None:
        kind = event.get("type")
        if kind in SESSION_EVENTS or self.ended:
            self._accept_session_event(kind, event, seq, write)
            return
        before = self.state  # a game event: the common case, kept short for replay speed
        state = self.variant.apply(before, event)
        if write:
            self._write(event, write)
        if kind in MONEY_EVENTS:
            self.money_moves.append(_money_move(seq, event, before, state, len(self.rounds) + 1))
        entry = _new_entry((seq, event))
        self.entries.append(entry)
        result = state.round_result
        if result is not before.round_result and result is not None:
            self.rounds.append(result)
            self._checkpoint, self._round = state, []
        else:
            self._round.append(entry)
        self.state = state

    def _accept_session_event(self, kind: Any, event: dict[str, Any], seq: int,
                              write: bool) -> None:
        """Chip counts, voids, the end; and the refusals once the session has ended."""
        if kind == "chip_count":
            counts = self._check_chip_count(event)
            self._write(event, write)
            self.chip_counts.update(counts)
        elif self.ended:
            raise RuleError("the session has ended; start a new one")
        elif kind == "session_start":
            raise RuleError("the session has already started")
        elif kind == "void":
            state, round_entries, target, moves = self._fold_without(event)
            self._write(event, write)
            self.voided[target] = event.get("reason", "")
            redone = {e.seq for e in self._round}
            self.money_moves = [m for m in self.money_moves if m.seq not in redone] + moves
            self.state, self._round = state, round_entries
        else:  # end_session
            check_fields(event, ("reason",))
            if not self.state.between_rounds:
                raise RuleError("finish (or void) the round in progress before ending the session")
            self._write(event, write)
            self.ended = True
        self.entries.append(Entry(seq, event))

    def _check_chip_count(self, event: dict[str, Any]) -> dict[int, int]:
        check_fields(event, ("counts",))
        if not (self.ended or self.state.between_rounds):
            raise RuleError("count the chips between rounds or after the session ends")
        raw = event.get("counts")
        if not isinstance(raw, dict) or not raw:
            raise RuleError("'counts' maps seat numbers to the chips counted there")
        counts = {}
        for key, amount in raw.items():
            seat = int(key) if isinstance(key, str) and key.isdigit() else None
            if seat is None or not 1 <= seat <= len(self.seats):
                raise RuleError(f"there is no seat {key!r} (seats are 1 to {len(self.seats)})")
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                raise RuleError(f"seat {seat}: a count is a whole number, 0 or more")
            counts[seat] = amount
        return counts

    def _write(self, event: dict[str, Any], write: bool) -> None:
        if write and self.log is not None:
            self.log.append(event)

    def _fold_without(self, event: dict[str, Any]
                      ) -> tuple[Any, list[Entry], int, list[MoneyMove]]:
        check_fields(event, ("target", "reason"))
        if not self._round:
            raise RuleError("nothing to undo in this round (a settled round is final)")
        last = self._round[-1].seq
        target = event_int(event, "target") if "target" in event else last
        reason = event.get("reason", "")
        if not isinstance(reason, str):
            raise RuleError("a void's reason is text")
        if target != last and not reason.strip():
            raise RuleError("voiding an earlier entry needs a reason (for the audit trail)")
        kept = [e for e in self._round if e.seq != target]
        if len(kept) == len(self._round):
            raise RuleError(f"event {target} is not an entry of the round in progress")
        state, moves = self._checkpoint, []
        for entry in kept:
            try:
                after = self.variant.apply(state, entry.body)
            except RuleError as exc:
                raise RuleError(
                    f"cannot void event {target}: event {entry.seq} ({entry.body['type']}) "
                    f"would then be refused: {exc}"
                ) from exc
            if entry.body["type"] in MONEY_EVENTS:
                moves.append(_money_move(entry.seq, entry.body, state, after,
                                         len(self.rounds) + 1))
            state = after
        return state, kept, target, moves

    def correct(self, target: int, replacement: dict[str, Any], reason: str) -> list[int]:
        """Replace entry ``target`` of the round in progress with ``replacement`` and re-apply
        the later entries. Checked in full first: if the rules refuse the replacement or would
        refuse a later entry (named), nothing is written. Returns the seqs written."""
        if not isinstance(reason, str) or not reason.strip():
            raise RuleError("a correction needs a reason (for the audit trail)")
        if not isinstance(replacement, dict) or replacement.get("type") in ENGINE_EVENTS:
            raise RuleError("a correction replaces an entry with another game entry")
        index = next((i for i, e in enumerate(self._round) if e.seq == target), None)
        if index is None:
            raise RuleError(f"event {target} is not an entry of the round in progress "
                            "(a settled round is final)")
        state = self._checkpoint
        for entry in self._round[:index]:
            state = self.variant.apply(state, entry.body)
        try:
            state = self.variant.apply(state, replacement)
        except RuleError as exc:
            raise RuleError(f"the corrected entry is refused: {exc}") from exc
        later = self._round[index + 1:]
        for entry in later:
            if state.round_result is not self._checkpoint.round_result:
                break
            try:
                state = self.variant.apply(state, entry.body)
            except RuleError as exc:
                raise RuleError(
                    f"cannot correct event {target}: event {entry.seq} ({entry.body['type']}) "
                    f"would then be refused: {exc}") from exc
        if state.round_result is not self._checkpoint.round_result:
            raise RuleError(f"correcting event {target} would finish the round; "
                            "undo back to it and enter the round again")
        _storable(replacement)
        note = f"correction of #{target}: {reason.strip()}"
        bodies = [{"type": "void", "target": e.seq, "reason": note}
                  for e in reversed(self._round[index:])]
        bodies += [dict(body) for body in (replacement, *(e.body for e in later))]
        first = self.entries[-1].seq + 1
        saved = {k: v.copy() if isinstance(v, list | dict) else v for k, v in vars(self).items()}
        try:  # all or nothing: folded first, then written in one transaction
            for offset, body in enumerate(bodies):
                self._accept(body, seq=first + offset)
            if self.log is not None:
                self.log.append_many(bodies)
        except BaseException:
            self.__dict__.update(saved)
            raise
        return list(range(first, first + len(bodies)))

    def preview_round(self, event: dict[str, Any]) -> RoundResult | None:
        """The RoundResult ``event`` would complete, without recording anything (the dealer
        confirms a settlement before it is logged). RuleError if the rules refuse the event."""
        if event.get("type") in ENGINE_EVENTS or self.ended:
            return None
        after = self.variant.apply(self.state, event).round_result
        return after if after is not None and after is not self.state.round_result else None

    # ------------------------------------------------------------ views

    def legal_actions(self) -> list[Any]:
        return [] if self.ended else self.variant.legal_actions(self.state)

    def view(self) -> Any:
        return self.variant.view(self.state)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def round_entries(self) -> list[Entry]:
        """Accepted, not voided entries of the round in progress (what undo can withdraw)."""
        return list(self._round)

    def close(self) -> None:
        if self.log is not None:
            if self.log.last_seq - self._saved_seq >= checkpoint.SAVE_AFTER:
                self.save_checkpoint()
            self.log.close()
