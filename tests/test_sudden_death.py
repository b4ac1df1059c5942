"""Sudden Death 31: the rule text's table and each ruling S1-S9, in both entry modes."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_invariants import make_machine

from dealer_assist.cards import FULL_DECK, parse_cards
from dealer_assist.errors import RuleError
from dealer_assist.session.engine import Session
from dealer_assist.variants import sudden_death as sd
from dealer_assist.variants.sudden_death_scoring import (
    card_value,
    instant_win,
    score,
    showdown,
    split_pot,
    turns_for_bet,
)

NAMES = ("Ann", "Bea", "Cy", "Dora")


def table(count: int = 4, money: int = 20, opener: int = 1, **options) -> Session:
    seats = [{"name": n, "money": money} for n in NAMES[:count]]
    if money != 20:
        options.setdefault("starting_chips", money)
    return Session.new("sudden_death", options, seats, opener)


def play(session: Session, *events: dict) -> None:
    for event in events:
        session.submit(event)


def deal_all(session: Session, hands: dict[int, str]) -> None:
    for seat, cards in hands.items():
        session.submit({"type": "deal", "seat": seat, "cards": cards.split()})


# ---------------------------------------------------------------- S1, S2, S3, S6: scoring


def test_card_values_ace_11_faces_10():
    values = [card_value(c) for c in parse_cards("AS KS QS JS 10S 9S 2S")]
    assert values == [11, 10, 10, 10, 10, 9, 2]


def test_score_is_the_highest_single_suit_total():
    assert score(parse_cards("AH 9H KS")).label == "20 in hearts"
    assert score(parse_cards("2C 3D 4H")).total == 4


def test_two_equal_suit_totals_use_the_better_one():
    """S6: K of spades and Q of hearts both total 10; the King breaks ties better."""
    assert score(parse_cards("QH KS 2D")).suit == "S"
    assert score(parse_cards("10C JD 2D")).suit == "D"  # 12 in diamonds beats 10 in clubs


@pytest.mark.parametrize("cards, kind", [
    ("AS KS QS", "31"), ("AD 10D JD", "31"), ("7S 7H 7D", "Blitz"), ("AS AH AD", "Blitz"),
    ("AS KS 9S", None), ("AS KH QS", None), ("KS QS JS", None), ("7S 7H", None),
])
def test_instant_wins(cards, kind):
    assert instant_win(parse_cards(cards)) == kind


@pytest.mark.parametrize("bet, turns", [(1, 5), (2, 4), (3, 3), (4, 2), (5, 1), (6, 1), (20, 1)])
def test_bet_to_turns_table(bet, turns):
    assert turns_for_bet(bet) == turns


def test_showdown_levels_and_split():
    hands = {1: parse_cards("KS QS 5S"), 2: parse_cards("KH QH 5H"), 3: parse_cards("2D 3D 4C")}
    assert showdown(hands) == ([1, 2], "tied on every tie-breaker")
    hands[3] = parse_cards("KD QD 6D")
    assert showdown(hands) == ([3], "decided by the suit total")


def test_split_pot_gives_each_odd_chip_in_order():
    assert split_pot(5, [3, 1, 2]) == {3: 2, 1: 2, 2: 1}
    assert split_pot(12, [2, 4]) == {2: 6, 4: 6}


# ---------------------------------------------------------------- S8: seats and options


def test_three_to_five_players_two_by_option():
    with pytest.raises(RuleError, match="3 to 5 players"):
        table(2)
    assert table(2, two_players=True).state.seat_count == 2
    with pytest.raises(RuleError, match="not 6"):
        Session.new("sudden_death", {}, [{"name": f"P{i}", "money": 20} for i in range(6)], 1)


def test_everyone_starts_with_the_option_chips():
    seats = [{"name": "Ann", "money": 20}, {"name": "Bea", "money": 15},
             {"name": "Cy", "money": 20}]
    with pytest.raises(RuleError, match="Bea has 15"):
        Session.new("sudden_death", {}, seats, 1)
    session = Session.new("sudden_death", {"starting_chips": None}, seats, 1)
    assert session.view().seats[1].money == 15
    assert table(3, money=30).state.money == (30, 30, 30)


# ---------------------------------------------------------------- S4: the bet and the antes


def test_everyone_antes_the_bet_and_the_pot_holds_it():
    session = table(entry="summary")
    bet = session.legal_actions()[0]
    assert (bet.type, bet.seat, bet.minimum, bet.maximum) == ("bet", 1, 1, 20)
    play(session, {"type": "bet", "seat": 1, "amount": 3})
    view = session.view()
    assert view.pot == 12 and [s.money for s in view.seats] == [17, 17, 17, 17]
    assert sd.money_total(session.state) == 80


def test_only_the_opener_bets_and_only_once():
    session = table(opener=2, entry="summary")
    with pytest.raises(RuleError, match="Bea opens this hand"):
        session.submit({"type": "bet", "seat": 1, "amount": 1})
    session.submit({"type": "bet", "seat": 2, "amount": 1})
    with pytest.raises(RuleError, match="not possible now"):
        session.submit({"type": "bet", "seat": 2, "amount": 1})


# ---------------------------------------------------------------- S3: counting turns


def test_turns_per_player_by_default():
    session = table(entry="summary")
    play(session, {"type": "bet", "seat": 1, "amount": 3})
    assert sd.total_turns(session.state) == 12
    assert "Bet 3: 3 turn(s) each; 12 left" in session.view().info


def test_total_turns_option_counts_the_table():
    session = table(entry="summary", turn_count="table")
    play(session, {"type": "bet", "seat": 1, "amount": 3},
         {"type": "turn", "seat": 2}, {"type": "turn", "seat": 3}, {"type": "turn", "seat": 4})
    assert session.state.phase == sd.SHOWDOWN
    assert session.view().prompt == "Showdown: enter the hands of Bea, Cy, Dora, Ann"


def test_sudden_death_gives_five_turns_each_even_counting_the_table():
    session = table(3, money=2, entry="summary", turn_count="table")
    play(session, {"type": "bet", "seat": 1, "amount": 1})
    assert sd.total_turns(session.state) == 15


def test_turns_taken_cannot_exceed_the_hand():
    session = table(entry="summary")
    play(session, {"type": "bet", "seat": 1, "amount": 4})
    with pytest.raises(RuleError, match="only 8 turn"):
        session.submit({"type": "turns_taken", "count": 9})


# ---------------------------------------------------------------- S5: forced turns, card entry


def _dealt(opener: int = 1, bet: int = 1) -> Session:
    session = table(3, opener=opener)
    deal_all(session, {1: "2S 3S 4S", 2: "KH QH 9H", 3: "5D 6D 8C"})
    session.submit({"type": "bet", "seat": opener, "amount": bet})
    return session


def test_first_turn_must_draw_then_discard():
    session = _dealt()
    assert [a.type for a in session.legal_actions()] == ["draw"]
    assert "draw from the pile (the discard pile is empty)" in session.view().prompt
    session.submit({"type": "draw", "seat": 2, "card": "2C"})
    discards = session.legal_actions()
    assert [a.event() for a in discards] == [
        {"type": "discard", "seat": 2, "card": c} for c in ("KH", "QH", "9H", "2C")]
    with pytest.raises(RuleError, match="discard one first"):
        session.submit({"type": "draw", "seat": 2, "card": "3C"})
    session.submit({"type": "discard", "seat": 2, "card": "9H"})
    assert session.state.discards == parse_cards("9H")
    assert [a.type for a in session.legal_actions()] == ["draw", "take"]


def test_a_swap_cannot_give_back_the_taken_card():
    session = _dealt()
    play(session, {"type": "turn", "seat": 2, "draw": "2C", "discard": "9H"},
         {"type": "take", "seat": 3})
    labels = [a.label for a in session.legal_actions()]
    assert labels == ["Discard 5D", "Discard 6D", "Discard 8C"]
    session.submit({"type": "discard", "seat": 3, "card": "8C"})
    assert session.state.hands[2] == parse_cards("5D 6D 9H")
    assert session.state.discards == parse_cards("8C")


def test_a_drawn_card_must_be_unseen():
    session = _dealt()
    play(session, {"type": "turn", "seat": 2, "draw": "2C", "discard": "9H"})
    with pytest.raises(RuleError, match="9H is already in the discard pile"):
        session.submit({"type": "draw", "seat": 3, "card": "9H"})
    assert "9H" not in session.view().usable_cards


def test_the_draw_pile_is_refilled_from_the_discards_except_the_top():
    """S5. Unreachable in play (5 players x 5 turns draw at most 25 of 37), so built directly."""
    state = _dealt().state
    in_hands = {c for hand in state.hands for c in hand}
    rest = tuple(c for c in FULL_DECK if c not in in_hands)
    state = replace(state, discards=rest[:-1], hands=state.hands[:1] + (
        state.hands[1] + rest[-1:],) + state.hands[2:], pending=sd.DRAWN)
    assert sd.unseen(state) == []
    after = sd.apply(state, {"type": "discard", "seat": 2, "card": "KH"})
    assert after.discards == parse_cards("KH")
    assert len(sd.unseen(after)) == len(rest) - 1


def test_cards_entry_refuses_summary_events_and_back():
    session = _dealt()
    with pytest.raises(RuleError, match="summary"):
        session.submit({"type": "turns_taken", "count": 1})
    with pytest.raises(RuleError, match="finds instant wins itself"):
        session.submit({"type": "instant_win", "seat": 2, "cards": ["AS", "KS", "QS"]})
    summary = table(entry="summary")
    with pytest.raises(RuleError, match="not entered in summary"):
        summary.submit({"type": "deal", "seat": 1, "card": "AS"})


def test_void_undoes_a_draw():
    session = _dealt()
    session.submit({"type": "draw", "seat": 2, "card": "2C"})
    before = session.state
    session.submit({"type": "void"})
    assert session.state.pending == "" and len(session.state.hands[1]) == 3
    assert session.state != before


# ---------------------------------------------------------------- S2: instant wins


def test_the_after_deal_check_waits_for_the_bet():
    session = table(3)
    deal_all(session, {1: "2S 3S 4S", 2: "AH KH QH", 3: "5D 6D 8C"})
    assert session.state.phase == sd.OPENING and not session.rounds
    session.submit({"type": "bet", "seat": 1, "amount": 2})
    assert session.rounds[0].results[0].amount == 4  # Bea: pot 6 - her ante 2


def test_a_blitz_on_the_last_turn_is_an_instant_win_not_a_showdown():
    """Three Twos score only 2 in a suit, but made on a turn they win at once (S2)."""
    session = table(3)
    deal_all(session, {1: "2S 2H 4S", 2: "KH QH 9H", 3: "5D 6D 8C"})
    play(session, {"type": "bet", "seat": 1, "amount": 5},
         {"type": "turn", "seat": 2, "draw": "3C", "discard": "3C"},
         {"type": "turn", "seat": 3, "draw": "2D", "discard": "2D"},
         {"type": "turn", "seat": 1, "take": True, "discard": "4S"})
    result = session.rounds[0]
    assert result.notes == ("Instant win on turn 3: Ann takes the pot of 15",)
    assert [(r.seat, r.amount) for r in result.results] == [(2, -5), (3, -5), (1, 10)]


def test_summary_after_deal_winners_shown_card_by_card_then_settled():
    """The GUI path: one card per entry, then settle (odd chip: pot 3 for 2 winners)."""
    session = table(3, entry="summary")
    play(session, {"type": "bet", "seat": 1, "amount": 1})
    for code in ("7S", "7H"):
        session.submit({"type": "show", "seat": 3, "card": code})
    assert [a.type for a in session.legal_actions()] == ["show"]
    with pytest.raises(RuleError, match="Cy is showing a hand"):
        session.submit({"type": "turn", "seat": 2})
    with pytest.raises(RuleError, match="neither 31"):
        session.submit({"type": "show", "seat": 3, "card": "8D"})
    play(session, {"type": "show", "seat": 3, "card": "7D"},
         {"type": "show", "seat": 2, "cards": ["AC", "JC", "QC"]})
    assert [a.type for a in session.legal_actions()] == ["show", "settle"]
    session.submit({"type": "settle"})
    assert [(r.seat, r.outcome, r.amount) for r in session.rounds[0].results] == [
        (2, "split", 1), (3, "split", 0), (1, "lost", -1)]


def test_summary_instant_win_hands_shortcut_after_the_deal():
    session = table(entry="summary")
    play(session, {"type": "bet", "seat": 1, "amount": 5},
         {"type": "instant_win", "hands": {"4": ["AS", "KS", "JS"], "2": ["4C", "4D", "4H"]}})
    assert [r.amount for r in session.rounds[0].results] == [5, -5, 5, -5]


def test_summary_last_turn_instant_win_settles_before_the_other_hands():
    session = table(3, entry="summary")
    play(session, {"type": "bet", "seat": 1, "amount": 5},
         {"type": "turns_taken", "count": 3},
         {"type": "showdown", "hands": {"2": ["AS", "KS", "9S"], "1": ["2S", "2H", "2D"]}})
    assert session.rounds[0].notes == ("Instant win on turn 3: Ann takes the pot of 15",)


def test_summary_a_blitz_revealed_at_the_showdown_wins_the_pot():
    """S10: a Blitz revealed only at the showdown wins ahead of Ann's 30 in spades."""
    session = table(3, entry="summary")
    play(session, {"type": "bet", "seat": 1, "amount": 5}, {"type": "turns_taken", "count": 3})
    with pytest.raises(RuleError, match="missing Cy"):
        session.submit({"type": "showdown", "hands": {"2": ["3S", "3H", "3D"],
                                                      "1": ["AS", "KS", "9S"]}})
    play(session, {"type": "showdown", "hands": {"2": ["3S", "3H", "3D"],
                                                 "1": ["AS", "KS", "9S"],
                                                 "3": ["5C", "6C", "2H"]}})
    result = session.rounds[0]
    assert result.notes[0] == "Instant win revealed at the showdown: Bea takes the pot of 15"
    assert [(r.seat, r.outcome, r.amount, r.detail) for r in result.results] == [
        (2, "won", 10, "Blitz (3S 3H 3D)"), (3, "lost", -5, "11 in clubs (5C 6C 2H)"),
        (1, "lost", -5, "30 in spades (AS KS 9S)")]


