"""Reconciliation of a golden Greek 31 session (numbers hand-checked in report_sessions.py)."""

from __future__ import annotations

import csv
import json

import pytest
from report_sessions import GREEK_EVENTS, GREEK_OPTIONS, GREEK_SEATS, greek_session, write_session

from dealer_assist.cli import main
from dealer_assist.reports.export_csv import write_csv
from dealer_assist.reports.export_json import to_dict
from dealer_assist.reports.reconcile import reconcile, reconcile_log
from dealer_assist.reports.text import to_text


@pytest.fixture
def log(tmp_path):
    return greek_session(tmp_path / "greek.db")


def test_rounds_and_session_results(log):
    t = reconcile_log(log)
    assert not t.error and t.integrity.ok and t.ended and not t.in_progress
    assert not t.house_banked
    assert [(r.number, r.dealer, r.amounts) for r in t.rounds] == [
        (1, 1, (-15, 10, 5)), (2, 1, (-2, 6, -4)), (3, 1, (-10, 0, 10))]
    assert [r.bankrolls for r in t.rounds] == [(35, 40, 25), (33, 46, 21), (23, 46, 41)]
    assert [(s.name, s.start, s.buy_ins, s.cash_outs, s.result, s.expected) for s in t.seats] == [
        ("Ann", 50, 0, 0, -27, 23), ("Bea", 30, 0, 0, 16, 46), ("Cy", 20, 10, 0, 11, 41)]
    assert [(m.seq, m.type, m.seat, m.amount, m.after_round) for m in t.money] == [
        (29, "buy_in", 3, 10, 2)]
    assert t.rounds[1].outcomes[1] == "won +6 (31, paid at once)"


def test_checks_and_discrepancy_by_seat(log):
    t = reconcile_log(log)
    checks = {c.name: c for c in t.checks}
    assert checks["balance"].ok and checks["ledger"].ok
    assert not checks["chips"].ok
    assert [(c.seat, c.counted, c.expected, c.difference) for c in t.discrepancies] == [
        (2, 45, 46, -1)]
    assert "Bea -1 (counted 45, expected 46" in checks["chips"].text
    assert [(s.counted, s.difference) for s in t.seats] == [(23, 0), (45, -1), (41, 0)]
    assert not t.ok


def test_transfers_and_wagers(log):
    t = reconcile_log(log)
    assert [(x.payer, x.payee, x.amount) for x in t.plan.transfers] == [
        ("Ann", "Bea", 16), ("Ann", "Cy", 11)]
    assert "not a debt between those two people" in t.plan.explanation()
    assert [(w.round, w.seat, w.amount) for w in t.wagers] == [
        (1, 3, 5), (1, 2, 10), (2, 3, 4), (2, 2, 6), (3, 3, 10)]
    assert not any(w.voided for w in t.wagers)


def test_chart_series(log):
    t = reconcile_log(log)
    assert t.bankroll_series() == [("Ann", [50, 35, 33, 23]), ("Bea", [30, 40, 46, 46]),
                                   ("Cy", [20, 25, 21, 41])]


def test_text_report(log):
    text = to_text(reconcile([log]))
    assert "Session          -27  +16  +11    0" in text
    assert "Ann pays Bea 16" in text and "Ann pays Cy 11" in text
    assert "event 29 (after round 2): Cy buy-in 10" in text
    assert "CHECKS FAILED" in text


