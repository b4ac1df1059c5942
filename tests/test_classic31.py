"""31 Classic: the manual's worked examples, every category of every pay table, folds with live
bonuses, both irregularities, limits and refusals (31-classic-washington.txt, rulings C1-C10)."""

from __future__ import annotations

import pytest

from dealer_assist.cards import parse_cards
from dealer_assist.errors import RuleError
from dealer_assist.session.engine import Session
from dealer_assist.variants import classic31 as game
from dealer_assist.variants.classic31_tables import (
    natural_category,
    play_category,
    royal_category,
)

SEATS = [{"name": "Ann", "money": 500, "position": 1},
         {"name": "Bea", "money": 500, "position": 3},
         {"name": "Cy", "money": 500, "position": 6}]


def session(options=None, seats=None) -> Session:
    return Session.new("31-classic", options, seats or SEATS)


def submit_all(s: Session, *events: dict) -> None:
    for event in events:
        s.submit(event)


def one_hand(cards: str, *, ante=10, natural=0, royal=0, decision="play", options=None,
             handled=False) -> tuple[str, int, str]:
    """Ann alone: wagers, deal, decision, her cards, settle; (outcome, amount, detail)."""
    s = session(options, seats=[{"name": "Ann", "money": 1000, "position": 2}])
    s.submit({"type": "ante", "seat": 1, "amount": ante})
    if natural:
        s.submit({"type": "natural", "seat": 1, "amount": natural})
    if royal:
        s.submit({"type": "royal", "seat": 1, "amount": royal})
    s.submit({"type": "deal_hands"})
    if handled:
        s.submit({"type": "handled_draw", "seat": 1})
    else:
        s.submit({"type": decision, "seat": 1})
    for card in parse_cards(cards):
        s.submit({"type": "deal", "seat": 1, "card": card.code})
    s.submit({"type": "settle"})
    result = s.rounds[-1].results[0]
    assert s.rounds[-1].total == 0
    return result.outcome, result.amount, result.detail


# ---------------------------------------------------------------- the manual's worked examples


def test_example_1_ace_ten_eight_of_spades_then_five_of_hearts():
    """Natural 29 pays 15-1; the best three stay 29: Play 4-1, Ante 1-1; Royal Family loses."""
    outcome, amount, detail = one_hand("AS 10S 8S 5H", ante=10, natural=5, royal=5)
    assert detail == ("AS 10S 8S + 5H | Natural 5: 29 (29-30), 15-1 +75; "
                      "Ante 10: 29 (27-30), 1-1 +10; Play 10: 29 (27-30), 4-1 +40; "
                      "Royal Family 5: no win, lost -5")
    assert (outcome, amount) == ("won", 75 + 10 + 40 - 5)


def test_example_2_ten_eight_of_spades_five_of_hearts_then_ace_of_spades():
    """Natural 18 pays 1-1; the Draw card makes 29: Play 4-1, Ante 1-1; Royal Family loses."""
    _, amount, detail = one_hand("10S 8S 5H AS", ante=10, natural=5, royal=5)
    assert "Natural 5: 18 (16-20), 1-1 +5" in detail
    assert "Ante 10: 29 (27-30), 1-1 +10; Play 10: 29 (27-30), 4-1 +40" in detail
    assert "Royal Family 5: no win, lost -5" in detail
    assert amount == 5 + 10 + 40 - 5


def test_example_3_tens_of_spades_and_hearts_five_of_hearts_then_ace_of_spades():
    """Natural 15 loses (16 needed); the Draw card makes 21: Play 1-1, Ante 1-1."""
    _, amount, detail = one_hand("10S 10H 5H AS", ante=10, natural=5, royal=5)
    assert "Natural 5: 15 (under 16), lost -5" in detail
    assert "Ante 10: 21 (18-21), 1-1 +10; Play 10: 21 (18-21), 1-1 +10" in detail
    assert amount == -5 + 10 + 10 - 5


# ---------------------------------------------------------------- C1-C5: categories

