"""Reports of golden sessions of the other games (hand-checked in report_sessions.py).

Each test needs its game module; until that game is merged the test is skipped."""

from __future__ import annotations

import importlib.util

import pytest
from report_sessions import classic_session, trianta_session

from dealer_assist.reports.reconcile import HOUSE, reconcile, reconcile_log
from dealer_assist.reports.text import to_text


def needs(module: str):
    found = importlib.util.find_spec(f"dealer_assist.variants.{module}") is not None
    return pytest.mark.skipif(not found, reason=f"{module} is not merged yet")


@needs("trianta_ena")
def test_trianta_cash_outs(tmp_path):
    t = reconcile_log(trianta_session(tmp_path / "trianta.db"))
    assert not t.error and t.integrity.ok and not t.house_banked
    assert [(r.number, r.dealer, r.amounts) for r in t.rounds] == [
        (1, 1, (0, 20, -20, 0)), (2, 1, (0, 0, 0, 0))]
    assert [(m.type, m.seat, m.amount, m.after_round) for m in t.money] == [
        ("cash_out", 2, 50, 1), ("cash_out", 3, 80, 1)]  # Cy's whole stack: 80
    assert [(s.name, s.cash_outs, s.result, s.expected) for s in t.seats] == [
        ("Ann", 0, 0, 300), ("Bea", 50, 20, 70), ("Cy", 80, -20, 0), ("Dora", 0, 0, 100)]
    checks = {c.name: c.ok for c in t.checks}
    assert checks == {"balance": True, "ledger": True, "chips": False}
    assert [(c.seat, c.counted, c.expected) for c in t.discrepancies] == [(4, 95, 100)]
    assert [(x.payer, x.payee, x.amount) for x in t.plan.transfers] == [("Cy", "Bea", 20)]
    assert t.bankroll_series()[2] == ("Cy", [100, 80, 0])
    assert "event 23 (after round 1): Cy cash-out 80" in to_text(reconcile([t.path]))


@needs("classic31")
def test_classic_house_result_equals_the_wager_settlements(tmp_path):
    t = reconcile_log(classic_session(tmp_path / "classic.db"))
    assert not t.error and t.integrity.ok and t.house_banked
    assert [(r.number, r.amounts, r.house) for r in t.rounds] == [
        (1, (0, 0, 0), 0), (2, (-15, 10, -15), 20)]
    assert t.house_result == 20
    assert [(x.seat, x.wager, x.odds, x.amount) for x in t.settlements] == [
        (2, "Ante", "lost", -10), (2, "Royal Family", "4-1", 20),
        (3, "Natural", "forfeited", -5), (3, "Ante", "forfeited", -10),
        (1, "Ante", "forfeited", -10), (1, "Play", "returned", 0),
        (1, "Royal Family", "forfeited", -5)]
    balance = next(c for c in t.checks if c.name == "balance")
    assert balance.ok and "house result (+20)" in balance.text and "7 wagers" in balance.text
    assert [(c.seat, c.counted, c.expected) for c in t.discrepancies] == [(3, 80, 85)]
    assert t.nets == {"Ann": -15, "Bea": 10, "Cy": -15, HOUSE: 20}
    assert [(x.payer, x.payee, x.amount) for x in t.plan.transfers] == [
        ("Ann", HOUSE, 15), (HOUSE, "Bea", 10), ("Cy", HOUSE, 15)]
    assert t.bankroll_series()[-1] == (HOUSE, [0, 0, 20])
    # wager events: the amounts staked (a Play wager has no amount: it equals the Ante)
    assert [(w.round, w.type, w.seat, w.amount) for w in t.wagers if w.round == 2] == [
        (2, "ante", 1, 10), (2, "royal", 1, 5), (2, "ante", 2, 10), (2, "royal", 2, 5),
        (2, "ante", 3, 10), (2, "natural", 3, 5)]


@needs("trianta_ena")
def test_trianta_voided_cash_out_does_not_count(tmp_path):
    from report_sessions import TRIANTA_EVENTS, TRIANTA_SEATS, write_session

    # Bea's cash-out of 50 is voided (entered for the wrong seat); Cy's whole-stack one stands
    events = [*TRIANTA_EVENTS[:21], {"type": "void", "reason": "wrong seat"},
              *TRIANTA_EVENTS[21:-1], {"type": "chip_count", "counts": {"2": 120}}]
    path = write_session(tmp_path / "void.db", "trianta_ena", {"min_bet": 10}, TRIANTA_SEATS, 1,
                         events)
    t = reconcile_log(path)
    assert [(m.seq, m.type, m.seat, m.amount) for m in t.money] == [(24, "cash_out", 3, 80)]
    assert [(s.cash_outs, s.expected) for s in t.seats] == [(0, 300), (0, 120), (80, 0),
                                                            (0, 100)]
    assert all(c.ok for c in t.checks)


@needs("classic31")
def test_a_player_named_house_is_not_the_house(tmp_path):
    from report_sessions import CLASSIC_EVENTS, CLASSIC_SEATS, write_session

    seats = [{**CLASSIC_SEATS[0], "name": "House"}, *CLASSIC_SEATS[1:]]
    path = write_session(tmp_path / "h.db", "classic31", {}, seats, None, CLASSIC_EVENTS)
    t = reconcile_log(path)
    assert t.nets == {"House (seat 1)": -15, "Bea": 10, "Cy": -15, HOUSE: 20}
    assert [(x.payer, x.payee, x.amount) for x in t.plan.transfers] == [
        (HOUSE, "Bea", 10), ("Cy", HOUSE, 15), ("House (seat 1)", HOUSE, 15)]


@needs("classic31")
def test_a_home_table_and_a_casino_table_in_one_report(tmp_path):
    from report_sessions import greek_session

    rec = reconcile([greek_session(tmp_path / "home.db"), classic_session(tmp_path / "pit.db")])
    assert rec.nets == {"Ann": -42, "Bea": 26, "Cy": -4, HOUSE: 20}
    # home results settle among the players, casino results with the house
    assert [(x.payer, x.payee, x.amount) for x in rec.plan.transfers] == [
        ("Ann", "Bea", 16), ("Ann", "Cy", 11),
        ("Ann", HOUSE, 15), (HOUSE, "Bea", 10), ("Cy", HOUSE, 15)]
    assert rec.plan.house_lines == 3
