"""Reconciliation never disagrees with the engine about buy-ins and cash-outs, voids included
(issue 14: cash_out 50, cash_out everything, void the first: the game cashed out 100)."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.cli import main
from dealer_assist.errors import RuleError
from dealer_assist.reports.reconcile import reconcile_log
from dealer_assist.session.engine import Session

SEATS = [{"name": "Ann", "money": 300}, {"name": "Bea", "money": 100},
         {"name": "Cy", "money": 100}, {"name": "Dora", "money": 100}]


def trianta(path):
    return Session.new("trianta_ena", {"min_bet": 10}, SEATS, 1, path=path)


def test_void_of_a_partial_cash_out_before_a_cash_out_of_everything(tmp_path, capsys):
    path = tmp_path / "t.db"
    s = trianta(path)
    s.submit({"type": "cash_out", "seat": 2, "amount": 50})  # event 2
    s.submit({"type": "cash_out", "seat": 2})  # everything: 50 then
    s.submit({"type": "void", "target": 2, "reason": "she changed her mind"})
    assert s.state.money[1] == 0  # the game: the second cash-out took all 100
    s.close()
    table = reconcile_log(path)
    bea = table.seats[1]
    assert (bea.cash_outs, bea.expected) == (100, 0)
    assert [(m.seq, m.amount) for m in table.money] == [(3, 100)]
    assert all(c.ok for c in table.checks), table.checks
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert "FAILED" not in out and "starting money + buy-ins - cash-outs + results" in out


ops = st.lists(st.one_of(
    st.tuples(st.just("cash_out"), st.integers(1, 4), st.one_of(st.none(), st.integers(1, 120))),
    st.tuples(st.just("void"), st.integers(0, 5), st.none()),
), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops)
def test_ledger_always_equals_the_games_money(tmp_path_factory, steps):
    path = tmp_path_factory.mktemp("money") / "t.db"
    s = trianta(path)
    for kind, seat, amount in steps:
        if kind == "cash_out":
            event = {"type": "cash_out", "seat": seat}
            if amount is not None:
                event["amount"] = amount
        else:
            entries = s.round_entries
            if not entries:
                continue
            event = {"type": "void", "target": entries[seat % len(entries)].seq, "reason": "x"}
        with contextlib.suppress(RuleError):
            s.submit(event)
    money = [seat.money for seat in s.view().seats]
    s.close()
    table = reconcile_log(path)
    assert not table.error
    assert [seat.expected for seat in table.seats] == money
    assert all(c.ok for c in table.checks if c.name == "ledger"), table.checks
