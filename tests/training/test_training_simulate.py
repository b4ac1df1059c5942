"""The seeded table: same seed, same play; every entry went through the engine."""

from dealer_assist.session.engine import Session
from dealer_assist.training.simulate import SeededShoe, Table


def _play(seed, rounds=3):
    table = Table.new("greek31", seed)
    for _ in range(rounds):
        table.play_round()
    return table


def test_same_seed_same_session():
    a, b = _play(9), _play(9)
    assert [e.body for e in a.session.entries] == [e.body for e in b.session.entries]
    assert a.session.rounds == b.session.rounds
    assert [e.body for e in _play(10).session.entries] != [e.body for e in a.session.entries]


def test_the_log_replays_to_the_same_rounds_and_money_is_conserved():
    table = _play(4, rounds=5)
    replay = Session.from_events([e.body for e in table.session.entries])
    assert replay.rounds == table.session.rounds
    start = sum(s.money for s in table.session.seats)
    for result in table.session.rounds:
        assert result.total == 0 and sum(result.bankrolls) == start


def test_the_shoe_deals_from_the_top_and_sends_cards_to_the_bottom():
    import random

    shoe = SeededShoe(random.Random(1))
    top = shoe.candidates()[:3]
    assert len(set(shoe.candidates())) == 52
    shoe.taken(top[0])
    assert shoe.candidates()[:2] == top[1:] and shoe.candidates()[-1] == top[0]


def test_copy_and_outcome_leave_the_table_as_it_was():
    table = Table.new("greek31", 2)
    for _ in range(5):
        table.submit(table.event_for(table.choose()))
    before = [e.body for e in table.session.entries]
    _, result, refusal = table.outcome({"type": "settle"})
    assert result is None and "not over" in refusal
    assert [e.body for e in table.session.entries] == before
