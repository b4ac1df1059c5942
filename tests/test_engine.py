"""The session engine: commands become events; refusals change nothing; logs resume."""

import pytest

from dealer_assist.errors import RuleError, StorageError
from dealer_assist.session.engine import ReplayError, Session
from dealer_assist.session.log import read_events, verify

SEATS = [{"name": "Ann", "money": 50}, {"name": "Bea", "money": 20}, {"name": "Cy", "money": 20}]
OPENING = [
    {"type": "deal", "seat": 3, "card": "9H"}, {"type": "deal", "seat": 2, "card": "KS"},
    {"type": "bet", "seat": 3, "amount": 5},
]


def new_session(path=None):
    return Session.new("greek31", {"max_bet": 10}, SEATS, 1, path=path)


def test_every_accepted_command_is_one_logged_event(tmp_path):
    session = new_session(tmp_path / "s.db")
    for event in OPENING:
        session.submit(event)
    assert session.log.last_seq == 1 + len(OPENING)
    assert [e["type"] for e in session.log.events()] == ["session_start", "deal", "deal", "bet"]


def test_a_refused_command_changes_nothing(tmp_path):
    session = new_session(tmp_path / "s.db")
    for event in OPENING:
        session.submit(event)
    state, entries = session.state, list(session.entries)
    with pytest.raises(RuleError, match="maximum bet is 10"):
        session.submit({"type": "bet", "seat": 2, "amount": 11})
    assert session.state == state and session.entries == entries
    assert session.log.last_seq == 4


def test_resume_rebuilds_the_round_where_it_stood(tmp_path):
    path = tmp_path / "s.db"
    session = new_session(path)
    for event in OPENING:
        session.submit(event)
    state = session.state
    session.close()
    resumed = Session.open(path)
    assert resumed.state == state
    assert resumed.view().prompt == "Bea: bet 1–10"
    resumed.submit({"type": "bet", "seat": 2, "amount": 4})
    assert verify(path).ok


def test_undo_is_a_void_event_in_the_log(tmp_path):
    session = new_session(tmp_path / "s.db")
    for event in OPENING:
        session.submit(event)
    before_bet = Session.from_events(read_events(tmp_path / "s.db")[:-1]).state
    session.submit({"type": "void"})
    assert session.state == before_bet
    assert session.log.events()[-1] == {"type": "void"}
    assert session.voided == {4: ""}


def test_a_settled_round_cannot_be_voided():
    session = new_session()
    for event in [*OPENING, {"type": "bet", "seat": 2, "amount": 5},
                  {"type": "deal", "seat": 1, "card": "KD"}, {"type": "deal", "seat": 1, "card": "QD"},
                  {"type": "deal", "seat": 1, "card": "5D"},
                  {"type": "deal", "seat": 1, "card": "9D"}, {"type": "settle"}]:
        session.submit(event)
    assert len(session.rounds) == 1
    with pytest.raises(RuleError, match="settled round is final"):
        session.submit({"type": "void"})


def test_new_session_refuses_bad_set_ups(tmp_path):
    with pytest.raises(RuleError, match="already taken"):
        Session.new("greek31", None, [{"name": "Ann", "money": 5}, {"name": "ann", "money": 5}])
    with pytest.raises(RuleError, match="unknown option"):
        Session.new("greek31", {"max_bets": 5}, SEATS)
    with pytest.raises(RuleError, match="at least 1"):
        Session.new("greek31", {"min_bet": 0}, SEATS)
    with pytest.raises(RuleError, match="below the minimum"):
        Session.new("greek31", {"min_bet": 5, "max_bet": 2}, SEATS)
    with pytest.raises(RuleError, match="unknown game"):
        Session.new("poker", None, SEATS)
    with pytest.raises(RuleError, match="2 to 12 players"):
        Session.new("greek31", None, SEATS[:1])
    (tmp_path / "taken.db").write_text("x")
    with pytest.raises(StorageError, match="already exists") as err:
        new_session(tmp_path / "taken.db")
    assert err.value.kind == "exists" and (tmp_path / "taken.db").read_text() == "x"


def test_replay_error_names_the_event_index():
    start = {"type": "session_start", "game": "greek31", "options": {}, "seats": SEATS}
    with pytest.raises(ReplayError) as info:
        Session.from_events([start, *OPENING, {"type": "bet", "seat": 2, "amount": 99}])
    assert info.value.index == 4 and "maximum" in info.value.reason


def test_chip_count_between_rounds_is_logged():
    session = new_session()
    session.submit({"type": "chip_count", "counts": {"1": 50, "2": 19}})
    assert session.chip_counts == {1: 50, 2: 19}
    session.submit(OPENING[0])
    with pytest.raises(RuleError, match="between rounds"):
        session.submit({"type": "chip_count", "counts": {"1": 50}})


def test_preview_round_shows_the_settlement_without_recording_it(tmp_path):
    session = new_session(tmp_path / "s.db")
    for event in [*OPENING, {"type": "bet", "seat": 2, "amount": 4},
                  {"type": "deal", "seat": 1, "card": "KD"}, {"type": "deal", "seat": 1, "card": "QD"},
                  {"type": "deal", "seat": 1, "card": "5D"}, {"type": "deal", "seat": 1, "card": "9D"}]:
        session.submit(event)
    with pytest.raises(RuleError, match="settle it"):  # the dealer is bust: no more cards
        session.preview_round({"type": "deal", "seat": 3, "card": "2C"})
    result = session.preview_round({"type": "settle"})
    assert [(r.seat, r.amount) for r in result.results] == [(3, 5), (2, 4), (1, -9)]
    assert session.rounds == [] and session.log.last_seq == 9


def test_values_the_log_could_not_read_back_are_refused(tmp_path):
    with pytest.raises(RuleError, match="too large"):
        Session.new("greek31", None, [{"name": "Ann", "money": 10**20}, *SEATS[1:]])
    session = new_session(tmp_path / "s.db")
    with pytest.raises(RuleError, match="invalid character"):
        session.submit({"type": "deal", "seat": 3, "card": "\ud800"})
    assert session.log.last_seq == 1
