"""G11: without table stakes a balance may go below zero; the reports show it as a debt."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from report_sessions import write_session

from dealer_assist.reports.export_csv import section_csv
from dealer_assist.reports.export_json import to_dict
from dealer_assist.reports.reconcile import reconcile
from dealer_assist.reports.text import to_text

SCENARIO = (Path(__file__).resolve().parent.parent / "scenarios" / "greek31"
            / "g11_dealer_in_debt_passes_at_once.json")


def debt_log(tmp_path: Path) -> Path:
    data = json.loads(SCENARIO.read_text(encoding="utf-8"))
    events = data["events"][:9]  # Ann's bust deal, settled: Ann owes 10
    return write_session(tmp_path / "debt.db", data["game"], data["options"], data["seats"],
                         data["first_dealer"], events)


def test_a_negative_balance_is_shown_as_a_debt(tmp_path):
    rec = reconcile([debt_log(tmp_path)])
    [table] = rec.tables
    assert [(s.name, s.expected, s.debt) for s in table.seats] == [
        ("Ann", -10, 10), ("Bea", 25, 0), ("Cy", 30, 0)]
    text = to_text(rec)
    assert "-10 (debt)" in text
    assert "Debts (a negative balance at the table): Ann owes 10" in text
    seats = to_dict(rec)["tables"][0]["seats"]
    assert [(s["name"], s["expected"], s["debt"]) for s in seats] == [
        ("Ann", -10, 10), ("Bea", 25, 0), ("Cy", 30, 0)]
    rows = list(csv.DictReader(io.StringIO(section_csv(rec, "settlements"))))
    assert [(r["name"], r["expected_at_table"], r["debt"]) for r in rows] == [
        ("Ann", "-10", "10"), ("Bea", "25", "0"), ("Cy", "30", "0")]


def test_no_debt_line_when_nobody_owes(tmp_path):
    data = json.loads(SCENARIO.read_text(encoding="utf-8"))
    path = write_session(tmp_path / "plain.db", data["game"], data["options"], data["seats"],
                         data["first_dealer"], [])
    assert "Debts" not in to_text(reconcile([path]))
