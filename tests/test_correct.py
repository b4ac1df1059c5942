"""Correcting an earlier entry of the round: voids and re-entries in the log, audit intact."""

import pytest

from dealer_assist.errors import RuleError
from dealer_assist.session.engine import Session

SEATS = [{"name": "Ann", "money": 50}, {"name": "Bea", "money": 20}, {"name": "Cy", "money": 20}]
ROUND = [
    {"type": "deal", "seat": 3, "card": "9H"}, {"type": "deal", "seat": 2, "card": "KS"},
    {"type": "bet", "seat": 3, "amount": 5}, {"type": "bet", "seat": 2, "amount": 4},
]


def playing(path):
    session = Session.new("greek31", {"max_bet": 10}, SEATS, 1, path=path)
    for event in ROUND:
        session.submit(event)
    return session


def seat(session, number):
    return session.view().seats[number - 1]


def test_correct_a_bet_in_the_middle_of_the_round(tmp_path):
    session = playing(tmp_path / "s.db")
    bet = session.round_entries[2]
    assert bet.body == {"type": "bet", "seat": 3, "amount": 5}
    session.correct(bet.seq, {"type": "bet", "seat": 3, "amount": 7}, "mis-keyed")
    assert dict(seat(session, 3).wagers)["bet"] == 7
    assert dict(seat(session, 2).wagers)["bet"] == 4  # the later bet re-applied
    events = session.log.events()
    voids = [e for e in events if e["type"] == "void"]
    assert [v["target"] for v in voids] == [5, 4]  # the last first, back to the corrected one
    assert all(v["reason"] == "correction of #4: mis-keyed" for v in voids)
    assert events[-2:] == [{"type": "bet", "seat": 3, "amount": 7},
                           {"type": "bet", "seat": 2, "amount": 4}]
    session.close()  # one writer at a time
    reopened = Session.open(tmp_path / "s.db")
    assert reopened.view() == session.view()


def test_correct_a_card_in_the_middle_of_the_round(tmp_path):
    session = playing(tmp_path / "s.db")
    first = session.round_entries[0]
    session.correct(first.seq, {"type": "deal", "seat": 3, "card": "8H"}, "misread")
    assert seat(session, 3).cards == ("8H",)
    assert seat(session, 2).cards == ("KS",)
    assert "9H" in session.view().usable_cards and "8H" not in session.view().usable_cards
    assert [e.body["type"] for e in session.round_entries] == ["deal", "deal", "bet", "bet"]


def test_a_correction_that_makes_a_later_entry_illegal_is_refused_and_names_it(tmp_path):
    session = playing(tmp_path / "s.db")
    before, written = session.view(), session.log.last_seq
    first = session.round_entries[0]
    with pytest.raises(RuleError, match=r"event 3 \(deal\) would then be refused"):
        session.correct(first.seq, {"type": "deal", "seat": 3, "card": "KS"}, "misread")
    assert session.view() == before and session.log.last_seq == written
    with pytest.raises(RuleError, match="the corrected entry is refused"):
        session.correct(first.seq, {"type": "bet", "seat": 3, "amount": 99}, "typo")
    with pytest.raises(RuleError, match="needs a reason"):
        session.correct(first.seq, {"type": "deal", "seat": 3, "card": "8H"}, " ")
    with pytest.raises(RuleError, match="not an entry of the round"):
        session.correct(1, {"type": "deal", "seat": 3, "card": "8H"}, "x")
    assert session.view() == before and session.log.last_seq == written


def test_a_correction_hit_by_a_full_disk_writes_nothing_and_changes_nothing(tmp_path, monkeypatch):
    """All or nothing: the voids and re-entries go to the log in one transaction."""
    import sqlite3

    from dealer_assist.errors import StorageError

    session = playing(tmp_path / "s.db")
    before, entries, written = session.view(), list(session.entries), session.log.last_seq
    bet = session.round_entries[2]
    real_insert = session.log._insert
    calls = []

    def insert_then_fail(bodies):
        calls.append(len(bodies))
        real_insert(bodies)
        if sum(calls) >= 3:  # the disk fills up at the third event of the correction
            raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as patch:
        patch.setattr(session.log, "_insert", insert_then_fail)
        with pytest.raises(StorageError):
            session.correct(bet.seq, {"type": "bet", "seat": 3, "amount": 7}, "mis-keyed")
    assert session.view() == before and session.entries == entries
    assert session.log.last_seq == written == len(session.log.events())
    assert calls == [4]  # two voids and two re-entries, in one transaction
    session.correct(bet.seq, {"type": "bet", "seat": 3, "amount": 7}, "mis-keyed")  # goes on
    assert dict(seat(session, 3).wagers)["bet"] == 7
    session.close()
    assert Session.open(tmp_path / "s.db").view() == session.view()
