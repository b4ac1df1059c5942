"""The reconciliation as plain text (the CLI's default format)."""

from __future__ import annotations

from dealer_assist.reports.reconcile import HOUSE, Reconciliation, TableReport
from dealer_assist.reports.transfers import TransferPlan


def signed(amount: int) -> str:
    return f"{amount:+d}" if amount else "0"


def table_grid(header: list[str], rows: list[list[object]]) -> list[str]:
    """Left-aligned first column, right-aligned others, two spaces between."""
    cells = [header, *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                      for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in cells]


def seat_rows(t: TableReport) -> tuple[list[str], list[list[object]]]:
    header = ["Seat", "Start", "Buy-ins", "Cash-outs", "Result", "At table", "Counted", "Diff"]
    rows: list[list[object]] = [
        [f"{s.seat} {s.name}", s.start, s.buy_ins, s.cash_outs, signed(s.result),
         f"{s.expected} (debt)" if s.debt else s.expected,
         "" if s.counted is None else s.counted,
         "" if s.difference is None else signed(s.difference)] for s in t.seats]
    if t.house_banked:
        rows.append([HOUSE, "", "", "", signed(t.house_result), "", "", ""])
    return header, rows


def round_rows(t: TableReport) -> tuple[list[str], list[list[object]]]:
    header = ["Round", "Dealer", *t.names, *([HOUSE] if t.house_banked else []), "Sum"]
    rows: list[list[object]] = []
    for r in t.rounds:
        dealer = t.name(r.dealer) if r.dealer is not None else (HOUSE if t.house_banked else "")
        rows.append([r.number, dealer, *(signed(a) for a in r.amounts),
                     *([signed(r.house)] if t.house_banked else []), r.total])
    totals = [s.result for s in t.seats]
    rows.append(["Session", "", *(signed(a) for a in totals),
                 *([signed(t.house_result)] if t.house_banked else []),
                 sum(totals) + (t.house_result if t.house_banked else 0)])
    return header, rows


def debt_lines(t: TableReport) -> list[str]:
    """Negative balances, said in words (possible without table stakes: Greek 31, G11)."""
    debts = [f"{s.name} owes {s.debt}" for s in t.seats if s.debt]
    if not debts:
        return []
    return [f"Debts (a negative balance at the table): {', '.join(debts)}; "
            "who pays whom below settles them."]


def plan_lines(plan: TransferPlan | None, why: str = "no table could be reconciled") -> list[str]:
    if plan is None:
        return [f"No transfer plan: {why}."]
    lines = [f"  {t.payer} pays {t.payee} {t.amount}" for t in plan.transfers]
    return [*lines, plan.explanation()]


def table_text(t: TableReport) -> list[str]:
    lines = [f"== {t.path.name} — {t.title or '?'} ({t.status}) ==",
             f"Integrity: {t.integrity.sentence()}"]
    if t.error:
        return [*lines, f"Cannot reconcile: {t.error}", ""]
    lines += ["", "Seats", *table_grid(*seat_rows(t)), *debt_lines(t), "", "Results per round",
              *table_grid(*round_rows(t)), ""]
    if t.money:
        lines.append("Buy-ins and cash-outs")
        lines += [f"  event {m.seq} (after round {m.after_round}): {t.name(m.seat)} "
                  f"{m.type.replace('_', '-')} {m.amount}" for m in t.money]
        lines.append("")
    if t.settlements:
        lines.append("Wager settlements")
        lines += [f"  round {x.round} {t.name(x.seat)}: {x.wager} {x.stake}, {x.category}, "
                  f"{x.odds} {signed(x.amount)}" for x in t.settlements]
        lines.append("")
    lines += [f"{c.name.capitalize()}: {c.text}" for c in t.checks]
    if t.in_progress:
        lines.append("Note: a round is in progress; only settled rounds are counted.")
    lines += ["", "Who pays whom", *plan_lines(t.plan, t.no_plan), ""]
    return lines


def to_text(rec: Reconciliation) -> str:
    lines = [f"Session reconciliation: {len(rec.tables)} table log(s) — "
             f"{'all checks pass' if rec.ok else 'CHECKS FAILED, see below'}", ""]
    for t in rec.tables:
        lines += table_text(t)
    if len(rec.tables) > 1:
        lines += ["== All tables ==", rec.plan_note, "Results: " + ", ".join(
            f"{n} {signed(a)}" for n, a in rec.nets.items()), "Who pays whom",
            *plan_lines(rec.plan), ""]
    return "\n".join(lines)
