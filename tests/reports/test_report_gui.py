"""The reconciliation window shows what dealer_assist.reports computed, and exports it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from report_sessions import greek_session, second_session

pytest.importorskip("PySide6.QtWidgets")

from dealer_assist.gui.reconcile import ReconcileWindow, open_reconcile

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def logs(tmp_path):
    return [greek_session(tmp_path / "friday-table1.db"),
            second_session(tmp_path / "friday-table2.db")]


def cells(table) -> list[list[str]]:
    return [[table.item(r, c).text() for c in range(table.columnCount())]
            for r in range(table.rowCount())]


def test_window_shows_the_reconciliation(qtbot, logs, tmp_path):
    """UPDATE_SCREENSHOTS=1 also saves the screenshot to docs/screenshots/reconcile.png."""
    window = ReconcileWindow(logs[:1])
    qtbot.addWidget(window)
    window.resize(1200, 820)
    window.show()
    qtbot.waitExposed(window)
    assert window.tabs.count() == 1
    page = window.tabs.widget(0)
    assert cells(page.seats)[1] == ["2 Bea", "30", "0", "0", "+16", "46", "45", "-1"]
    assert cells(page.rounds)[-1] == ["Session", "", "-27", "+16", "+11", "0"]
    assert [label.text().split(":")[0] for label in page.checks] == ["Balance", "Ledger", "Chips"]
    assert "DISCREPANCY: Bea -1" in page.checks[2].text()
    assert "checks failed" in window.verdict.text()
    assert page.chart is not None and [s.name for s in page.chart.data.series] == [
        "Ann", "Bea", "Cy"]
    folder = SCREENSHOTS if os.environ.get("UPDATE_SCREENSHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(folder / "reconcile.png"))


def test_several_logs_and_exports(qtbot, logs, tmp_path):
    window = open_reconcile(None, logs)
    qtbot.addWidget(window)
    assert window.tabs.count() == 3 and window.tabs.tabText(2) == "All tables"
    written = window.export_to("json", tmp_path / "r.json")
    data = json.loads(written[0].read_text())
    assert data["settlements"] == {"Ann": -22, "Bea": 16, "Cy": 11, "Dee": -5}
    csvs = window.export_to("csv", tmp_path / "csv")
    assert [p.name for p in csvs] == [
        "rounds.csv", "wagers.csv", "wager_settlements.csv", "settlements.csv", "transfers.csv"]
    pdf = window.export_to("pdf", tmp_path / "r.pdf")[0]
    assert pdf.read_bytes().startswith(b"%PDF")


def test_altered_log_is_flagged(qtbot, logs):
    data = logs[1].read_bytes()
    old = b'{"amount":5,"seat":2,"type":"bet"}'
    assert data.count(old) == 1
    logs[1].write_bytes(data.replace(old, b'{"amount":4,"seat":2,"type":"bet"}'))
    window = ReconcileWindow(logs)
    qtbot.addWidget(window)
    assert window.tabs.tabText(1).endswith("⚠")
    page = window.tabs.widget(1)
    assert page.integrity.text().startswith("Integrity: ALTERED: event 3 (bet")


def test_opened_from_a_session_window(qtbot, logs):
    from PySide6.QtWidgets import QMainWindow

    main_window = QMainWindow()
    qtbot.addWidget(main_window)
    window = open_reconcile(main_window, [logs[1]])
    assert window.parent() is main_window and window.isWindow() and window.isVisible()
    page = window.tabs.widget(0)
    assert cells(page.seats) == [["1 Dee", "20", "0", "0", "-5", "15", "", ""],
                                 ["2 ann", "10", "0", "0", "+5", "15", "", ""]]
    assert "all checks pass" in window.verdict.text()
    window.close()
