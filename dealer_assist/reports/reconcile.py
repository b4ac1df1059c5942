"""Reconcile session logs: results per round and session, balance checks, counts, integrity.

Everything comes from the log alone. The log is replayed event by event through the same
engine that wrote it (``Session.submit`` without a log file), and the reconciliation keeps its own
ledger per seat: starting money + buy-ins - cash-outs + round results. At every pause between
rounds that ledger must equal the money the game itself says each seat holds.

Generic over games: it reads ``RoundResult`` (per-seat results, ``house``), the engine's events
(``session_start``, ``void``, ``chip_count``) and the money-moving events ``buy_in`` and
``cash_out`` (``amount`` absent on a cash-out: the whole stack, measured from the game's money).
"""

from __future__ import annotations

import gc
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from dealer_assist import safe_json
from dealer_assist.errors import EXIT_UNREADABLE, InputError, RuleError, StorageError
from dealer_assist.reports.source import EventSource, SourceError
from dealer_assist.reports.transfers import TransferPlan, combine, house_plan, plan_transfers
from dealer_assist.session.engine import Session
from dealer_assist.session.integrity import Integrity, RawRow
from dealer_assist.session.log import (
    Head,
    LogContents,
    VerifyReport,
    read_log,
    verify,
    verify_contents,
)

HOUSE = "House"
MONEY_EVENTS = ("buy_in", "cash_out")
WAGER_WORDS = ("bet", "wager", "ante", "stake", "raise")
NOT_WAGERS = {"session_start", "void", "end_session", "chip_count", *MONEY_EVENTS}


@dataclass(frozen=True, slots=True)
class RoundLine:
    number: int
    dealer: int | None  # the dealing / banking seat, None in house-banked games
    amounts: tuple[int, ...]  # per seat (index = seat - 1)
    outcomes: tuple[str, ...]  # per seat: "won 5 (31 vs 27)", "" if not in the round
    house: int
    bankrolls: tuple[int, ...]
    notes: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return sum(self.amounts) + self.house


@dataclass(frozen=True, slots=True)
class WagerLine:
    seq: int
    round: int
    type: str
    seat: int | None
    amount: int | None
    fields: dict[str, Any]
    voided: bool


@dataclass(frozen=True, slots=True)
class SettlementLine:
    """One wager's settlement, read from a seat result's detail where the game itemises them
    (31 Classic: ``"Ante 5: 27-30, 1-1 +5; Play 5: ..."``)."""

    round: int
    seat: int
    wager: str
    stake: int
    category: str
    odds: str
    amount: int


@dataclass(frozen=True, slots=True)
class MoneyLine:
    seq: int
    after_round: int
    type: str  # buy_in or cash_out
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class CountLine:
    seq: int
    after_round: int
    seat: int
    counted: int
    expected: int

    @property
    def difference(self) -> int:
        return self.counted - self.expected


@dataclass(frozen=True, slots=True)
class SeatLine:
    seat: int
    name: str
    start: int
    buy_ins: int
    cash_outs: int
    result: int  # won (+) or lost (-) in play over the session
    expected: int  # at the table now, by the log: start + buy_ins - cash_outs + result
    counted: int | None  # the latest chip count at this seat, if any
    difference: int | None  # that count minus what the log expected at that time

    @property
    def debt(self) -> int:
        """What the seat owes: a negative balance (Greek 31 without table stakes, G11)."""
        return max(0, -self.expected)


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    text: str


