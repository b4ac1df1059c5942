"""Card codes and the shoe (RULINGS.md, "Everywhere")."""

import pytest

from dealer_assist.cards import Card, CardError, Shoe, parse_card, parse_cards
from dealer_assist.errors import RuleError


@pytest.mark.parametrize(("text", "code"), [
    ("AS", "AS"), ("10h", "10H"), ("Td", "10D"), ("q♣", "QC"), ("  kh ", "KH"), ("A♠", "AS"),
    ("2♥", "2H"), ("j♦", "JD"), ("tS", "10S"), ("a♡", "AH"), ("3♤", "3S"), ("10♢", "10D"),
    ("K♧", "KC"),
])
def test_accepted_spellings_read_to_canonical_codes(text, code):
    assert parse_card(text).code == code


@pytest.mark.parametrize(("text", "reason"), [
    ("", "not a card code"), ("Q", "not a card code"), ("1X", "unknown suit"),
    ("11S", "not a rank"), ("ZS", "not a rank"), ("QX", "unknown suit"),
])
def test_bad_codes_are_refused_with_the_reason(text, reason):
    with pytest.raises(CardError, match=reason):
        parse_card(text)


@pytest.mark.parametrize("text", ["1H", "1h", "1♥", "1s", "0D", "01C"])
def test_one_and_zero_are_not_ranks(text):
    """RULINGS "Everywhere": ``1H`` is far more often a mistyped ``10H`` than an Ace."""
    with pytest.raises(CardError, match="is not a rank") as caught:
        parse_card(text)
    assert "10 or T" in str(caught.value) or text.startswith("01")


def test_parse_cards_takes_a_string_or_a_list():
    assert [c.code for c in parse_cards("qs, 10h Td")] == ["QS", "10H", "10D"]
    assert parse_cards(["AS"]) == (Card("A", "S"),)


def test_one_deck_shoe_refuses_a_second_copy_and_is_unchanged():
    shoe = Shoe(1).deal(parse_card("AS"))
    with pytest.raises(CardError, match="already in play once"):
        shoe.deal(parse_card("as"))
    assert shoe.count(parse_card("AS")) == 1
    assert shoe.remaining == 51


def test_n_deck_shoe_holds_each_card_n_times():
    shoe = Shoe(2).deal_all(parse_cards("AS AS"))
    assert not shoe.can_deal(parse_card("AS"))
    with pytest.raises(CardError, match="2-deck shoe holds it only 2 times"):
        shoe.deal(parse_card("AS"))
    assert shoe.collect().can_deal(parse_card("AS"))


def test_available_cards_leave_out_the_used_ones():
    shoe = Shoe(1).deal_all(parse_cards("AS KD"))
    available = {c.code for c in shoe.available()}
    assert len(available) == 50 and "AS" not in available and "KD" not in available


def test_shoe_size_is_checked():
    with pytest.raises(RuleError, match="1 to 8 decks"):
        Shoe(0)
