"""Hypothesis state machine over every game: random legal and illegal commands against a session.

Invariants: money is conserved to the unit (the game's ``money_total`` changes only by
buy-ins and cash-outs); a refused command leaves the log and the state exactly as they were;
replaying the log reproduces the state.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from dealer_assist.errors import RuleError
from dealer_assist.session.engine import Session
from dealer_assist.session.log import read_events, verify
from dealer_assist.variants import available_games, get_variant

JUNK_CARDS = ["ZZ", "11S", "", "A", "QX", None, 7]


def make_machine(game: str) -> type[RuleBasedStateMachine]:
    variant = get_variant(game)
    event_types = sorted({*variant.HANDLERS, "void", "end_session", "nonsense", "bet", "deal"})

    class GameMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.folder = tempfile.TemporaryDirectory()
            self.path = Path(self.folder.name) / "session.db"
            demo = variant.DEMO
            self.session = Session.new(game, demo.get("options"), demo["seats"],
                                       demo.get("first_dealer"), path=self.path)
            self.expected_total = variant.money_total(self.session.state)
            self.start_total = self.expected_total
            self.money_moves: dict[int, int] = {}  # seq of a buy-in/cash-out -> its change

        def teardown(self) -> None:
            self.session.close()
            self.folder.cleanup()

        def _try(self, event: dict) -> None:
            before_state, before_entries = self.session.state, list(self.session.entries)
            before_rows = self.session.log.last_seq
            before_round = {e.seq for e in self.session.round_entries}
            try:
                self.session.submit(event)
            except RuleError as exc:
                assert str(exc), "a refusal must say why"
                assert self.session.state == before_state
                assert self.session.entries == before_entries
                assert self.session.log.last_seq == before_rows
                return
            seq = self.session.entries[-1].seq
            if event.get("type") == "buy_in":
                self.money_moves[seq] = event["amount"]
            elif event.get("type") == "cash_out":
                self.money_moves[seq] = -self._cashed_out(before_state, event)
            elif event.get("type") == "void":  # a voided buy-in or cash-out is undone
                for voided in before_round - {e.seq for e in self.session.round_entries}:
                    self.money_moves.pop(voided, None)
            self.expected_total = self.start_total + sum(self.money_moves.values())

        def _cashed_out(self, state, event) -> int:
            return event.get("amount") or state.money[event["seat"] - 1]

        @precondition(lambda self: bool(self.session.legal_actions()))
        @rule(data=st.data())
        def legal_command(self, data):
            actions = self.session.legal_actions()
            action = data.draw(st.sampled_from(actions))
            values = {}
            if action.asks == "card":
                usable = self.session.view().usable_cards
                values["card"] = data.draw(st.sampled_from(usable)) if usable else "AS"
            elif action.asks == "amount":
                low = action.minimum or 1
                high = action.maximum if action.maximum is not None else low + 50
                values["amount"] = data.draw(st.integers(low, max(low, high)))
            self._try(action.event(**values))

        @rule(command=st.fixed_dictionaries(
            {"type": st.sampled_from(event_types)},
            optional={"seat": st.integers(-1, 9),
                      "card": st.sampled_from([*JUNK_CARDS, "AS", "2H", "KD", "10C"]),
                      "amount": st.one_of(st.integers(-3, 500), st.just("ten"))}))
        def any_command(self, command):
            """Commands of any type, for any seat, with or without each field: mostly illegal."""
            self._try(command)

        @rule()
        def undo(self):
            self._try({"type": "void"})

        @invariant()
        def money_is_conserved(self):
            assert variant.money_total(self.session.state) == self.expected_total

        @invariant()
        def replay_reproduces_state(self):
            replayed = Session.from_events(read_events(self.path))
            assert replayed.state == self.session.state
            assert replayed.rounds == self.session.rounds

        @invariant()
        def rounds_balance(self):
            for result in self.session.rounds:
                assert result.total == 0, "what one side wins the other pays"

    GameMachine.__name__ = f"{game}Machine"
    return GameMachine


@pytest.mark.parametrize("game", available_games())
def test_session_invariants(game):
    machine = make_machine(game)
    machine.TestCase.settings = settings(
        max_examples=25, stateful_step_count=40, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    machine.TestCase().runTest()


def test_log_verifies_after_a_random_session():
    """The state machine's logs are also valid hash chains (checked once, cheaply)."""
    machine = make_machine("greek31")()
    for _ in range(30):
        actions = machine.session.legal_actions()
        if not actions:
            break
        action = actions[-1]
        values = {"card": machine.session.view().usable_cards[0]} if action.asks == "card" else {}
        if action.asks == "amount":
            values = {"amount": action.minimum}
        machine._try(action.event(**values))
    assert verify(machine.path).ok
    machine.teardown()