@dataclass
class TableReport:
    """The reconciliation of one session log."""

    path: Path
    integrity: Integrity
    game: str = ""
    title: str = ""
    house_banked: bool = False
    names: tuple[str, ...] = ()
    seats: list[SeatLine] = field(default_factory=list)
    rounds: list[RoundLine] = field(default_factory=list)
    wagers: list[WagerLine] = field(default_factory=list)
    settlements: list[SettlementLine] = field(default_factory=list)
    money: list[MoneyLine] = field(default_factory=list)
    counts: list[CountLine] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    plan: TransferPlan | None = None
    no_plan: str = "the log could not be read"  # why there is no plan, when there is none
    ended: bool = False
    in_progress: bool = False
    error: str = ""  # the log could not be replayed: no numbers
    unreadable: bool = False  # not a session log at all (missing, not SQLite, foreign...)

    @property
    def status(self) -> str:
        if self.error:
            return "not reconciled"
        if self.ended:
            return "ended"
        return "round in progress" if self.in_progress else "not ended"

    @property
    def house_result(self) -> int:
        return sum(r.house for r in self.rounds)

    @property
    def nets(self) -> dict[str, int]:
        """Each party's session result: seats by name, and the house where it banks."""
        if not self.house_banked:
            return {s.name: s.result for s in self.seats}
        nets = {(f"{s.name} (seat {s.seat})" if s.name.casefold() == HOUSE.casefold()
                 else s.name): s.result for s in self.seats}  # a player named "House"
        nets[HOUSE] = self.house_result
        return nets

    @property
    def ok(self) -> bool:
        return self.integrity.ok and not self.error and all(c.ok for c in self.checks)

    @property
    def discrepancies(self) -> list[CountLine]:
        return [c for c in self.counts if c.difference]

    def name(self, seat: int | None) -> str:
        return HOUSE if seat is None else self.names[seat - 1]

    def bankroll_series(self) -> list[tuple[str, list[int]]]:
        """Chart data: each seat's money at the start and after every round (and the house's
        running result in house-banked games)."""
        series = []
        for i, seat in enumerate(self.seats):
            series.append((seat.name, [seat.start, *(r.bankrolls[i] for r in self.rounds)]))
        if self.house_banked:
            running, values = 0, [0]
            for r in self.rounds:
                running += r.house
                values.append(running)
            series.append((HOUSE, values))
        return series


@dataclass
class Reconciliation:
    """One report over one or more table logs; transfers are also planned across all tables."""

    tables: list[TableReport]
    nets: dict[str, int]
    plan: TransferPlan | None
    plan_note: str = ""

    @property
    def ok(self) -> bool:
        return all(t.ok for t in self.tables)


# ---------------------------------------------------------------- integrity


def _integrity(report: VerifyReport) -> Integrity:
    return Integrity(report.ok, report.events, report.first_bad_seq, report.first_bad_type,
                     report.first_bad_at, report.reason, str(report.head or ""), report.proof)


def check_integrity(path: str | Path, *, key: Ed25519PublicKey | None = None,
                    expect_head: Head | None = None) -> Integrity:
    """Verify the signed chain (read-only) and name the first altered event."""
    return _integrity(verify(path, key=key, expect_head=expect_head))


# ---------------------------------------------------------------- replay


def _money(session: Session) -> dict[int, int]:
    return {s.seat: s.money for s in session.view().seats}


def _pending_money(session: Session) -> list[MoneyLine]:
    """The buy-ins and cash-outs of the round in progress, as the engine measured them
    (``Session.money_moves``: a void re-measures the ones after it, e.g. a cash-out of
    "everything" takes what is there once an earlier one is withdrawn)."""
    in_round = {entry.seq for entry in session.round_entries}
    return [MoneyLine(m.seq, m.before_round - 1, m.type, m.seat, abs(m.amount))
            for m in session.money_moves if m.seq in in_round]


def _with(ledger: list[int], money: list[MoneyLine]) -> list[int]:
    """Each seat's money by the ledger once ``money`` (buy-ins and cash-outs) is counted."""
    out = list(ledger)
    for m in money:
        out[m.seat - 1] += m.amount if m.type == "buy_in" else -m.amount
    return out


def _outcome(amount: int, outcome: str, detail: str) -> str:
    text = outcome if not amount else f"{outcome} {amount:+d}"
    return f"{text} ({detail})" if detail else text


SETTLEMENT = re.compile(r"^(?P<wager>[A-Za-z][A-Za-z0-9 ]*?) (?P<stake>\d+): (?P<category>.*), "
                        r"(?P<odds>\S+) (?P<amount>[+-]\d+)$")