NATURAL_HANDS = {  # C4, first three cards
    "mini_royal": "AH KH QH", "31": "AH KH JH", "trips": "7S 7H 7D", "29-30": "AS 10S 9S",
    "26-28": "KS QS 8S", "21-25": "10S 8S 5S", "16-20": "8S 5S 3S", "under_16": "10S 10H 5H",
}
PLAY_HANDS = {  # C2, best three of four
    "mini_royal": "AS KS QS JS", "31": "AS KS JS 2H", "trips": "9S 9H 9D KS",
    "27-30": "10S 9S 8S 7S", "22-26": "10S 8S 5S 2H", "18-21": "10S 10H 5H AS",
    "17": "10S 7S 2H 3D", "under_17": "10S 5S 2H 3D",
}
ROYAL_HANDS = {  # C5, all four cards
    "royal_family": "AS KS QS JS", "41": "AS KS QS 10S", "quads": "7S 7H 7D 7C",
    "40": "KS QS JS 10S", "32-39": "AS 9S 8S 5S", "flush": "2S 3S 4S 5S",
    "rainbow": "AS 10H 8D 5C", "none": "AS 10S 8S 5H",
}


@pytest.mark.parametrize(("category", "cards"), NATURAL_HANDS.items())
def test_natural_categories(category, cards):
    assert natural_category(parse_cards(cards)) == category


@pytest.mark.parametrize(("category", "cards"), PLAY_HANDS.items())
def test_play_categories(category, cards):
    assert play_category(parse_cards(cards)) == category


@pytest.mark.parametrize(("category", "cards"), ROYAL_HANDS.items())
def test_royal_categories(category, cards):
    assert royal_category(parse_cards(cards)) == category


def test_categories_pick_the_highest_paying_one():
    assert natural_category(parse_cards("AD KD QD")) == "mini_royal"  # also a 31
    assert play_category(parse_cards("AD KD QD 10D")) == "mini_royal"  # 31 two ways
    assert play_category(parse_cards("KS KH KD AS")) == "trips"  # trips beats 21
    assert play_category(parse_cards("10S 9S 8S 2S")) == "27-30"  # best three of a flush
    assert royal_category(parse_cards("AS AH AD AC")) == "quads"  # not just a rainbow
    assert royal_category(parse_cards("AH KH QH JH")) == "royal_family"  # not 41
    assert royal_category(parse_cards("AH 9H KH QH")) == "40"  # four of one suit total 40


# every category of every pay table (PAY TABLE OPTIONS), with a stake of 5 on each wager
PLAY_ODDS = {1: (10, 20), 2: (11, 25), 3: (10, 25), 4: (9, 20), 5: (9, 15)}  # 31, Mini-Royal
NATURAL_ODDS = {1: {"29-30": 15, "trips": 25}, 2: {"29-30": 15, "trips": 30},
                3: {"29-30": 12, "trips": 25}}
ROYAL_ODDS = {1: {"flush": 15, "32-39": 30, "40": 200}, 2: {"flush": 12, "32-39": 40, "40": 300},
              3: {"flush": 12, "32-39": 30, "40": 200}}


def play_amount(table: int, category: str) -> int:
    """Ante 5 + Play 5, hand-read from the table: 17 pushes, under 17 both lose."""
    p31, mini = PLAY_ODDS[table]
    odds = {"mini_royal": mini, "31": p31, "trips": 5, "27-30": 4, "22-26": 2, "18-21": 1}
    if category == "17":
        return 0
    if category == "under_17":
        return -10
    return 5 + 5 * odds[category]


