"""Greek 31: the rule text's examples and rulings G1, G2 and G6 on hand values."""

import pytest

from dealer_assist.cards import parse_cards
from dealer_assist.variants.greek31 import RANK_14, RANK_31, RANK_TWOS, beats, evaluate


def value(codes, heath=False):
    return evaluate(parse_cards(codes), heath)


@pytest.mark.parametrize(("codes", "total"), [
    ("AS KH 7D", 28),  # text: A-K-7 can count as 18 or 28
    ("AS AH 9D 3C", 24),  # text: A-A-9-3 must count as 24 and not as 14
    ("9S 8H 2D 2C", 21),  # text: 9-8-2-2 is worth 21, not 31
    ("2S 2H", 14),  # text: a two-card pair of Twos is worth 14
    ("AS AH AD AC", 14),  # G1: A-A-A-A = 14 or 24; 14 ranks higher
    ("KS QS AS", 31),
    ("KS QS JS 5D", 35),
])
def test_text_examples(codes, total):
    assert value(codes).total == total


@pytest.mark.parametrize("codes", ["AS 3D", "2S 2H", "3S AD", "4S 10D", "5S 9D", "6S 8D", "7S 7D"])
def test_every_first_card_can_make_14_with_the_second(codes):
    assert value(codes).rank == RANK_14


def test_ranking_31_then_14_then_30_down():
    order = ["KS QS AS", "AS 3D", "KS QS JH", "KS QS 9H", "KS 5S", "KS 3S", "KS 2S", "3S"]
    ranks = [value(c).rank for c in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)
    assert value("KS QS AS").rank == RANK_31


def test_bust_is_worthless():
    assert value("KS QS 5D 7H").bust


def test_ties_go_to_the_dealer():
    assert not beats(value("KS 9S"), value("QD 9D"))
    assert beats(value("KS JS"), value("QD 9D"))


def test_heath_aces_alternate_one_and_eleven():
    assert value("AS", heath=True).total == 11
    assert value("AS AH", heath=True).total == 12  # two Aces must be 12
    assert value("AS AH AD", heath=True).total == 23  # 13 or 23
    assert value("AS AH AD AC", heath=True).total == 24  # not 14
    assert value("AS AH 9D", heath=True).total == 21  # not 31: two Aces are 12


def test_heath_pair_of_twos_beats_ordinary_14_but_not_31():
    twos, fourteen = value("2S 2H", heath=True), value("5S 9S", heath=True)
    assert twos.rank == RANK_TWOS
    assert beats(twos, fourteen) and not beats(fourteen, twos)
    assert beats(value("KS QS AS", heath=True), twos)


def test_pair_of_twos_with_more_cards_counts_face_value_under_heath_too():
    assert value("2S 2H 9D", heath=True).total == 13


def test_heath_option_line_says_a_dealer_pair_of_twos_is_beaten_only_by_31():
    import dataclasses

    from dealer_assist.variants.greek31 import Options
    doc = next(f for f in dataclasses.fields(Options) if f.name == "heath").metadata["doc"]
    assert "beats an ordinary 14" in doc and "beaten only by 31" in doc


def test_a_card_counts_within_one_deal_only():
    """G9: the count starts again when the cards are collected, and the message says so."""
    from dealer_assist.errors import RuleError
    from dealer_assist.session.engine import Session
    session = Session.new("greek31", {"min_bet": 1, "max_bet": 10},
                          [{"name": "Ann", "money": 50}, {"name": "Bea", "money": 20}])
    deal = [{"type": "deal", "seat": 2, "card": "9D"}, {"type": "bet", "seat": 2, "amount": 2},
            {"type": "deal", "seat": 1, "card": "KC"}, {"type": "deal", "seat": 1, "card": "QC"},
            {"type": "stand", "seat": 1}]
    for event in deal:
        session.submit(event)
    with pytest.raises(RuleError, match=r"in this deal.*count starts again when the cards are "
                       r"collected") as caught:
        session.submit({"type": "deal", "seat": 2, "card": "KC"})
    assert "next shuffle" not in str(caught.value)
    session.submit({"type": "deal", "seat": 2, "card": "QD"})
    session.submit({"type": "stand", "seat": 2})
    session.submit({"type": "settle"})
    for event in deal:  # the same cards again in the next deal
        session.submit(event)
    assert session.view().seats[0].cards == ("KC", "QC")