def settlement_lines(number: int, seat: int, detail: str) -> list[SettlementLine]:
    """The itemised wager settlements in a seat result's detail (after any ``|``), if any."""
    items = detail.rsplit("|", 1)[-1].split(";")
    lines = []
    for item in items:
        match = SETTLEMENT.match(item.strip())
        if match:
            lines.append(SettlementLine(number, seat, match["wager"], int(match["stake"]),
                                        match["category"], match["odds"], int(match["amount"])))
    return lines


def _round_line(result: Any, seats: int) -> RoundLine:
    amounts, outcomes = [0] * seats, [""] * seats
    for r in result.results:
        amounts[r.seat - 1] += r.amount
        text = _outcome(r.amount, r.outcome, r.detail)
        outcomes[r.seat - 1] = f"{outcomes[r.seat - 1]}; {text}" if outcomes[r.seat - 1] else text
    return RoundLine(result.number, result.dealer, tuple(amounts), tuple(outcomes), result.house,
                     tuple(result.bankrolls), tuple(result.notes))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_wager(body: dict[str, Any]) -> bool:
    """A game event that stakes money: it has a whole ``amount`` or a wager-like type."""
    kind = str(body.get("type", ""))
    if kind in NOT_WAGERS:
        return False
    return _whole(body.get("amount")) or any(w in kind for w in WAGER_WORDS)


def _is_house_banked(variant: Any, rounds: list[RoundLine]) -> bool:
    return bool(getattr(variant, "HOUSE_BANKED", False)) or any(r.house for r in rounds)


class LogFile:
    """A session log file as an event source: read once, read-only (the file and its -wal are
    never changed); the integrity and the numbers come from the same rows. ``key`` is the
    session's public key when it is not in this data folder."""

    def __init__(self, path: str | Path, key: Ed25519PublicKey | None = None) -> None:
        self.path = Path(path)
        self.key = key
        self._log: LogContents | None = None
        self._error: StorageError | None = None

    @property
    def label(self) -> str:
        return str(self.path)

    def _read(self) -> LogContents:
        if self._log is None and self._error is None:
            try:
                self._log = read_log(self.path)
            except StorageError as exc:
                self._error = exc
        if self._error is not None:
            raise SourceError(self._error.what,
                              unreadable=self._error.exit_status == EXIT_UNREADABLE)
        assert self._log is not None
        return self._log

    def integrity(self) -> Integrity:
        try:
            log = self._read()
        except SourceError as exc:
            return Integrity(False, 0, reason=str(exc).rstrip("."))
        return _integrity(verify_contents(log, key=self.key))

    def rows(self) -> list[RawRow]:
        return [(seq, at, kind, body) for seq, at, kind, body, *_ in self._read().rows]


def as_source(log: str | Path | EventSource, key: Ed25519PublicKey | None = None
              ) -> EventSource:
    return log if isinstance(log, EventSource) else LogFile(log, key)


def reconcile_log(log: str | Path | EventSource, *, key: Ed25519PublicKey | None = None
                  ) -> TableReport:
    """Replay one session's events and reconcile them; a session that cannot be replayed gets
    ``error`` set. ``log`` is a file (read-only; ``key`` its public key when not in this data
    folder) or any other event source (the card room's server)."""
    source = as_source(log, key)
    table = TableReport(Path(source.label), source.integrity())
    try:
        rows = source.rows()
    except SourceError as exc:
        table.error = f"cannot read the log: {exc}"
        table.unreadable = exc.unreadable
        return table
    if not rows:
        table.error = "the log has no events"
        return table
    bodies = []
    for seq, _, _, body in rows:
        try:
            bodies.append((seq, safe_json.loads(body)))
        except InputError as exc:
            table.error = f"event {seq}'s body cannot be read ({exc}; see the integrity check)"
            return table
    was_enabled = gc.isenabled()
    gc.disable()  # a replay makes many long-lived objects and no cyclic garbage (as the engine)
    try:
        _replay(table, bodies)
    except RuleError as exc:
        table.error = str(exc)
    finally:
        if was_enabled:
            gc.enable()
    return table