# ---------------------------------------------------------------- S7, S8, S9: the game


def test_the_opener_rotates_clockwise_and_max_hands_ends_the_game():
    session = table(3, entry="summary", max_hands=3)
    for opener in (1, 2, 3):
        assert session.view().dealer_seat == opener
        assert session.view().seats[opener - 1].role == "opener"
        play(session, {"type": "bet", "seat": opener, "amount": 5},
             {"type": "instant_win", "seat": opener % 3 + 1, "cards": ["7S", "7H", "7D"]})
    assert [r.next_dealer for r in session.rounds] == [2, 3, None]
    assert session.state.finished
    # hand winners: Bea, Cy, Ann: each +10 once and -5 twice
    assert session.view().prompt == "Game over: Ann, Bea and Cy share the win with 20 chips each"
    assert session.legal_actions() == []
    with pytest.raises(RuleError, match="the game is over"):
        session.submit({"type": "bet", "seat": 1, "amount": 1})


def test_sudden_death_mode_is_announced_and_forces_the_bet():
    session = table(3, money=2)
    view = session.view()
    assert "Sudden death: bet 1, 5 turns each, the game ends after this hand" in view.info
    assert "forced bet of 1" in view.prompt
    bet = next(a for a in session.legal_actions() if a.type == "bet")
    assert (bet.minimum, bet.maximum) == (1, 1)


