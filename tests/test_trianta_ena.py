"""Trianta Ena: the rule text's examples and rulings T1-T10, refusals, the view and the shoe.

The golden scenarios in tests/scenarios/trianta_ena/ replay whole rounds; these tests pin the
pieces and the refusals one by one.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from dealer_assist.cards import FULL_DECK, Card, Shoe, parse_cards
from dealer_assist.errors import RuleError
from dealer_assist.session.engine import Session
from dealer_assist.variants import trianta_ena as T
from dealer_assist.variants.base import SeatSpec, make_options

ROOT = Path(__file__).resolve().parent.parent
FOUR = [{"name": "Ann", "money": 300}, {"name": "Bea", "money": 100},
        {"name": "Cy", "money": 100}, {"name": "Dora", "money": 100}]


def value(codes: str, tens: bool = False) -> T.HandValue:
    return T.evaluate(parse_cards(codes), tens)


def session(events=(), options=None, seats=FOUR, banker=1, path=None) -> Session:
    s = Session.new("trianta_ena", {"min_bet": 10, **(options or {})}, list(seats), banker,
                    path=path)
    for event in events:
        s.submit(event)
    return s


def deal(seat, card):
    return {"type": "deal", "seat": seat, "card": card}


def bet(seat, amount):
    return {"type": "bet", "seat": seat, "amount": amount}


def act(kind, seat=None, **fields):
    body = {"type": kind, **fields}
    if seat is not None:
        body["seat"] = seat
    return body


FIRST_PASS = [deal(1, "8S"), deal(2, None), deal(3, None), deal(4, None)]
# Bea and Cy bet, Dora folds; two face-up cards each and the banker's face-down card.
TO_PLAY = [*FIRST_PASS, bet(2, 20), bet(3, 30), act("fold", 4),
           deal(2, "9H"), deal(2, "8H"), deal(3, "10D"), deal(3, "2D"), deal(1, None)]


def refused(s: Session, event: dict, fragment: str) -> None:
    before, entries = s.state, list(s.entries)
    with pytest.raises(RuleError) as exc:
        s.submit(event)
    assert fragment.lower() in str(exc.value).lower(), str(exc.value)
    assert s.state == before and s.entries == entries


# ---------------------------------------------------------------- T1 aces, T2 naturals


@pytest.mark.parametrize(("codes", "total"), [
    ("AS 5H", 16),          # a lone Ace: 1 or 11, the best not over 31
    ("AS KH 7D", 28),
    ("AS KH 7D 9C", 27),    # the lone Ace drops to 1
    ("AS AH", 22),          # T1: A-A = 12 or 22
    ("AS AH AD", 23),       # T1: A-A-A = 23 or 33
    ("AS AH 9C", 31),       # 11 + 11 + 9, an ordinary 31
    ("AS AH AD 4C", 27),    # 1 + 11 + 11 + 4
    ("KS QH 10D", 30),
])
def test_t1_ace_values(codes, total):
    v = value(codes)
    assert (v.total, v.bust) == (total, False)


def test_t1_several_aces_only_one_counts_one():
    assert value("AS AH AD AC").bust  # 1 + 11 + 11 + 11 = 34 at the least
    assert value("AS AH KD").total == 22  # 1 + 11 + 10, never 1 + 1 + 10
    assert value("KS QH 5D 8C").label == "bust (33)"


def test_t2_natural_is_an_ace_and_two_face_cards_in_three_cards():
    assert value("AS KH QD").natural
    assert value("AS KH QD").label == "natural 31"
    assert not value("AS 10H KD").natural  # 10s are not face cards by default
    assert value("AS 10H KD", tens=True).natural  # option natural_tens
    assert not value("AS AH 9C").natural
    assert not value("KS QH 9D 2C").natural  # 31 in four cards
    assert value("AS KH QD").rank > value("KS QH 9D 2C").rank > value("KS QH 10D").rank


def test_certain_bust_with_an_unknown_face_down_card():
    assert T.certainly_bust(parse_cards("KH QH 5D 8C"), 1)  # 33 already
    assert T.certainly_bust(parse_cards("KH QH QD 2C"), 1)  # 32 + at least 1
    assert not T.certainly_bust(parse_cards("KH QH QD"), 1)  # an Ace (1) makes 31
    assert not T.certainly_bust(parse_cards("KH QH AD"), 1)  # 21 with the Ace as 1
    assert not T.certainly_bust(parse_cards("KH QH 9D"), 0)


# ---------------------------------------------------------------- start, T6, T9


def test_t6_banker_brings_the_multiple():
    opts = make_options(T.Options, {})
    assert opts.bank_multiple == 3 and opts.min_bet == 1 and not opts.natural_tens
    seats = (SeatSpec("Ann", 300), SeatSpec("Bea", 100), SeatSpec("Cy", 100))
    assert T.start(opts, seats, 1).money == (300, 100, 100)
    with pytest.raises(RuleError, match=r"must begin with 3 × 100 = 300, not 100"):
        T.start(opts, (SeatSpec("Ann", 100), SeatSpec("Bea", 100), SeatSpec("Cy", 100)), 2)
    with pytest.raises(RuleError, match="the same money"):
        T.start(opts, (SeatSpec("Ann", 300), SeatSpec("Bea", 100), SeatSpec("Cy", 90)), 1)
    twice = make_options(T.Options, {"bank_multiple": 2})
    assert T.start(twice, (SeatSpec("Ann", 200), SeatSpec("Bea", 100)), 1).banker == 1
    free = make_options(T.Options, {"bank_multiple": 0})
    assert T.start(free, (SeatSpec("Ann", 70), SeatSpec("Bea", 100), SeatSpec("Cy", 5)), 1)


def test_start_refusals():
    opts = make_options(T.Options, {"bank_multiple": 0, "min_bet": 10})
    with pytest.raises(RuleError, match="cannot cover the table minimum"):
        T.start(opts, (SeatSpec("Ann", 5), SeatSpec("Bea", 100)), 1)
    with pytest.raises(RuleError, match="no player has the table minimum"):
        T.start(opts, (SeatSpec("Ann", 50), SeatSpec("Bea", 5)), 1)
    with pytest.raises(RuleError, match="first banker must be a seat"):
        T.start(opts, (SeatSpec("Ann", 50), SeatSpec("Bea", 50)), 3)


def test_t9_up_to_nine_players():
    opts = make_options(T.Options, {"bank_multiple": 0})
    ten = tuple(SeatSpec(f"P{i}", 100) for i in range(10))
    assert T.start(opts, ten, 1).order == tuple(range(2, 11))
    with pytest.raises(RuleError, match="1 to 9 players"):
        T.start(opts, (*ten, SeatSpec("P10", 100)), 1)


def test_turn_order_runs_clockwise_from_the_bankers_left():
    s = session(options={"bank_multiple": 0}, banker=3)
    assert s.state.order == (4, 1, 2)
    assert "turn order Dora, Ann, Bea" in s.view().info[0]


# ---------------------------------------------------------------- T3 the deal and the bets


def test_t3_face_up_cards_must_be_entered():
    s = session()
    refused(s, deal(1, None), "needs a card code")
    refused(s, {"type": "deal", "seat": 2}, "null for a face-down card")
    s.submit(deal(2, None))
    refused(s, deal(2, "5H"), "already has the face-down card")
    s = session(FIRST_PASS + [bet(2, 20), bet(3, 30), act("fold", 4)])
    refused(s, deal(2, None), "needs a card code")  # the two more cards are face up
    s.submit(deal(1, None))
    refused(s, deal(1, "5C"), "already has the face-down card")
    refused(s, deal(4, "5C"), "no bet in this round")


def test_t3_bets_in_turn_order_within_limits():
    s = session(FIRST_PASS)
    view = s.view()
    assert view.phase == "bets" and view.prompt == "Bea: bet 10–100 or fold"
    refused(s, bet(3, 20), "bets go in turn order: Bea bets or folds first")
    refused(s, bet(2, 5), "the table minimum is 10")
    refused(s, bet(2, 101), "Bea has only 100")
    refused(s, bet(1, 10), "Ann is the banker")
    refused(s, act("fold", 1), "Ann is the banker")
    s.submit(bet(2, 100))
    refused(s, bet(2, 10), "already bet or folded")


def test_t3_hit_or_stand_in_turn():
    s = session(TO_PLAY)
    assert s.view().prompt == "Bea: hit or stand"
    refused(s, deal(3, "5C"), "it is Bea's turn")
    refused(s, act("stand", 3), "it is Bea's turn")
    refused(s, act("stand", 1), "the banker does not choose")
    refused(s, act("reveal", 3, card="5C"), "in their own turn or at settlement")
    s.submit(act("stand", 2))
    assert s.view().prompt == "Cy: hit or stand"


def test_t3_a_bust_pays_the_banker_at_once():
    s = session([*TO_PLAY, deal(2, "KH")])  # 9 + 8 + 10 = 27 + the face-down card
    assert s.state.hand(2).status == T.BET  # 28 at the least: not certainly bust
    s.submit(act("reveal", 2, card="7C"))  # Bea shows her card: 34, bust
    assert s.state.hand(2).status == T.BUSTED
    assert s.state.money[:2] == (320, 80)
    assert s.view().prompt == "Cy: hit or stand"


def test_t3_a_standing_hand_over_31_is_a_bust_at_settlement():
    s = session([*TO_PLAY, act("stand", 2), act("stand", 3), act("reveal", 1, card="9S"),
                 deal(1, "10S")])
    assert s.view().phase == "settle"
    refused(s, act("settle"), "enter Bea's face-down card before settling")
    assert s.view().prompt == "Enter the face-down card of Bea, Cy"
    s.submit(act("reveal", 2, card="AC"))  # 9 + 8 + 11 = 28 against the banker's 27
    s.submit(act("reveal", 3, card="KD"))  # 10 + 2 + 10 = 22
    view = s.view()
    assert [sv.extra for sv in view.seats] == ["", "wins 20", "loses 30", ""]
    s.submit(act("settle"))
    assert [(r.seat, r.outcome, r.amount) for r in s.rounds[0].results] == [
        (2, "won", 20), (3, "lost", -30), (4, "folded", 0), (1, "banker", 10)]


def test_a_stood_bust_revealed_at_settlement_pays_as_a_bust():
    s = session([*TO_PLAY, deal(2, "5H"), act("stand", 2), act("stand", 3),
                 act("reveal", 1, card="9S"), deal(1, "10S")])
    s.submit(act("reveal", 2, card="KC"))  # 9 + 8 + 5 + 10 = 32: stood over 31
    assert s.state.hand(2).status == T.BUSTED and s.state.money[1] == 80
    s.submit(act("reveal", 3, card="5C"))
    s.submit(act("settle"))
    assert [(r.outcome, r.amount, r.detail) for r in s.rounds[0].results[:2]] == [
        ("lost", -20, "bust (32)"), ("lost", -30, "17 vs 27")]


# ---------------------------------------------------------------- T4 the banker


def test_t4_banker_reveals_then_draws_below_27():
    s = session([*TO_PLAY, act("stand", 2), act("stand", 3)])
    assert s.view().prompt == "Banker Ann: reveal the face-down card"
    refused(s, deal(1, "5C"), "reveals the face-down card before drawing")
    refused(s, deal(2, "5C"), "the banker draws now")
    s.submit(act("reveal", 1, card="AS"))  # 8 + 11 = 19
    assert s.view().prompt == "Banker Ann: draw (19, below 27)"
    s.submit(deal(1, "7S"))  # 8 + 11 + 7 = 26
    assert s.view().phase == "banker"
    s.submit(deal(1, "AH"))  # 8 + 7 + 1 + 11 = 27: stands
    assert s.view().phase == "settle"
    refused(s, deal(1, "2C"), "no cards are dealt now")


def test_t4_banker_does_not_play_when_every_bet_is_bust():
    s = session([*TO_PLAY, deal(2, "KH"), deal(2, "9C"), deal(3, "KC"), deal(3, "QC")])
    assert s.view().phase == "settle"
    actions = s.legal_actions()
    assert [a.type for a in actions] == ["reveal", "reveal", "reveal", "reveal", "settle"]
    assert all("optional" in a.label for a in actions if a.type == "reveal")


# ---------------------------------------------------------------- T6 cover


def test_t6_cover_limits_and_closes_the_bets():
    s = session(FIRST_PASS, options={"bank_multiple": 0},
                seats=[{"name": "Ann", "money": 150}, *FOUR[1:]])
    s.submit(bet(2, 100))
    bet_action = next(a for a in s.legal_actions() if a.type == "bet")
    assert (bet_action.minimum, bet_action.maximum) == (10, 50)
    refused(s, bet(3, 60), "the banker can cover only 50 more")
    s.submit(bet(3, 45))  # 5 left: below the minimum, so Dora cannot bet
    assert s.state.hand(4).status == T.NO_COVER
    assert s.view().phase == "cards"


# ---------------------------------------------------------------- T7, T10 the bank


def _rich_round(decision):
    """Round 1 of the golden t7 scenario: Bea 150, Cy 130, Dora 80, banker Ann 40."""
    events = [deal(1, "10S"), deal(2, None), deal(3, None), deal(4, None),
              bet(2, 50), bet(3, 30), bet(4, 20),
              deal(2, "10D"), deal(2, "9H"), deal(3, "8H"), deal(3, "KH"), deal(4, "8D"),
              deal(4, "9D"), deal(1, None), act("stand", 2), act("stand", 3), act("stand", 4),
              act("reveal", 1, card="9S"), deal(1, "7S"), deal(1, "2S"),
              act("reveal", 2, card="10H"), act("reveal", 3, card="AH"),
              act("reveal", 4, card="7D"), act("settle"), *decision]
    return session(events, options={"bank_multiple": 0},
                   seats=[{"name": n, "money": 100} for n in ("Ann", "Bea", "Cy", "Dora")])


def test_t7_offer_richest_first_and_decline_logged():
    s = _rich_round([])
    assert s.rounds == []  # the round completes when the bank is decided
    view = s.view()
    assert view.phase == "offer" and view.to_act == 2
    assert view.prompt == "Bank offered to Bea (150; banker 40): accept or decline"
    assert [sv.status for sv in view.seats] == ["stood", "offered the bank", "won", "lost"]
    refused(s, act("bank_accept", 3), "offered to Bea first")
    refused(s, act("bank_accept", 1), "Ann is the banker")
    refused(s, act("cash_out", 2), "between rounds")
    refused(s, act("end_session"), "finish (or void) the round")
    s.submit(act("bank_decline", 2))
    assert s.view().seats[1].status == "declined the bank"
    s.submit({"type": "void"})  # the decline was a mistake: Bea is asked again
    assert T.current_offer(s.state) == 2
    s.submit(act("bank_decline", 2))
    s.submit(act("bank_accept", 3))
    result = s.rounds[0]
    assert result.next_dealer == 3 and result.dealer == 1
    assert s.state.banker == 3 and s.state.ring == (3, 2, 1, 4)
    assert s.state.order == (2, 1, 4)  # Ann plays in Cy's old place
    view = s.view()
    assert view.dealer_seat == 3 and view.seats[2].role == "banker" and view.seats[2].is_dealer
    assert not view.seats[0].is_dealer
    refused(s, {"type": "void"}, "a settled round is final")


def test_t7_nobody_richer_keeps_the_bank_at_settle():
    s = session([*TO_PLAY, act("stand", 2), act("stand", 3), act("reveal", 1, card="9S"),
                 deal(1, "10S"), act("reveal", 2, card="KC"), act("reveal", 3, card="KD"),
                 act("settle")])
    assert len(s.rounds) == 1 and s.rounds[0].next_dealer == 1
    assert s.view().phase == "deal" and s.state.number == 2


def test_t10_broke_banker_nobody_accepts_ends_the_session():
    seats = [{"name": "Ann", "money": 50}, {"name": "Bea", "money": 50},
             {"name": "Cy", "money": 30}]
    events = [deal(1, "10S"), deal(2, None), deal(3, None), bet(2, 40), bet(3, 10),
              deal(2, "8H"), deal(2, "9H"), deal(3, "3C"), deal(3, "4C"), deal(1, None),
              act("stand", 2), deal(3, "10C"), act("stand", 3), act("reveal", 1, card="5S"),
              deal(1, "10H"), deal(1, "8S"), act("reveal", 2, card="7H"),
              act("reveal", 3, card="2C"), act("settle")]
    s = session(events, options={"bank_multiple": 0}, seats=seats)
    assert s.state.forced and s.state.offers == (2, 3)
    s.submit(act("bank_decline", 2))
    s.submit(act("bank_decline", 3))
    assert s.state.finished and s.state.between_rounds
    assert s.rounds[0].next_dealer is None
    assert s.legal_actions() == []
    refused(s, deal(1, "2S"), "the session is over")
    s.submit(act("end_session"))


# ---------------------------------------------------------------- T8 the shoe


def test_t8_face_down_cards_count_and_the_shoe_reshuffles_as_it_runs_out():
    s = session(options={"bank_multiple": 0},
                seats=[{"name": "Ann", "money": 100}, {"name": "Bea", "money": 100}])
    assert s.state.shoe_left == 104
    for i, card in enumerate(FULL_DECK):  # 52 rounds of two cards: Bea's is never entered
        s.submit(deal(1, card.code))
        s.submit(deal(2, None))
        if i < 51:
            assert s.state.reshuffles == 0 and s.state.shoe_left == 104 - 2 * (i + 1)
            s.submit(act("fold", 2))
            s.submit(act("settle"))
    # Bea's face-down card was the 104th: the 102 discards are back, the table stays out
    assert s.state.reshuffles == 1
    assert (s.state.shoe_left, s.state.shoe.dealt, s.state.unknown) == (102, 1, 1)
    assert "Shoe: 102 of 104 cards left; reshuffled 1 time(s)" in s.view().info
    s.submit(act("fold", 2))
    s.submit(act("settle"))
    assert s.rounds[-1].notes == (
        "the shoe ran out: 102 discards reshuffled (2 cards stay on the table)",)


def test_t8_reshuffle_keeps_the_table_counted():
    opts = make_options(T.Options, {"bank_multiple": 0})
    state = T.start(opts, (SeatSpec("Ann", 100), SeatSpec("Bea", 100)), 1)
    # 103 cards already out: 2 of every card but KC, which is out once
    state = replace(state, shoe=Shoe(2).deal_all([c for c in FULL_DECK for _ in range(2)][:-1]))
    assert state.shoe_left == 1
    state = T.apply(state, deal(1, "KC"))  # the 104th card: the discards are reshuffled
    assert state.reshuffles == 1 and state.shoe_left == 103
    assert state.shoe.dealt == 1 and state.shoe.count(Card("K", "C")) == 1
    assert state.notes == ("the shoe ran out: 103 discards reshuffled (1 card stays on the table)",)
    assert "KC" in T.view(state).usable_cards  # one more KC may come
    state = T.apply(state, deal(2, None))
    assert state.shoe_left == 102 and state.unknown == 1


def test_t8_a_third_copy_is_refused():
    s = session([deal(1, "AS"), deal(2, "AS")])
    refused(s, deal(3, "AS"), "AS is already in play 2 times")
    s.submit(deal(3, None))
    s.submit(deal(4, None))
    for seat in (2, 3, 4):
        s.submit(act("fold", seat))
    s.submit(act("settle"))
    refused(s, deal(1, "AS"), "already in play 2 times")  # continuous: no collection


# ---------------------------------------------------------------- T9 cash-out


def test_t9_cash_out_between_rounds():
    s = session()
    actions = [a for a in s.legal_actions() if a.type == "cash_out"]
    assert {a.seat for a in actions} == {2, 3, 4}  # never the banker
    refused(s, act("cash_out", 1), "holds the bank")
    refused(s, act("cash_out", 2, amount=101), "only 100")
    refused(s, act("cash_out", 2, amount=0), "at least 1")
    s.submit(act("cash_out", 2, amount=95))  # 5 left: below the minimum, not dealt in
    assert s.state.order == (3, 4) and s.view().seats[1].status == "below minimum"
    s.submit(act("cash_out", 3))
    assert s.state.money == (300, 5, 0, 100) and s.view().seats[2].status == "out"
    assert T.money_total(s.state) == 405
    s.submit(act("cash_out", 2))
    s.submit(act("cash_out", 4))
    assert s.state.finished and "no player has money left" in s.view().prompt


def test_nobody_with_the_minimum_can_only_cash_out():
    s = session(options={"bank_multiple": 0},
                seats=[{"name": "Ann", "money": 100}, {"name": "Bea", "money": 100},
                       {"name": "Cy", "money": 100}])
    s.submit(act("cash_out", 2, amount=95))
    s.submit(act("cash_out", 3, amount=95))
    assert not s.state.finished and s.state.order == ()
    assert s.view().prompt.startswith("No player has the table minimum (10)")
    assert {a.type for a in s.legal_actions()} == {"cash_out"}
    refused(s, deal(1, "AS"), "no player has the table minimum")


# ---------------------------------------------------------------- the view and legal actions


def test_view_hides_face_down_cards_and_shows_values():
    s = session([deal(1, "8S"), deal(2, "7H"), deal(3, None), deal(4, None),
                 bet(2, 20), bet(3, 30), act("fold", 4),
                 deal(2, "9H"), deal(2, "8H"), deal(3, "10D"), deal(3, "2D"), deal(1, "QS")])
    view = s.view()
    ann, bea, cy, dora = view.seats
    assert ann.role == "banker" and ann.is_dealer and view.dealer_seat == 1
    assert ann.cards == ("8S", None) and ann.hidden == (False, True) and ann.value == "8 + ?"
    assert bea.cards == (None, "9H", "8H") and bea.hidden == (True, False, False)
    assert bea.value == "17 + ?" and bea.status == "to act" and bea.wagers == (("bet", 20),)
    assert cy.status == "bet" and dora.status == "folded" and dora.cards == (None,)
    assert view.to_act == 2 and view.prompt == "Bea: hit or stand"
    s.submit(act("stand", 2))
    s.submit(act("stand", 3))
    view = s.view()  # the banker's turn: the entered face-down card is turned over
    assert view.seats[0].cards == ("8S", "QS") and view.seats[0].value == "18"
    assert view.seats[0].status == "to act" and view.to_act == 1


def test_legal_actions_ask_only_for_a_card_or_an_amount():
    s = session()
    for events in ([], FIRST_PASS, TO_PLAY[:9], TO_PLAY):
        s = session(events)
        for a in s.legal_actions():
            assert a.asks in ("card", "amount", None)
            if a.asks == "amount":
                assert a.minimum is not None and a.maximum is not None
            if a.asks is None and a.type == "deal":
                assert dict(a.fixed) == {"card": None}
    first = session().legal_actions()
    assert first[0].type == "deal" and first[0].seat == 1 and first[0].asks == "card"
    assert first[1].event() == {"type": "deal", "seat": 2, "card": None}


def test_every_legal_action_is_accepted_on_a_walk():
    """Following one legal action at a time (cards from usable_cards) never gets refused."""
    s = session(options=T.DEMO["options"], seats=T.DEMO["seats"])
    for step in range(400):
        actions = [a for a in s.legal_actions() if a.type != "cash_out"]
        if not actions:
            break
        action = actions[step % len(actions)]
        values = {}
        if action.asks == "card":
            usable = s.view().usable_cards
            values["card"] = usable[(step * 7) % len(usable)]
        elif action.asks == "amount":
            values["amount"] = action.minimum
        s.submit(action.event(**values))
    assert len(s.rounds) >= 5
    assert all(r.total == 0 for r in s.rounds)


def test_log_replays_face_down_cards(tmp_path):
    path = tmp_path / "trianta.db"
    s = session([*TO_PLAY, act("stand", 2)], path=path)
    s.close()
    reopened = Session.open(path)
    assert reopened.state == s.state
    reopened.submit(act("stand", 3))
    assert reopened.view().phase == "banker"
    reopened.close()


def test_docs_name_every_event():
    doc = (ROOT / "docs" / "games" / "trianta_ena.md").read_text(encoding="utf-8")
    for name in T.HANDLERS:
        assert f"`{name}" in doc, name
        assert f"``{name}" in T.__doc__, name
    for option in ("min_bet", "bank_multiple", "natural_tens"):
        assert option in doc


def test_a_certain_bust_needs_no_reveal():
    s = session([*TO_PLAY, deal(2, "KH"), deal(2, "9C")])  # 9 + 8 + 10 + 9 = 36 already
    assert s.state.hand(2).status == T.BUSTED and s.state.hand(2).cards[0] is None
    assert s.view().seats[1].value == "bust (36 + ?)" and s.view().seats[1].status == "bust"
    s.submit(act("stand", 3))
    s.submit(act("reveal", 1, card="9S"))
    s.submit(deal(1, "10S"))
    s.submit(act("reveal", 3, card="KD"))
    s.submit(act("settle"))
    assert s.rounds[0].results[0].detail == "bust (36 + face-down card)"