def _replay(table: TableReport, bodies: list[tuple[int, dict[str, Any]]]) -> None:
    try:
        session = Session(bodies[0][1])
    except RuleError as exc:
        raise RuleError(f"event 1 (session_start) is refused on replay: {exc}") from exc
    variant = session.variant
    table.game, table.title, table.names = variant.NAME, variant.TITLE, session.names
    n = len(session.seats)
    start = [s.money for s in session.seats]
    settled = list(start)  # each seat's money by the ledger at the last settled round
    pending: list[MoneyLine] = []  # buy-ins and cash-outs of the round in progress (voidable)
    mismatch: str = ""
    for seq, body in bodies[1:]:
        kind = body.get("type") if isinstance(body, dict) else None
        rounds_before = len(session.rounds)
        try:
            session.submit(body)
        except RuleError as exc:
            raise RuleError(f"event {seq} ({kind}) is refused on replay: {exc}") from exc
        if kind in MONEY_EVENTS or kind == "void":
            pending = _pending_money(session)
        elif _is_wager(body):
            seat, amount = body.get("seat"), body.get("amount")
            table.wagers.append(WagerLine(
                seq, rounds_before + 1, str(kind), seat if _whole(seat) else None,
                amount if _whole(amount) else None,
                {k: v for k, v in body.items() if k not in ("type", "seat", "amount")}, False))
        for result in session.rounds[rounds_before:]:
            for r in result.results:
                table.settlements += settlement_lines(result.number, r.seat, r.detail)
            line = _round_line(result, n)
            table.rounds.append(line)
            settled = [a + b for a, b in zip(_with(settled, pending), line.amounts, strict=True)]
            table.money += pending
            pending = []
        ledger = _with(settled, pending)
        if kind == "chip_count":
            for key, counted in body["counts"].items():
                seat = int(key)
                table.counts.append(
                    CountLine(seq, len(session.rounds), seat, counted, ledger[seat - 1]))
        if not mismatch and (session.state.between_rounds or session.ended):
            game_money = _money(session)
            wrong = [s for s in range(1, n + 1) if game_money[s] != ledger[s - 1]]
            if wrong:
                seat = wrong[0]
                mismatch = (f"after event {seq}, {session.names[seat - 1]} holds "
                            f"{game_money[seat]} by the game but {ledger[seat - 1]} by the ledger")
    table.money += pending
    ledger = _with(settled, pending)
    buy_ins, cash_outs = [0] * n, [0] * n
    for m in table.money:
        (buy_ins if m.type == "buy_in" else cash_outs)[m.seat - 1] += m.amount
    voided = set(session.voided)
    table.wagers = [WagerLine(w.seq, w.round, w.type, w.seat, w.amount, w.fields, w.seq in voided)
                    for w in table.wagers]
    table.ended = session.ended
    table.in_progress = not (session.state.between_rounds or session.ended
                             or session.state.finished)
    table.house_banked = _is_house_banked(variant, table.rounds)
    latest = {c.seat: c for c in table.counts}
    for i in range(n):
        count = latest.get(i + 1)
        table.seats.append(SeatLine(
            i + 1, session.names[i], start[i], buy_ins[i], cash_outs[i],
            sum(r.amounts[i] for r in table.rounds), ledger[i],
            count.counted if count else None, count.difference if count else None))
    table.checks = _checks(table, mismatch)
    if not all(c.ok for c in table.checks if c.name == "balance"):
        table.no_plan = "the results do not balance"
    elif not table.integrity.ok:
        table.no_plan = "the log was altered (see the integrity check): its numbers are not proof"
    else:
        table.plan = (house_plan(table.nets, HOUSE) if table.house_banked
                      else plan_transfers(table.nets))


def _rounds(count: int) -> str:
    return "1 round" if count == 1 else f"{count} rounds"