@pytest.mark.parametrize("table", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("category", list(PLAY_HANDS))
def test_every_play_table_pays_each_category(table, category):
    _, amount, _ = one_hand(PLAY_HANDS[category], ante=5, options={"play_table": table})
    assert amount == play_amount(table, category)


@pytest.mark.parametrize("table", [1, 2, 3])
@pytest.mark.parametrize("category", list(NATURAL_HANDS))
def test_every_natural_table_pays_each_category(table, category):
    odds = {"mini_royal": 100, "31": 50, "26-28": 10, "21-25": 4, "16-20": 1,
            **NATURAL_ODDS[table]}
    expected = 5 * odds[category] if category in odds else -5
    lines = game.settle_spot(game.Spot(ante=5, natural=5, status=game.FOLDED,
                                       cards=parse_cards(NATURAL_HANDS[category])),
                             game.Options(natural_table=table))
    assert lines[0].wager == "Natural" and lines[0].amount == expected


@pytest.mark.parametrize("table", [1, 2, 3])
@pytest.mark.parametrize("category", list(ROYAL_HANDS))
def test_every_royal_table_pays_each_category(table, category):
    odds = {"royal_family": 1000, "41": 500, "quads": 400, "rainbow": 4, **ROYAL_ODDS[table]}
    expected = 5 * odds[category] if category in odds else -5
    lines = game.settle_spot(game.Spot(ante=5, royal=5, status=game.FOLDED,
                                       cards=parse_cards(ROYAL_HANDS[category])),
                             game.Options(royal_table=table))
    assert lines[-1].wager == "Royal Family" and lines[-1].amount == expected


def test_ante_pushes_on_17_and_pays_even_money_on_trips():
    _, amount, detail = one_hand("10S 7S 2H 3D", ante=10)
    assert amount == 0 and "Ante 10: 17, push +0; Play 10: 17, push +0" in detail
    _, amount, detail = one_hand("9S 9H 9D KS", ante=10)
    assert "Ante 10: Trips, 1-1 +10; Play 10: Trips, 5-1 +50" in detail and amount == 60


def test_under_17_loses_ante_and_play():
    outcome, amount, _ = one_hand("10S 5S 2H 3D", ante=10)
    assert (outcome, amount) == ("lost", -20)


# ---------------------------------------------------------------- C7: folds with live bonuses


def test_fold_a_natural_16_and_collect_the_bonus():
    """Irregularities C.1: 8♠ 5♠ 3♠ folded: the Ante is lost, the Natural pays 1-1."""
    outcome, amount, detail = one_hand("8S 5S 3S", ante=10, natural=10, decision="fold")
    assert (outcome, amount) == ("folded", 0)
    assert detail == "8S 5S 3S | Natural 10: 16 (16-20), 1-1 +10; Ante 10: folded, lost -10"


def test_fold_with_a_royal_family_bonus_settles_it_on_all_four_cards():
    """Irregularities C.2: the folded hand is tucked under the bonus; the Draw card counts."""
    outcome, amount, detail = one_hand("2S 3H 4D 5C", ante=10, royal=5, decision="fold")
    assert (outcome, amount) == ("folded", -10 + 20)
    assert detail.endswith("Ante 10: folded, lost -10; Royal Family 5: Rainbow, 4-1 +20")


def test_fold_with_both_bonuses():
    _, amount, detail = one_hand("AS 10S 9S 2S", ante=10, natural=5, royal=5, decision="fold")
    # natural 30 pays 15-1; four spades total 32 pays 30-1 (table #1)
    assert "Natural 5: 30 (29-30), 15-1 +75" in detail
    assert "Royal Family 5: 32 (32-39), 30-1 +150" in detail
    assert amount == 75 - 10 + 150


def test_fold_without_bonus_needs_no_cards():
    s = session()
    submit_all(s, {"type": "ante", "seat": 1, "amount": 10}, {"type": "deal_hands"},
               {"type": "fold", "seat": 1})
    with pytest.raises(RuleError, match="no bonus wager: the cards are not needed"):
        s.submit({"type": "deal", "seat": 1, "card": "AS"})
    s.submit({"type": "settle"})
    assert [(r.seat, r.outcome, r.amount) for r in s.rounds[0].results] == [
        (3, "sat out", 0), (2, "sat out", 0), (1, "folded", -10)]
    assert s.rounds[0].house == 10


def test_folded_natural_needs_only_three_cards():
    s = session()
    submit_all(s, {"type": "ante", "seat": 1, "amount": 10},
               {"type": "natural", "seat": 1, "amount": 5}, {"type": "deal_hands"},
               {"type": "fold", "seat": 1})
    with pytest.raises(RuleError, match="enter the exposed cards first: Ann needs 3 card"):
        s.submit({"type": "settle"})
    for card in ("8S", "5S", "3S"):
        s.submit({"type": "deal", "seat": 1, "card": card})
    with pytest.raises(RuleError, match="needs only the three cards"):
        s.submit({"type": "deal", "seat": 1, "card": "AD"})


# ---------------------------------------------------------------- C9: irregularities


def test_handled_draw_before_deciding_forfeits_hand_and_wagers():
    outcome, amount, detail = one_hand("", ante=10, natural=5, royal=5, handled=True)
    assert (outcome, amount) == ("forfeited", -20)
    assert detail == ("Natural 5: Draw card handled, forfeited -5; Ante 10: Draw card handled, "
                      "forfeited -10; Royal Family 5: Draw card handled, forfeited -5")


def test_handled_draw_after_play_returns_the_play_wager():
    s = session()
    submit_all(s, {"type": "ante", "seat": 2, "amount": 10},
               {"type": "royal", "seat": 2, "amount": 5}, {"type": "deal_hands"},
               {"type": "play", "seat": 2}, {"type": "handled_draw", "seat": 2},
               {"type": "settle"})
    result = s.rounds[0].results[1]
    assert (result.seat, result.outcome, result.amount) == (2, "forfeited", -15)
    assert "Play 10: Draw card handled, returned +0" in result.detail
    assert s.state.money[1] == 485


def test_handled_draw_after_folding_with_a_bonus_forfeits_the_bonus():
    s = session()
    submit_all(s, {"type": "ante", "seat": 1, "amount": 10},
               {"type": "natural", "seat": 1, "amount": 5}, {"type": "deal_hands"},
               {"type": "fold", "seat": 1}, {"type": "handled_draw", "seat": 1},
               {"type": "settle"})
    assert s.rounds[0].results[-1].amount == -15


def test_handled_draw_after_folding_without_bonus_is_refused():
    s = session()
    submit_all(s, {"type": "ante", "seat": 1, "amount": 10}, {"type": "deal_hands"},
               {"type": "fold", "seat": 1})
    with pytest.raises(RuleError, match="nothing is left to forfeit"):
        s.submit({"type": "handled_draw", "seat": 1})


def test_misdeal_returns_every_wager_and_ends_the_round():
    s = session()
    submit_all(s, {"type": "ante", "seat": 1, "amount": 10},
               {"type": "natural", "seat": 1, "amount": 5},
               {"type": "ante", "seat": 3, "amount": 20}, {"type": "deal_hands"},
               {"type": "deal", "seat": 1, "card": "AS"},
               {"type": "misdeal", "reason": "card exposed in the deal"})
    result = s.rounds[0]
    assert [(r.seat, r.outcome, r.amount) for r in result.results] == [
        (3, "misdeal", 0), (2, "sat out", 0), (1, "misdeal", 0)]
    assert result.house == 0 and "card exposed in the deal" in result.notes[0]
    assert s.state.money == (500, 500, 500) and s.state.phase == game.BETTING
    assert s.state.number == 2 and s.state.shoe.dealt == 0


@pytest.mark.parametrize("decision", ["play", "fold", "handled_draw"])
def test_misdeal_is_refused_once_anyone_has_decided(decision):
    """C11: a misdeal is called during the initial deal, not after a play or a fold."""
    s = session()
    submit_all(s, {"type": "ante", "seat": 1, "amount": 10},
               {"type": "ante", "seat": 3, "amount": 20}, {"type": "deal_hands"},
               {"type": decision, "seat": 3})
    before = s.state
    with pytest.raises(RuleError, match=r"too late \(C11\)"):
        s.submit({"type": "misdeal"})
    assert s.state == before


def test_misdeal_before_the_deal_is_refused():
    s = session()
    s.submit({"type": "ante", "seat": 1, "amount": 10})
    with pytest.raises(RuleError, match="no hands are dealt yet"):
        s.submit({"type": "misdeal"})


# ---------------------------------------------------------------- C6-C8, C10: the round


def test_settlement_goes_from_position_6_to_1_and_the_house_balances():
    seats = [{"name": "Dora", "money": 100, "position": 4},
             {"name": "Ed", "money": 100, "position": 2},
             {"name": "Flo", "money": 100, "position": 5}]
    s = session(seats=seats)
    submit_all(s, *[{"type": "ante", "seat": n, "amount": 10} for n in (1, 2, 3)],
               {"type": "deal_hands"}, *[{"type": "play", "seat": n} for n in (1, 2, 3)])
    for seat, cards in ((1, "10S 8S 5H AS"), (2, "10D 7D 2H 3C"), (3, "KH QH 2C 4D")):
        for card in cards.split():
            s.submit({"type": "deal", "seat": seat, "card": card})
    s.submit({"type": "settle"})
    result = s.rounds[0]
    # Flo (5): K-Q of hearts = 20, 1-1 twice; Dora (4): 29, +10 +40; Ed (2): 17 pushes
    assert [(r.seat, r.amount) for r in result.results] == [(3, 20), (1, 50), (2, 0)]
    assert result.house == -70 and result.total == 0
    assert result.notes == ("house: -70 this round, -70 this session",)
    assert game.money_total(s.state) == 300


def test_house_result_accumulates_over_the_session():
    s = session()
    for _ in range(2):
        submit_all(s, {"type": "ante", "seat": 2, "amount": 10}, {"type": "deal_hands"},
                   {"type": "fold", "seat": 2}, {"type": "settle"})
    assert [r.house for r in s.rounds] == [10, 10]
    assert s.rounds[1].notes == ("house: +10 this round, +20 this session",)
    assert s.state.house == 20 and game.money_total(s.state) == 1500


def test_play_equals_ante_and_needs_the_money():
    s = session(seats=[{"name": "Ann", "money": 25, "position": 1}])
    submit_all(s, {"type": "ante", "seat": 1, "amount": 15}, {"type": "deal_hands"})
    actions = {a.type for a in s.legal_actions()}
    assert "play" not in actions and "fold" in actions
    with pytest.raises(RuleError, match="must equal the Ante"):
        s.submit({"type": "play", "seat": 1})
    with pytest.raises(RuleError, match="does not take field"):
        s.submit({"type": "play", "seat": 1, "amount": 10})


def test_wager_limits_are_options():
    s = session({"ante_min": 5, "ante_max": 50, "natural_max": 10})
    with pytest.raises(RuleError, match="limits are 5 to 50"):
        s.submit({"type": "ante", "seat": 1, "amount": 60})
    s.submit({"type": "ante", "seat": 1, "amount": 50})
    with pytest.raises(RuleError, match="Natural 31 Bonus of 11 is refused: the table limits"):
        s.submit({"type": "natural", "seat": 1, "amount": 11})
    action = next(a for a in s.legal_actions() if a.type == "natural")
    assert (action.asks, action.minimum, action.maximum) == ("amount", 1, 10)


def test_the_ante_is_required_before_a_bonus():
    s = session()
    with pytest.raises(RuleError, match="must place the Ante first"):
        s.submit({"type": "royal", "seat": 1, "amount": 5})
    with pytest.raises(RuleError, match="nobody has placed an Ante"):
        s.submit({"type": "deal_hands"})


def test_the_draw_card_waits_for_every_decision():
    s = session()
    submit_all(s, {"type": "ante", "seat": 1, "amount": 10},
               {"type": "ante", "seat": 2, "amount": 10}, {"type": "deal_hands"},
               {"type": "play", "seat": 1}, *[{"type": "deal", "seat": 1, "card": c}
                                              for c in ("AS", "KS", "2D")])
    with pytest.raises(RuleError, match="Draw card is exposed at settlement"):
        s.submit({"type": "deal", "seat": 1, "card": "QS"})
    with pytest.raises(RuleError, match=r"waiting for every decision .*: Bea"):
        s.submit({"type": "settle"})
    s.submit({"type": "fold", "seat": 2})
    assert s.state.phase == game.SETTLEMENT
    s.submit({"type": "deal", "seat": 1, "card": "QS"})
    s.submit({"type": "settle"})
    assert s.rounds[0].results[-1].amount == 10 + 200  # Mini-Royal: Play 20-1


def test_a_refused_card_changes_nothing():
    s = session()
    submit_all(s, {"type": "ante", "seat": 1, "amount": 10}, {"type": "deal_hands"},
               {"type": "deal", "seat": 1, "card": "AS"})
    before = s.state
    with pytest.raises(RuleError, match="already in play"):
        s.submit({"type": "deal", "seat": 1, "card": "as"})
    with pytest.raises(RuleError, match="no Ante and no hand"):
        s.submit({"type": "deal", "seat": 2, "card": "KS"})
    assert s.state == before


def test_positions_are_1_to_6_and_at_most_six_players():
    with pytest.raises(RuleError, match="positions 1 to 6, not 7"):
        session(seats=[{"name": "Ann", "money": 5, "position": 7}])
    with pytest.raises(RuleError, match="share a table position"):
        session(seats=[{"name": "A", "money": 5, "position": 1},
                       {"name": "B", "money": 5, "position": 1}])
    seven = [{"name": f"P{i}", "money": 5, "position": i} for i in range(1, 8)]
    with pytest.raises(RuleError, match="1 to 6 players"):
        session(seats=seven)


def test_pay_table_options_are_the_manuals():
    with pytest.raises(RuleError, match="play_table: 6 is not one of 1, 2, 3, 4, 5"):
        session({"play_table": 6})
    with pytest.raises(RuleError, match="royal_table: 4 is not one of 1, 2, 3"):
        session({"royal_table": 4})
    with pytest.raises(RuleError, match=r"largest Ante .* is below the smallest"):
        session({"ante_min": 10, "ante_max": 5})


def test_legal_actions_ask_only_for_a_card_or_an_amount():
    s = session()
    s.submit({"type": "ante", "seat": 2, "amount": 10})
    s.submit({"type": "deal_hands"})
    kinds = {(a.type, a.asks) for a in s.legal_actions()}
    assert kinds == {("play", None), ("fold", None), ("deal", "card"),
                     ("handled_draw", None), ("misdeal", None)}
    view = s.view()
    assert [sv.extra for sv in view.seats] == ["position 1", "position 3", "position 6"]
    assert view.seats[1].cards == (None,) * 4 and view.seats[1].status == "to decide"


def test_game_over_when_nobody_can_ante_and_buy_ins_are_off():
    s = session({"ante_min": 10, "buy_ins": False},
                seats=[{"name": "Ann", "money": 10, "position": 1}])
    submit_all(s, {"type": "ante", "seat": 1, "amount": 10}, {"type": "deal_hands"},
               {"type": "fold", "seat": 1}, {"type": "settle"})
    assert s.state.finished and s.legal_actions() == []
    assert s.rounds[0].notes[-1] == "game over: nobody has the minimum Ante (10)"
    with pytest.raises(RuleError, match="the game is over"):
        s.submit({"type": "ante", "seat": 1, "amount": 10})
    with pytest.raises(RuleError, match="nobody has the minimum Ante"):
        session({"ante_min": 10, "buy_ins": False},
                seats=[{"name": "Ann", "money": 9, "position": 1}])


def test_buy_ins_between_rounds_only():
    s = session(seats=[{"name": "Ann", "money": 0, "position": 1}])
    assert [a.type for a in s.legal_actions()] == ["buy_in"]
    s.submit({"type": "buy_in", "seat": 1, "amount": 50})
    s.submit({"type": "ante", "seat": 1, "amount": 10})
    with pytest.raises(RuleError, match="between rounds"):
        s.submit({"type": "buy_in", "seat": 1, "amount": 50})
    assert s.state.money == (50,) and game.money_total(s.state) == 50
    with pytest.raises(RuleError, match="not allowed"):
        session({"buy_ins": False}).submit({"type": "buy_in", "seat": 1, "amount": 5})