def test_view_shows_pot_values_turns_left_and_whose_turn():
    session = _dealt(bet=2)
    session.submit({"type": "turn", "seat": 2, "draw": "2C", "discard": "9H"})
    view = session.view()
    assert view.pot == 6 and view.to_act == 3 and view.dealer_seat == 1
    assert view.prompt == "Cy (turn 2 of 12): draw from the pile or take the 9H"
    assert [s.value for s in view.seats] == ["9 in spades", "20 in hearts", "11 in diamonds"]
    assert [s.status for s in view.seats] == ["waiting", "waiting", "to act"]
    assert "Bet 2: 4 turn(s) each; 11 left" in view.info
    assert "Discard pile top: 9H; draw pile: 42 cards" in view.info


# ---------------------------------------------------------------- the foundation's invariants


def test_invariants_in_summary_entry(monkeypatch):
    """The hypothesis state machine of tests/test_invariants.py, on a summary-entry table."""
    from hypothesis import HealthCheck, settings

    demo = {**sd.DEMO, "options": {"entry": "summary", "max_hands": 3}}
    monkeypatch.setattr(sd, "DEMO", demo)
    machine = make_machine("sudden_death")
    machine.TestCase.settings = settings(
        max_examples=25, stateful_step_count=40, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    machine.TestCase().runTest()


def test_a_hand_that_did_not_win_as_blitz_is_described_by_its_suit_total():
    from dealer_assist.cards import parse_cards
    from dealer_assist.variants.sudden_death_scoring import describe
    blitz = parse_cards("4S 4H 4D")
    assert describe(blitz) == "Blitz (4S 4H 4D)"
    assert describe(blitz, as_instant=False) == "4 in spades (4S 4H 4D)"
