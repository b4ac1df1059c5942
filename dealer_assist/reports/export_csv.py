"""The reconciliation as CSV, one file per section: rounds (per seat per round), wagers (the
wager events), wager_settlements (itemised by games that list them), settlements (per seat over
the session) and transfers."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from dealer_assist.reports.reconcile import HOUSE, Reconciliation

SECTIONS = ("rounds", "wagers", "wager_settlements", "settlements", "transfers")


def _rows(rec: Reconciliation, section: str) -> list[list[object]]:
    rows: list[list[object]] = []
    if section == "rounds":
        rows.append(["table", "round", "dealer", "seat", "name", "amount", "outcome",
                     "bankroll_after"])
        for t in rec.tables:
            for r in t.rounds:
                dealer = "" if r.dealer is None else t.name(r.dealer)
                for n in range(1, len(t.names) + 1):
                    rows.append([t.path.name, r.number, dealer, n, t.name(n), r.amounts[n - 1],
                                 r.outcomes[n - 1], r.bankrolls[n - 1]])
                if t.house_banked:
                    rows.append([t.path.name, r.number, dealer, "", HOUSE, r.house, "", ""])
    elif section == "wagers":
        rows.append(["table", "seq", "round", "type", "seat", "name", "amount", "other_fields",
                     "voided"])
        for t in rec.tables:
            for w in t.wagers:
                other = ";".join(f"{k}={v}" for k, v in sorted(w.fields.items()))
                rows.append([t.path.name, w.seq, w.round, w.type, w.seat or "",
                             "" if w.seat is None else t.name(w.seat),
                             "" if w.amount is None else w.amount, other,
                             "yes" if w.voided else ""])
    elif section == "wager_settlements":
        rows.append(["table", "round", "seat", "name", "wager", "stake", "category", "odds",
                     "amount"])
        for t in rec.tables:
            for x in t.settlements:
                rows.append([t.path.name, x.round, x.seat, t.name(x.seat), x.wager, x.stake,
                             x.category, x.odds, x.amount])
    elif section == "settlements":
        rows.append(["table", "seat", "name", "start", "buy_ins", "cash_outs", "result",
                     "expected_at_table", "debt", "counted", "count_difference"])
        for t in rec.tables:
            for s in t.seats:
                rows.append([t.path.name, s.seat, s.name, s.start, s.buy_ins, s.cash_outs,
                             s.result, s.expected, s.debt, "" if s.counted is None else s.counted,
                             "" if s.difference is None else s.difference])
            if t.house_banked:
                rows.append([t.path.name, "", HOUSE, "", "", "", t.house_result, "", "", "",
                             ""])
    else:
        rows.append(["scope", "payer", "payee", "amount"])
        for t in rec.tables:
            for tr in t.plan.transfers if t.plan else ():
                rows.append([t.path.name, tr.payer, tr.payee, tr.amount])
        if len(rec.tables) > 1 and rec.plan:
            for tr in rec.plan.transfers:
                rows.append(["all tables", tr.payer, tr.payee, tr.amount])
    return rows


def section_csv(rec: Reconciliation, section: str) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(_rows(rec, section))
    return buffer.getvalue()


def to_csv_text(rec: Reconciliation) -> str:
    """All sections in one text, each after a ``# section`` line (for printing)."""
    return "\n".join(f"# {s}\n{section_csv(rec, s)}" for s in SECTIONS)


def write_csv(rec: Reconciliation, folder: Path) -> list[Path]:
    """Write one ``<section>.csv`` per section in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for section in SECTIONS:
        path = folder / f"{section}.csv"
        path.write_text(section_csv(rec, section), encoding="utf-8")
        paths.append(path)
    return paths