def test_json_and_csv_exports(log, tmp_path):
    rec = reconcile([log])
    data = json.loads(json.dumps(to_dict(rec)))
    table = data["tables"][0]
    assert table["rounds"][0]["results"][0] == {"seat": 1, "name": "Ann", "amount": -15,
                                                "outcome": "dealer -15 (17)"}
    assert table["settlements"] == {"Ann": -27, "Bea": 16, "Cy": 11}
    assert data["transfers"]["transfers"] == [{"payer": "Ann", "payee": "Bea", "amount": 16},
                                              {"payer": "Ann", "payee": "Cy", "amount": 11}]
    assert [w["amount"] for w in table["wagers"]] == [5, 10, 4, 6, 10]
    paths = write_csv(rec, tmp_path / "out")
    assert [p.name for p in paths] == [
        "rounds.csv", "wagers.csv", "wager_settlements.csv", "settlements.csv", "transfers.csv"]
    rows = list(csv.DictReader(paths[3].open()))
    assert [(r["name"], r["result"], r["count_difference"]) for r in rows] == [
        ("Ann", "-27", "0"), ("Bea", "16", "-1"), ("Cy", "11", "0")]
    rounds = list(csv.DictReader(paths[0].open()))
    assert len(rounds) == 9 and sum(int(r["amount"]) for r in rounds) == 0
    transfers = list(csv.DictReader(paths[4].open()))
    assert paths[2].read_text() == "table,round,seat,name,wager,stake,category,odds,amount\n"
    assert [(r["payer"], r["payee"], r["amount"]) for r in transfers] == [
        ("Ann", "Bea", "16"), ("Ann", "Cy", "11")]


def test_cli_exit_status(log, tmp_path, capsys):
    assert main(["report", str(log)]) == 1  # Bea's count is one short
    assert "DISCREPANCY: Bea -1" in capsys.readouterr().out
    events = [*GREEK_EVENTS[:-1], {"type": "chip_count", "counts": {"1": 23, "2": 46, "3": 41}}]
    good = write_session(tmp_path / "good.db", "greek31", GREEK_OPTIONS, GREEK_SEATS, 1, events)
    assert main(["report", str(good), "--format", "json", "--out", str(tmp_path / "r.json")]) == 0
    assert json.loads((tmp_path / "r.json").read_text())["ok"] is True


def test_count_between_rounds_compares_with_money_then(tmp_path):
    """A count after deal 1 is checked against the money after deal 1, not at the end."""
    events = [*GREEK_EVENTS[:13], {"type": "chip_count", "counts": {"1": 35, "3": 24}},
              *GREEK_EVENTS[13:-1]]
    assert events[12] == {"type": "settle"}
    path = write_session(tmp_path / "mid.db", "greek31", GREEK_OPTIONS, GREEK_SEATS, 1, events)
    t = reconcile_log(path)
    assert [(c.after_round, c.seat, c.counted, c.expected) for c in t.counts] == [
        (1, 1, 35, 35), (1, 3, 24, 25)]
    assert [(s.counted, s.difference) for s in t.seats] == [(35, 0), (None, None), (24, -1)]


def test_voided_buy_in_and_bet(tmp_path):
    """Cy's buy-in of 7 is voided (reason logged), and Cy's first bet of 3 too: neither counts."""
    events = [{"type": "buy_in", "seat": 3, "amount": 7}, {"type": "void", "reason": "wrong seat"},
              *GREEK_EVENTS[:1], {"type": "bet", "seat": 3, "amount": 3}, {"type": "void"},
              *GREEK_EVENTS[1:]]
    path = write_session(tmp_path / "void.db", "greek31", GREEK_OPTIONS, GREEK_SEATS, 1, events)
    t = reconcile_log(path)
    assert [s.buy_ins for s in t.seats] == [0, 0, 10]
    assert [s.result for s in t.seats] == [-27, 16, 11]
    assert all(c.ok for c in t.checks if c.name != "chips")
    assert [(w.seq, w.amount, w.voided) for w in t.wagers[:2]] == [(5, 3, True), (7, 5, False)]


def test_round_in_progress_counts_settled_rounds_only(tmp_path):
    path = write_session(tmp_path / "open.db", "greek31", GREEK_OPTIONS, GREEK_SEATS, 1,
                         GREEK_EVENTS[:20])
    t = reconcile_log(path)
    assert t.in_progress and not t.ended
    assert [s.result for s in t.seats] == [-15, 10, 5]
    assert all(c.ok for c in t.checks)
    assert "a round is in progress" in to_text(reconcile([path]))
