"""The reconciliation as JSON: tables (seats, rounds, wagers, counts, checks) and transfers."""

from __future__ import annotations

import json
from typing import Any

from dealer_assist.reports.reconcile import Reconciliation, TableReport
from dealer_assist.reports.transfers import TransferPlan


def plan_dict(plan: TransferPlan | None) -> dict[str, Any] | None:
    if plan is None:
        return None
    return {"transfers": [{"payer": t.payer, "payee": t.payee, "amount": t.amount}
                          for t in plan.transfers],
            "count": plan.count, "minimal": plan.exact, "explanation": plan.explanation()}


def table_dict(t: TableReport) -> dict[str, Any]:
    i = t.integrity
    out: dict[str, Any] = {
        "file": str(t.path), "game": t.game, "title": t.title, "ok": t.ok, "error": t.error,
        "integrity": {"ok": i.ok, "events": i.events, "first_bad_seq": i.first_bad_seq,
                      "first_bad_type": i.first_bad_type, "first_bad_at": i.first_bad_at,
                      "reason": i.reason, "head": i.head or None, "proof": i.proof,
                      "text": i.sentence()},
    }
    if t.error:
        return out
    out.update({
        "ended": t.ended, "round_in_progress": t.in_progress, "house_banked": t.house_banked,
        "seats": [{"seat": s.seat, "name": s.name, "start": s.start, "buy_ins": s.buy_ins,
                   "cash_outs": s.cash_outs, "result": s.result, "expected": s.expected,
                   "debt": s.debt,
                   "counted": s.counted, "difference": s.difference} for s in t.seats],
        "rounds": [{"round": r.number, "dealer": r.dealer,
                    "dealer_name": None if r.dealer is None else t.name(r.dealer),
                    "results": [{"seat": n, "name": t.name(n), "amount": r.amounts[n - 1],
                                 "outcome": r.outcomes[n - 1]}
                                for n in range(1, len(t.names) + 1)],
                    "house": r.house, "total": r.total,
                    "bankrolls": dict(zip(t.names, r.bankrolls, strict=True)),
                    "notes": list(r.notes)} for r in t.rounds],
        "house_result": t.house_result if t.house_banked else None,
        "wagers": [{"seq": w.seq, "round": w.round, "type": w.type, "seat": w.seat,
                    "name": None if w.seat is None else t.name(w.seat), "amount": w.amount,
                    "fields": w.fields, "voided": w.voided} for w in t.wagers],
        "wager_settlements": [
            {"round": x.round, "seat": x.seat, "name": t.name(x.seat), "wager": x.wager,
             "stake": x.stake, "category": x.category, "odds": x.odds, "amount": x.amount}
            for x in t.settlements],
        "money": [{"seq": m.seq, "after_round": m.after_round, "type": m.type, "seat": m.seat,
                   "name": t.name(m.seat), "amount": m.amount} for m in t.money],
        "counts": [{"seq": c.seq, "after_round": c.after_round, "seat": c.seat,
                    "name": t.name(c.seat), "counted": c.counted, "expected": c.expected,
                    "difference": c.difference} for c in t.counts],
        "checks": [{"name": c.name, "ok": c.ok, "text": c.text} for c in t.checks],
        "settlements": t.nets,
        "transfers": plan_dict(t.plan),
    })
    return out


def to_dict(rec: Reconciliation) -> dict[str, Any]:
    return {"ok": rec.ok, "tables": [table_dict(t) for t in rec.tables],
            "settlements": rec.nets, "transfers": plan_dict(rec.plan), "note": rec.plan_note}


def to_json(rec: Reconciliation) -> str:
    return json.dumps(to_dict(rec), indent=2, ensure_ascii=False)
