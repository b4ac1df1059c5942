"""One and Thirty and Bone Ace: the rule text's points and rulings O1-O9 (golden scenarios in
tests/scenarios/one_and_thirty/ replay whole hands)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from test_invariants import make_machine

from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.errors import RuleError
from dealer_assist.session.engine import Session
from dealer_assist.variants import get_variant
from dealer_assist.variants import one_and_thirty as ot

SEATS = [{"name": "Ann", "money": 20, "age": 2}, {"name": "Bea", "money": 20, "age": 4},
         {"name": "Cy", "money": 20, "age": 1}, {"name": "Dora", "money": 20, "age": 3}]


def session(options=None, seats=None, first_dealer=1) -> Session:
    return Session.new("one_and_thirty", options, seats or SEATS, first_dealer)


def run(s: Session, *events: dict) -> Session:
    for event in events:
        s.submit(event)
    return s


def reveal(s: Session, seat: int, codes: str) -> None:
    for code in codes.split():
        s.submit({"type": "reveal", "seat": seat, "card": code})


def test_registered_under_its_names():
    assert get_variant("one_and_thirty") is ot
    assert get_variant("bone-ace") is ot
    assert ot.SEAT_FIELDS == ("age",)


# ---------------------------------------------------------------- O2 values and ranks


def test_values_ace_one_faces_ten():
    assert ot.hand_total(parse_cards("AS KH QD JC")) == 31
    assert ot.hand_total(parse_cards("10S 9S 2S")) == 21
    assert ot.hand_total((parse_card("5H"), None)) == 5  # a face-down card is not counted yet


def test_draw_rank_king_high_ace_low():
    ranks = [ot.draw_rank(c) for c in parse_cards("AS 2S 9S 10S JS QS KS")]
    assert ranks == sorted(ranks) and len(set(ranks)) == 7
    assert ot.draw_rank(parse_card("AH")) == ot.draw_rank(parse_card("AS"))  # suits don't matter


def test_bone_rank_ace_of_hearts_highest_other_aces_lowest():
    assert ot.bone_rank(parse_card("AH")) > ot.bone_rank(parse_card("KS"))
    assert ot.bone_rank(parse_card("AS")) < ot.bone_rank(parse_card("2C"))
    assert ot.bone_rank(parse_card("AD")) == ot.bone_rank(parse_card("AC"))


# ---------------------------------------------------------------- O1 stakes and the pot


def test_everyone_including_the_dealer_stakes():
    s = run(session({"stake": 3}), {"type": "ante"})
    assert s.state.money == (17, 17, 17, 17)
    view = s.view()
    assert view.pot == 12
    assert all(seat.wagers == (("stake", 3),) for seat in view.seats)
    assert ot.money_total(s.state) == 80


def test_stakes_only_once_per_hand():
    s = run(session(), {"type": "ante"})
    with pytest.raises(RuleError, match="already in the pot"):
        s.submit({"type": "ante"})


def test_a_player_who_cannot_pay_the_stake_is_out_of_the_game():
    seats = [*SEATS[:3], {"name": "Dora", "money": 1, "age": 3}]
    s = run(session({"stake": 2}, seats), {"type": "ante"})
    assert s.state.players == (2, 3, 1)
    assert s.state.money[3] == 1 and s.view().pot == 6
    assert s.view().seats[3].status == "out of the game"


def test_start_needs_two_players_who_can_pay_and_a_dealer_who_can():
    poor = [{**seat, "money": 1} for seat in SEATS[:3]] + [SEATS[3]]
    with pytest.raises(RuleError, match="at least two players"):
        session({"stake": 2}, poor)
    with pytest.raises(RuleError, match="cannot deal"):
        session({"stake": 2}, [*SEATS[:3], {**SEATS[3], "money": 1}], first_dealer=4)


def test_options_are_checked():
    with pytest.raises(RuleError, match="at least 1"):
        session({"stake": 0})
    with pytest.raises(RuleError, match="unknown option"):
        session({"doubles": True})


# ---------------------------------------------------------------- O3 the first dealer


def test_draw_lowest_deals_and_ace_is_low():
    s = session(first_dealer=None)
    assert s.view().phase == "draw"
    for seat, code in ((1, "2H"), (2, "AD"), (3, "KS"), (4, "3C")):
        s.submit({"type": "draw_for_deal", "seat": seat, "card": code})
    assert s.state.dealer == 2 and s.view().phase == "stakes"


def test_draw_three_way_tie_redraws_then_tie_again():
    s = session(first_dealer=None)
    for seat, code in ((1, "4H"), (2, "4D"), (3, "4S"), (4, "9C")):
        s.submit({"type": "draw_for_deal", "seat": seat, "card": code})
    assert s.state.drawers == (1, 2, 3)
    assert "Redraw" in s.view().prompt
    for seat, code in ((1, "4H"), (2, "6D"), (3, "6S")):  # a fresh deck: 4H may come again
        s.submit({"type": "draw_for_deal", "seat": seat, "card": code})
    assert s.state.dealer == 1


def test_draw_refusals():
    s = session(first_dealer=None)
    s.submit({"type": "draw_for_deal", "seat": 1, "card": "5H"})
    with pytest.raises(RuleError, match="already drawn"):
        s.submit({"type": "draw_for_deal", "seat": 1, "card": "6H"})
    with pytest.raises(RuleError, match="already in play"):
        s.submit({"type": "draw_for_deal", "seat": 2, "card": "5H"})
    with pytest.raises(RuleError, match="draw for the first dealer first"):
        s.submit({"type": "ante"})
    with pytest.raises(RuleError, match="already chosen"):
        session().submit({"type": "draw_for_deal", "seat": 1, "card": "5H"})


def test_the_deal_passes_to_the_left_and_wraps_round():
    s = run(session(first_dealer=4), {"type": "ante"}, {"type": "deal_face_down"})
    # dealer Dora: play from the oldest, Cy, round to the left, dealer last
    assert s.state.order == (3, 1, 2, 4)
    run(s, {"type": "have", "seat": 3, "card": "KS"})
    reveal(s, 3, "QS JS 2S")  # 32: out
    run(s, {"type": "stick", "seat": 1}, {"type": "stick", "seat": 2},
        {"type": "stick", "seat": 4})
    reveal(s, 1, "10H 9H 8H")
    reveal(s, 2, "10C 9C 7C")
    reveal(s, 4, "2D 3D 4D")
    s.submit({"type": "settle"})
    result = s.rounds[0]
    assert result.next_dealer == 1  # left of seat 4 is seat 1
    assert [(r.seat, r.amount) for r in result.results] == [(3, -1), (1, 3), (2, -1), (4, -1)]


# ---------------------------------------------------------------- O4, O9 play order


def test_the_oldest_dealer_still_plays_last():
    s = run(session(first_dealer=3), {"type": "ante"}, {"type": "deal_face_down"})
    # Cy (age 1) deals: play starts with the oldest of the others, Ann (age 2)
    assert s.state.order == (1, 2, 4, 3)
    assert s.view().prompt == "Ann: stick or have it?"
    assert s.view().to_act == 1


def test_the_deal_goes_round_from_the_dealers_left_dealer_last():
    s = run(session(), {"type": "ante"})
    with pytest.raises(RuleError, match="next card goes to Bea"):
        s.submit({"type": "deal", "seat": 1, "card": "5H"})
    for seat in (2, 3, 4, 1):
        s.submit({"type": "deal", "seat": seat, "card": None})
    assert s.view().prompt == "Deal card 2 to Bea (face down)"


def test_a_player_who_has_finished_cannot_play_again():
    s = run(session(), {"type": "ante"}, {"type": "deal_face_down"}, {"type": "stick", "seat": 3})
    with pytest.raises(RuleError, match="Cy has finished playing"):
        s.submit({"type": "have", "seat": 3, "card": "2H"})


# ---------------------------------------------------------------- O5, O6 out, 31, the last one in


def deal_cy(*codes: str) -> Session:
    """Ann deals; Cy's three cards are entered, everyone else's are face down."""
    s = run(session(), {"type": "ante"})
    cy = iter(codes)
    for _ in range(3):
        for seat in (2, 3, 4, 1):
            s.submit({"type": "deal", "seat": seat, "card": next(cy) if seat == 3 else None})
    return s


def test_exactly_31_wins_at_once_and_over_31_is_out_at_once():
    s = deal_cy("10S", "9S", "8S")
    s.submit({"type": "have", "seat": 3, "card": "4S"})  # 31
    assert s.view().phase == "settle" and s.view().prompt == "Cy wins (31); confirm the settlement"
    s = deal_cy("10S", "9S", "8S")
    s.submit({"type": "have", "seat": 3, "card": "5S"})  # 32
    assert s.state.hand(3).status == ot.OUT and s.view().seats[2].value == "32 — out"
    assert s.view().prompt == "Dora: stick or have it?"


def test_shown_cards_and_one_per_face_down_card_over_31_are_out():
    s = run(session(), {"type": "ante"}, {"type": "deal_face_down"})
    s.submit({"type": "have", "seat": 3, "card": "KS"})
    s.submit({"type": "have", "seat": 3, "card": "QS"})
    assert s.state.hand(3).status == ot.WAITING  # 20 shown + at least 3 = 23
    s.submit({"type": "have", "seat": 3, "card": "9S"})  # 29 shown + at least 3 = 32
    assert s.state.hand(3).status == ot.OUT
    assert s.view().seats[2].value == "29 + ? — out"


def test_double_stake_a_player_short_of_a_stake_pays_what_they_have():
    seats = [{"name": "Ann", "money": 10, "age": 1}, {"name": "Bea", "money": 2, "age": 2}]
    s = run(session({"stake": 2, "double_stake": True}, seats, first_dealer=2),
            {"type": "ante"}, {"type": "deal_face_down"},
            {"type": "have", "seat": 1, "card": "KH"})
    reveal(s, 1, "KS QS AS")  # 31: Ann wins at once; Bea has nothing left for the double
    s.submit({"type": "settle"})
    result = s.rounds[0]
    assert [(r.seat, r.amount) for r in result.results] == [(1, 2), (2, -2)]
    assert result.total == 0
    assert "Bea could pay only 0 of the double stake" in result.notes
    assert s.state.finished


def test_a_31_shown_only_at_the_showdown_takes_the_double_stake_too():
    """O5 as amended: a 31 first shown at the showdown is still a 31."""
    s = run(session({"double_stake": True}), {"type": "ante"}, {"type": "deal_face_down"},
            {"type": "have", "seat": 3, "card": "AS"},
            {"type": "stick", "seat": 3}, {"type": "stick", "seat": 4},
            {"type": "stick", "seat": 2}, {"type": "stick", "seat": 1})
    reveal(s, 3, "KS QS KD")  # 31, never claimed when reached
    reveal(s, 4, "2H 3H 4H")
    reveal(s, 2, "5H 6H 7H")
    reveal(s, 1, "8H 9H 10H")
    s.submit({"type": "settle"})
    assert [(r.seat, r.amount, r.detail) for r in s.rounds[0].results] == [
        (3, 6, "31, first shown at the showdown, double stake"), (4, -2, "9"), (2, -2, "18"),
        (1, -2, "27")]


def test_a_hand_stuck_over_31_is_out_when_shown_and_the_last_one_in_wins():
    s = run(session(), {"type": "ante"}, {"type": "deal_face_down"},
            {"type": "have", "seat": 3, "card": "KS"}, {"type": "stick", "seat": 3},
            {"type": "have", "seat": 4, "card": "KH"}, {"type": "stick", "seat": 4})
    run(s, {"type": "have", "seat": 2, "card": "KD"})
    reveal(s, 2, "QD JD 2D")  # 32: out
    s.submit({"type": "stick", "seat": 1})
    assert s.view().phase == "showdown"
    reveal(s, 3, "QS JS 9S")  # Cy stuck on 39 without saying so: out
    reveal(s, 4, "QH JH 8H")  # Dora 38: out, so Ann is the last one in
    assert s.view().phase == "settle"
    s.submit({"type": "settle"})
    assert [(r.seat, r.outcome) for r in s.rounds[0].results] == [
        (3, "lost"), (4, "lost"), (2, "lost"), (1, "won")]


def test_settle_needs_the_showdown_cards():
    s = run(session(), {"type": "ante"}, {"type": "deal_face_down"},
            *({"type": "stick", "seat": seat} for seat in (3, 4, 2, 1)))
    with pytest.raises(RuleError, match="reveal the cards of Cy, Dora, Bea, Ann"):
        s.submit({"type": "settle"})
    with pytest.raises(RuleError, match="not over yet"):
        run(session(), {"type": "ante"}).submit({"type": "settle"})


def test_only_the_player_to_act_shows_cards_during_play():
    s = run(session(), {"type": "ante"}, {"type": "deal_face_down"})
    with pytest.raises(RuleError, match="shown at the showdown"):
        s.submit({"type": "reveal", "seat": 4, "card": "2H"})


# ---------------------------------------------------------------- O8 Bone Ace


def bone_ace_deal(faces: dict[int, str], first_dealer=1) -> Session:
    s = run(session({"bone_ace": True}, first_dealer=first_dealer), {"type": "ante"},
            {"type": "deal_face_down"})
    for seat in s.state.players:
        s.submit({"type": "deal", "seat": seat, "card": faces[seat]})
    return s


def test_bone_ace_equal_face_up_ranks_go_to_the_older_player():
    s = bone_ace_deal({1: "3C", 2: "KS", 3: "5D", 4: "KD"})
    # Bea (age 4) and Dora (age 3) show Kings: Dora, the older, plays first
    assert s.state.order == (4, 1, 2, 3)


def test_bone_ace_other_aces_are_lowest_and_the_dealer_plays_in_turn():
    s = bone_ace_deal({1: "AS", 2: "2S", 3: "AD", 4: "AC"})
    assert s.state.order == (2, 3, 4, 1)
    s = bone_ace_deal({1: "9C", 2: "2S", 3: "AD", 4: "8C"})  # the dealer's 9 plays first
    assert s.state.order == (1, 2, 3, 4)


def test_bone_ace_face_up_cards_cannot_be_dealt_face_down_in_bulk():
    s = run(session({"bone_ace": True}), {"type": "ante"}, {"type": "deal_face_down"})
    assert s.view().prompt == "Deal card 3 to Bea (face up)"
    with pytest.raises(RuleError, match="dealt face up"):
        s.submit({"type": "deal_face_down"})
    assert [a.type for a in s.legal_actions()] == ["deal"]


# ---------------------------------------------------------------- the table, the engine


def test_view_shows_pot_values_statuses_and_prompt():
    s = run(session(), {"type": "ante"}, {"type": "deal_face_down"},
            {"type": "have", "seat": 3, "card": "9H"}, {"type": "stick", "seat": 3})
    view = s.view()
    assert view.pot == 4 and view.dealer_seat == 1 and view.to_act == 4
    assert view.prompt == "Dora: stick or have it?"
    cy = view.seats[2]
    assert cy.cards == (None, None, None, "9H") and cy.hidden == (True, True, True, False)
    assert cy.value == "9 + ?" and cy.status == "stuck"
    assert view.seats[3].status == "to act" and view.seats[0].role == "dealer"
    assert "Play order: Cy, Dora, Bea, Ann" in view.info
    assert "9H" not in view.usable_cards


def test_legal_actions_ask_only_for_a_card_or_nothing():
    s = run(session(), {"type": "ante"})
    assert [a.type for a in s.legal_actions()] == ["deal", "deal", "deal_face_down"]
    s.submit({"type": "deal_face_down"})
    acts = s.legal_actions()
    assert [(a.type, a.seat, a.asks) for a in acts] == [
        ("stick", 3, None), ("have", 3, "card"), ("have", 3, None), ("reveal", 3, "card")]
    s.submit(acts[2].event())  # a card not shown
    assert s.state.hand(3).cards == (None,) * 4
    assert [a.type for a in s.legal_actions()] == ["stick", "have", "have", "reveal"]


def test_a_refused_event_leaves_the_session_as_it_was_and_void_undoes():
    s = run(session(), {"type": "ante"}, {"type": "deal_face_down"},
            {"type": "have", "seat": 3, "card": "KS"})
    before = s.state
    with pytest.raises(RuleError):
        s.submit({"type": "have", "seat": 3, "card": "KS"})
    assert s.state == before
    s.submit({"type": "void"})
    assert s.state.hand(3).cards == (None, None, None)


def test_money_is_conserved_through_hands():
    s = session({"stake": 2})
    for _ in range(3):
        run(s, {"type": "ante"}, {"type": "deal_face_down"})
        while s.view().phase == "play":
            s.submit({"type": "stick", "seat": s.view().to_act})
        usable = iter(s.view().usable_cards)
        while s.view().phase == "showdown" and s.legal_actions()[0].type == "reveal":
            s.submit(s.legal_actions()[0].event(card=next(usable)))
        s.submit({"type": "settle"})
        assert ot.money_total(s.state) == 80 and s.rounds[-1].total == 0
    assert [r.dealer for r in s.rounds] == [1, 2, 3]


@pytest.mark.parametrize("options", [
    {"bone_ace": True, "double_stake": True},
    {"winner_deals": True, "stake": 3},
])
def test_invariants_with_a_draw_for_the_deal_and_options(monkeypatch, options):
    demo = {**ot.DEMO, "options": options, "first_dealer": None}
    monkeypatch.setattr(ot, "DEMO", demo)
    machine = make_machine("one_and_thirty")
    machine.TestCase.settings = settings(
        max_examples=15, stateful_step_count=40, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    machine.TestCase().runTest()