def _checks(table: TableReport, mismatch: str) -> list[Check]:
    checks = []
    bad = [r for r in table.rounds if r.total != 0]
    total = sum(s.result for s in table.seats) + (table.house_result if table.house_banked else 0)
    if table.house_banked:
        what = (f"the house result ({table.house_result:+d}) equals the sum of every settlement "
                f"paid to or taken from the players, turned around")
    else:
        what = "the seats' changes sum to zero in every round and over the session"
    if table.house_banked and table.settlements:
        itemised = sum(x.amount for x in table.settlements)
        per_seat: dict[tuple[int, int], int] = {}
        for x in table.settlements:
            per_seat[x.round, x.seat] = per_seat.get((x.round, x.seat), 0) + x.amount
        amounts = {(r.number, i + 1): a for r in table.rounds for i, a in enumerate(r.amounts)}
        wrong = [key for key, value in per_seat.items() if amounts.get(key) != value]
        if wrong:
            (number, seat) = wrong[0]
            checks.append(Check("balance", False, f"FAILED: in round {number} "
                                f"{table.name(seat)}'s wager settlements sum to "
                                f"{per_seat[number, seat]:+d}, not the seat's result "
                                f"{amounts.get((number, seat), 0):+d}."))
            return _more_checks(table, mismatch, checks)
        if itemised != -table.house_result:
            checks.append(Check("balance", False, f"FAILED: the wager settlements sum to "
                                f"{itemised:+d} for the players but the house result is "
                                f"{table.house_result:+d}."))
            return _more_checks(table, mismatch, checks)
        what = (f"the house result ({table.house_result:+d}) equals the sum of every wager's "
                f"settlement ({len(table.settlements)} wagers, {itemised:+d} to the players), "
                f"turned around")
    if bad or total:
        first = bad[0] if bad else None
        where = f"round {first.number} is off by {first.total:+d}" if first else \
            f"the session is off by {total:+d}"
        checks.append(Check("balance", False, f"FAILED: {where} ({len(bad)} round(s) off)."))
    else:
        checks.append(Check("balance", True, f"OK: {what} ({_rounds(len(table.rounds))})."))
    return _more_checks(table, mismatch, checks)


def _more_checks(table: TableReport, mismatch: str, checks: list[Check]) -> list[Check]:
    if mismatch:
        checks.append(Check("ledger", False, f"FAILED: {mismatch}."))
    else:
        checks.append(Check("ledger", True, "OK: starting money + buy-ins - cash-outs + results "
                                            "equals each seat's money at every pause."))
    if not table.counts:
        checks.append(Check("chips", True, "No chip count was entered."))
    elif table.discrepancies:
        parts = [f"{table.name(c.seat)} {c.difference:+d} (counted {c.counted}, expected "
                 f"{c.expected}, event {c.seq})" for c in table.discrepancies]
        checks.append(Check("chips", False, "DISCREPANCY: " + "; ".join(parts) + "."))
    else:
        checks.append(Check("chips", True, f"OK: {len(table.counts)} counted stack(s) match "
                                           "the log."))
    return checks


# ---------------------------------------------------------------- several tables


def _add(nets: dict[str, int], display: dict[str, str], more: dict[str, int]) -> None:
    for name, amount in more.items():
        key = name.casefold()
        display.setdefault(key, name)
        nets[display[key]] = nets.get(display[key], 0) + amount


def reconcile(paths: list[str | Path] | list[EventSource], *,
              key: Ed25519PublicKey | None = None) -> Reconciliation:
    """Reconcile every log and plan one set of transfers over all of them: people are matched
    by name; results at player-banked tables settle among the players with the fewest
    transfers, results at house-banked tables settle with the house."""
    tables = [reconcile_log(p, key=key) for p in paths]
    nets: dict[str, int] = {}
    players: dict[str, int] = {}
    house: dict[str, int] = {}
    display: dict[str, str] = {}
    usable = [t for t in tables if t.plan is not None]
    for t in usable:
        _add(nets, display, t.nets)
        _add(house if t.house_banked else players, display, t.nets)
    plan = None
    if usable:
        plan = combine(plan_transfers(players), house_plan(house, HOUSE))
    notes = []
    if len(tables) > 1:
        notes.append("Across all tables, results of the same name are added together.")
    skipped = [t.path.name for t in tables if t.plan is None]
    if skipped:
        notes.append(f"Left out of the transfer plan (not reconciled): {', '.join(skipped)}.")
    return Reconciliation(tables, nets, plan, " ".join(notes))
