"""Greek 31 (rule text greek-31.txt, rulings G1-G11; docs/games/greek31.md).

A banking game: the dealer draws first, then each player in turn, anticlockwise from the
dealer's right. Seats are numbered clockwise, so "anticlockwise next" is the seat before.

Events (besides the engine's void and end_session):

- ``deal {seat, card}``: a card to a seat. In the opening, each player's face-up first card;
  then the dealer's draws (one dealer card may be entered as ``null`` and revealed later);
  then a hit for the player whose turn it is.
- ``bet {seat, amount}``: bets in turn order, within the limits and the dealer's cover (G8, G10).
- ``sit_out {seat}``: a player takes no part in this deal.
- ``stand {seat, hide?}``: the dealer stands (``hide``: the 0-based index, in the order dealt, of
  the dealer card that stays concealed; default the last), or a player.
- ``reveal {seat, card, index?}``: the dealer's concealed card, when it was entered as ``null``.
- ``settle``: the dealer confirms the settlement; the deal ends and the next dealer is named.
  It is needed after every deal, a dealer bust or 31 included (the money has moved already).
- ``buy_in {seat, amount}``: between deals, when buy-ins are allowed (G8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.cards import Card, CardError, Shoe
from dealer_assist.errors import RuleError
from dealer_assist.variants.base import (
    Action,
    RoundResult,
    SeatResult,
    SeatSpec,
    SeatView,
    TableView,
    add_at,
    check_fields,
    dispatch,
    event_card,
    event_int,
    event_seat,
    evolve,
    opt,
    replace_at,
)

NAME = "greek31"
TITLE = "Greek 31"
RULES_FILE = "greek-31.txt"
SEAT_FIELDS: tuple[str, ...] = ()
MIN_SEATS, MAX_SEATS = 2, 12


@dataclass(frozen=True)
class Options:
    min_bet: int = opt(1, "Smallest bet per deal (G8).", min=1)
    max_bet: int = opt(10, "Largest bet per deal (G8).", min=1)
    table_stakes: bool = opt(
        True, "Table stakes: broke players are out, and the bets together may not exceed what "
        "the dealer has, taken in turn order (G8, G10).")
    buy_ins: bool = opt(False, "Players may add money between deals; each buy-in is logged (G8).")
    decks: int = opt(1, "Decks: 1 or 2; two are recommended above 5 players (G9).", choices=(1, 2))
    heath: bool = opt(
        False, "Martin Heath's version: a two-card pair of Twos beats an ordinary 14, a dealer's "
        "pair of Twos is beaten only by 31, and Aces alternate 1 and 11 (G6).")
    shuffle: str = opt(
        "first_deal", "Shuffle only before the first deal, or each new dealer shuffles "
        "(G9; used by the simulator and training).", choices=("first_deal", "new_dealer"))

    def check(self) -> None:
        if self.max_bet < self.min_bet:
            raise RuleError(
                f"the maximum bet ({self.max_bet}) is below the minimum ({self.min_bet})")


# ---------------------------------------------------------------- hand values (G1, G2, G6)

RANK_31, RANK_TWOS, RANK_14, BUST = 100, 95, 90, -1


@dataclass(frozen=True, slots=True)
class HandValue:
    total: int
    rank: int  # compare ranks: higher is better; BUST is worthless
    label: str

    @property
    def bust(self) -> bool:
        return self.rank == BUST


def ace_totals(aces: int, heath: bool) -> set[int]:
    """What ``aces`` Aces can count together: G1 (at least one 11 with two or more) or G6."""
    if aces == 0:
        return {0}
    if heath:  # alternately 1 and 11 in count order, starting with either
        low_first = (aces + 1) // 2 * 1 + aces // 2 * 11
        high_first = (aces + 1) // 2 * 11 + aces // 2 * 1
        return {low_first, high_first}
    if aces == 1:
        return {1, 11}
    return {aces + 10 * elevens for elevens in range(1, aces + 1)}


def rank_of(total: int) -> int:
    """G2: 31 > 14 > 30 > 29 > ... > 15 > 13 > 12 ...; over 31 is bust."""
    if total > 31:
        return BUST
    if total == 31:
        return RANK_31
    if total == 14:
        return RANK_14
    return total


_VALUES: dict[tuple[tuple[Card, ...], bool], HandValue] = {}


def evaluate(cards: tuple[Card, ...], heath: bool = False) -> HandValue:
    """The value that ranks best among the hand's possible totals (remembered: hands repeat)."""
    key = (cards, heath)
    value = _VALUES.get(key)
    if value is None:
        if len(_VALUES) > 200_000:
            _VALUES.clear()
        value = _VALUES[key] = _evaluate(cards, heath)
    return value


def _evaluate(cards: tuple[Card, ...], heath: bool) -> HandValue:
    if len(cards) == 2 and cards[0].rank == "2" and cards[1].rank == "2":
        return HandValue(14, RANK_TWOS if heath else RANK_14, "pair of Twos (14)")
    aces = sum(1 for c in cards if c.rank == "A")
    base = sum(c.pips for c in cards if c.rank != "A")
    totals = sorted(base + a for a in ace_totals(aces, heath))
    best = max(totals, key=rank_of)
    if rank_of(best) == BUST:
        return HandValue(totals[0], BUST, f"bust ({totals[0]})")
    label = "31" if best == 31 else str(best)
    return HandValue(best, rank_of(best), label)


def beats(player: HandValue, dealer: HandValue) -> bool:
    """G3: the dealer pays only hands strictly better than the dealer's."""
    return player.rank > dealer.rank


# ---------------------------------------------------------------- state

OPENING, DEALER, PLAYERS, SETTLE, OVER = "opening", "dealer", "players", "settle", "over"
WAITING, BET, NO_BET, STOOD, BUSTED, PAID_31 = "waiting", "bet", "no bet", "stood", "bust", "31"
NO_COVER = "no cover"  # G8: the dealer's cover was used up before this player's turn to bet
NOT_COVERED = "the dealer cannot cover any more bets"


@dataclass(frozen=True, slots=True)
class Hand:
    cards: tuple[Card | None, ...] = ()
    bet: int = 0
    status: str = WAITING


@dataclass(frozen=True)  # no __slots__: evolve copies it in one dict merge (base.evolve)
class State:
    options: Options
    names: tuple[str, ...]
    money: tuple[int, ...]
    out: tuple[bool, ...]
    dealer: int
    streak: int  # deals dealt in a row by this dealer, this one included (G7)
    number: int
    phase: str
    order: tuple[int, ...]  # players of this deal, anticlockwise from the dealer's right
    hands: tuple[Hand, ...]
    shoe: Shoe
    change: tuple[int, ...]  # money won (+) or lost (-) per seat in this deal so far
    dealer_case: str = ""  # "", "bust", "31", "14", "hidden" (G4)
    hide: int | None = None  # index of the dealer's concealed card
    round_result: RoundResult | None = None
    finished: bool = False

    @property
    def seat_count(self) -> int:
        return len(self.names)

    @property
    def between_rounds(self) -> bool:
        return self.phase == OVER or (
            self.phase == OPENING and all(not h.cards and h.status == WAITING for h in self.hands)
        )

    def hand(self, seat: int) -> Hand:
        return self.hands[seat - 1]

    def dealer_value(self) -> HandValue | None:
        cards = self.hand(self.dealer).cards
        if None in cards:
            return None
        return evaluate(cards, self.options.heath)  # type: ignore[arg-type]


def anticlockwise(seat: int, count: int) -> int:
    return count if seat == 1 else seat - 1


def _player_order(dealer: int, out: tuple[bool, ...]) -> tuple[int, ...]:
    order, seat = [], anticlockwise(dealer, len(out))
    while seat != dealer:
        if not out[seat - 1]:
            order.append(seat)
        seat = anticlockwise(seat, len(out))
    return tuple(order)


def _new_deal(state: State, dealer: int, streak: int, number: int) -> State:
    count = state.seat_count
    return evolve(
        state, dealer=dealer, streak=streak, number=number, phase=OPENING,
        order=_player_order(dealer, state.out), hands=(Hand(),) * count,
        shoe=state.shoe.collect(), change=(0,) * count, dealer_case="", hide=None)


def start(options: Options, seats: tuple[SeatSpec, ...], first_dealer: int | None) -> State:
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise RuleError(f"Greek 31 needs {MIN_SEATS} to {MAX_SEATS} players, not {len(seats)}")
    dealer = 1 if first_dealer is None else first_dealer
    if not 1 <= dealer <= len(seats):
        raise RuleError(f"the first dealer must be a seat from 1 to {len(seats)}")
    out = tuple(options.table_stakes and s.money <= 0 for s in seats)
    if out[dealer - 1]:
        raise RuleError(f"{seats[dealer - 1].name} has no money and cannot deal")
    if sum(not o for o in out) < 2:
        raise RuleError("at least two players need money to play")
    state = State(
        options=options, names=tuple(s.name for s in seats), money=tuple(s.money for s in seats),
        out=out, dealer=dealer, streak=1, number=1, phase=OPENING, order=(), hands=(),
        shoe=Shoe(options.decks), change=(0,) * len(seats))
    return _new_deal(state, dealer, 1, 1)


# ---------------------------------------------------------------- the opening: cards and bets


def _next_bettor(state: State) -> int | None:
    for seat in state.order:
        if state.hands[seat - 1].status == WAITING:
            return seat
    return None


def bet_limits(state: State, seat: int) -> tuple[int, int]:
    """The smallest and largest bet ``seat`` may place now (G8, G10); (0, 0) if none."""
    opts = state.options
    high, low = opts.max_bet, opts.min_bet
    if opts.table_stakes:
        committed = sum(h.bet for h in state.hands)
        cover = state.money[state.dealer - 1] - committed
        high = min(high, state.money[seat - 1], cover)
        low = min(low, state.money[seat - 1], cover)  # G10: less than the minimum: bet it all
    return (max(low, 1), high) if high >= 1 else (0, 0)


def _close_bets_nobody_can_cover(state: State) -> State:
    """Players left waiting when the dealer's cover is used up cannot bet (G8)."""
    if not state.options.table_stakes:
        return state
    hands = state.hands
    for seat in state.order:
        if hands[seat - 1].status == WAITING and bet_limits(state, seat)[1] == 0:
            hands = replace_at(hands, seat - 1, evolve(hands[seat - 1], status=NO_COVER))
            state = evolve(state, hands=hands)
    return state


def _opening_done(state: State) -> bool:
    hands = state.hands
    return all(hands[s - 1].status in (NO_BET, NO_COVER)
               or (hands[s - 1].status == BET and hands[s - 1].cards) for s in state.order)


def _after_opening_step(state: State) -> State:
    if _opening_done(state):
        if not any(state.hands[s - 1].status == BET for s in state.order):
            return evolve(state, phase=SETTLE)  # nobody bet: nothing to play for
        return evolve(state, phase=DEALER)
    return state


def _bet(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "amount"))
    seat = event_seat(event, state.seat_count)
    amount = event_int(event, "amount", minimum=1)
    who = state.names[seat - 1]
    if seat == state.dealer:
        raise RuleError(f"{who} is the dealer and does not bet")
    if seat not in state.order:
        raise RuleError(f"{who} is out of the game (no money)")
    expected = _next_bettor(state)
    if state.hands[seat - 1].status == NO_COVER:
        raise RuleError(f"{who} cannot bet this deal: {NOT_COVERED} (G8)")
    if expected != seat:
        if state.hands[seat - 1].status != WAITING:
            raise RuleError(f"{who} has already bet or sat out this deal")
        raise RuleError(f"bets go in turn order: {state.names[expected - 1]} bets first")
    low, high = bet_limits(state, seat)
    if amount > high:
        reason = _limit_reason(state, seat, high)
        raise RuleError(f"{who}'s bet of {amount} is refused: {reason}")
    if amount < low:
        raise RuleError(f"{who}'s bet of {amount} is refused: the minimum bet is {low}")
    hands = replace_at(state.hands, seat - 1, evolve(state.hands[seat - 1], bet=amount, status=BET))
    return _after_opening_step(_close_bets_nobody_can_cover(evolve(state, hands=hands)))


def _limit_reason(state: State, seat: int, high: int) -> str:
    opts = state.options
    if opts.table_stakes:
        cover = state.money[state.dealer - 1] - sum(h.bet for h in state.hands)
        if high == cover and cover < min(opts.max_bet, state.money[seat - 1]):
            return f"the dealer can cover only {cover} more"
        if high == state.money[seat - 1] and high < opts.max_bet:
            return f"{state.names[seat - 1]} has only {high}"
    return f"the maximum bet is {opts.max_bet}"


def _sit_out(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat",))
    seat = event_seat(event, state.seat_count)
    if state.phase == OPENING and state.hands[seat - 1].status == NO_COVER:
        raise RuleError(f"{state.names[seat - 1]} is already left out of this deal: {NOT_COVERED}")
    if state.phase != OPENING or seat not in state.order or state.hands[seat - 1].status != WAITING:
        raise RuleError(f"{state.names[seat - 1]} cannot sit out now (only before betting)")
    hands = replace_at(state.hands, seat - 1, evolve(state.hands[seat - 1], status=NO_BET))
    return _after_opening_step(evolve(state, hands=hands))


# ---------------------------------------------------------------- cards


def _take(shoe: Shoe, card: Card) -> Shoe:
    """G9: the used cards go under the pack, so a card is counted within one deal only."""
    try:
        return shoe.deal(card)
    except CardError:
        copies = "once" if shoe.decks == 1 else f"{shoe.decks} times"
        raise CardError(f"{card.code} is already in play {copies} in this deal: with "
                        f"{shoe.decks} deck(s) a card can be dealt only {copies} per deal "
                        "(the count starts again when the cards are collected)") from None


def _add_card(state: State, seat: int, card: Card | None) -> State:
    shoe = state.shoe if card is None else _take(state.shoe, card)
    hand = state.hands[seat - 1]
    hands = replace_at(state.hands, seat - 1, Hand((*hand.cards, card), hand.bet, hand.status))
    return evolve(state, shoe=shoe, hands=hands)


def _pay(state: State, seat: int, amount: int) -> State:
    """Move ``amount`` from the dealer to ``seat`` (negative: from the seat to the dealer)."""
    d = state.dealer - 1
    money = add_at(add_at(state.money, seat - 1, amount), d, -amount)
    change = add_at(add_at(state.change, seat - 1, amount), d, -amount)
    return evolve(state, money=money, change=change)


def _deal(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "card"))
    seat = event_seat(event, state.seat_count)
    who = state.names[seat - 1]
    if state.phase == OPENING:
        card = event_card(event)
        if seat == state.dealer:
            raise RuleError("the dealer draws after every player has a first card and a bet")
        if seat not in state.order:
            raise RuleError(f"{who} is out of the game (no money)")
        hand = state.hands[seat - 1]
        if hand.cards:
            raise RuleError(f"{who} already has a first card; hits come after the dealer draws")
        if hand.status == NO_COVER:
            raise RuleError(f"{who} is not in this deal: {NOT_COVERED}")
        if hand.status == NO_BET:
            raise RuleError(f"{who} is not in this deal")
        return _after_opening_step(_add_card(state, seat, card))
    if state.phase == DEALER:
        if seat != state.dealer:
            raise RuleError(f"the dealer draws now; {who} waits for their turn")
        card = event_card(event, allow_hidden=True)
        if card is None and None in state.hands[seat - 1].cards:
            raise RuleError("only one dealer card may stay hidden until settlement")
        return _after_dealer_card(_add_card(state, seat, card))
    if state.phase == PLAYERS:
        current = _current_player(state)
        if seat != current:
            turn = state.names[current - 1] if current else "nobody"
            raise RuleError(f"it is {turn}'s turn, not {who}'s")
        return _after_player_card(_add_card(state, seat, event_card(event)), seat)
    raise RuleError("no more cards this deal: settle it")


def _after_dealer_card(state: State) -> State:
    known = tuple(c for c in state.hand(state.dealer).cards if c is not None)
    if evaluate(known, state.options.heath).bust:  # G4: dealer bust pays every bet, deal ends
        for seat in state.order:
            if state.hands[seat - 1].status == BET:
                state = _pay(state, seat, state.hands[seat - 1].bet)
        return evolve(state, phase=SETTLE, dealer_case="bust")
    return state


def _current_player(state: State) -> int | None:
    for seat in state.order:
        if state.hands[seat - 1].status == BET:
            return seat
    return None


def _set_status(state: State, seat: int, status: str) -> State:
    hands = replace_at(state.hands, seat - 1, evolve(state.hands[seat - 1], status=status))
    return evolve(state, hands=hands)


def _after_player_card(state: State, seat: int) -> State:
    value = evaluate(state.hands[seat - 1].cards, state.options.heath)  # type: ignore[arg-type]
    bet = state.hands[seat - 1].bet
    if value.bust:  # G5: a bust loses at once
        state = _set_status(_pay(state, seat, -bet), seat, BUSTED)
    elif value.total == 31 and value.rank == RANK_31:  # G5: exactly 31 is paid at once
        state = _set_status(_pay(state, seat, bet), seat, PAID_31)
    return _after_player_step(state)


def _after_player_step(state: State) -> State:
    return evolve(state, phase=SETTLE) if _current_player(state) is None else state


def _stand(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "hide"))
    seat = event_seat(event, state.seat_count)
    who = state.names[seat - 1]
    if state.phase == DEALER:
        if seat != state.dealer:
            raise RuleError(f"the dealer plays first; {who} waits")
        return _dealer_stands(state, event)
    if state.phase == PLAYERS:
        if seat != _current_player(state):
            raise RuleError(f"it is not {who}'s turn")
        if "hide" in event:
            raise RuleError("only the dealer hides a card")
        return _after_player_step(_set_status(state, seat, STOOD))
    raise RuleError(f"nobody stands now (the deal is in its {state.phase} phase)")


def _dealer_stands(state: State, event: dict[str, Any]) -> State:
    cards = state.hand(state.dealer).cards
    if not cards:
        raise RuleError("the dealer must draw at least one card before standing")
    hidden = [i for i, c in enumerate(cards) if c is None]
    hide = event.get("hide")
    if hide is not None and (isinstance(hide, bool) or not isinstance(hide, int)
                             or not 0 <= hide < len(cards)):
        raise RuleError(f"'hide' must be the index of a dealer card, 0 to {len(cards) - 1}")
    if hidden:
        if hide is not None and hide != hidden[0]:
            raise RuleError("the concealed card is the one not entered yet")
        return evolve(state, phase=PLAYERS, dealer_case="hidden", hide=hidden[0])
    value = evaluate(cards, state.options.heath)  # type: ignore[arg-type]
    if value.rank == RANK_31:  # G4: the dealer's 31 collects every bet, players do not draw
        for seat in state.order:
            if state.hands[seat - 1].status == BET:
                state = _pay(state, seat, -state.hands[seat - 1].bet)
                state = _set_status(state, seat, STOOD)
        return evolve(state, phase=SETTLE, dealer_case="31")
    if value.total == 14:  # G4: all dealer cards shown; only 31 beats it
        return evolve(state, phase=PLAYERS, dealer_case="14")
    return evolve(state, phase=PLAYERS, dealer_case="hidden",
                   hide=len(cards) - 1 if hide is None else hide)


def _reveal(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "card", "index"))
    seat = event_seat(event, state.seat_count)
    cards = state.hands[seat - 1].cards
    hidden = [i for i, c in enumerate(cards) if c is None]
    if seat != state.dealer or not hidden:
        raise RuleError(f"{state.names[seat - 1]} has no card waiting to be revealed")
    if state.phase != SETTLE:
        raise RuleError("the dealer's concealed card is revealed at settlement")
    index = event_int(event, "index") if "index" in event else hidden[0]
    if index not in hidden:
        raise RuleError(f"card {index} of the dealer's hand is not face down")
    card = event_card(event)
    shoe = _take(state.shoe, card)
    new_cards = replace_at(cards, index, card)
    if evaluate(new_cards, state.options.heath).bust:  # type: ignore[arg-type]
        raise RuleError(f"with {card.code} the dealer's hand is over 31, but the dealer stood: "
                        "check the card")
    hands = replace_at(state.hands, seat - 1, evolve(state.hands[seat - 1], cards=new_cards))
    return evolve(state, shoe=shoe, hands=hands)


# ---------------------------------------------------------------- settlement and rotation


def _settle(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ())
    if state.phase != SETTLE:
        raise RuleError(f"the deal is not over yet ({_prompt(state)})")
    dealer_value = state.dealer_value()
    if dealer_value is None and any(state.hands[s - 1].status == STOOD for s in state.order):
        raise RuleError("reveal the dealer's concealed card before settling")
    results = []
    for seat in state.order:
        hand = state.hands[seat - 1]
        outcome, detail = _settle_hand(state, seat, dealer_value)
        if hand.status == STOOD and state.dealer_case in ("hidden", "14"):
            state = _pay(state, seat, hand.bet if outcome == "won" else -hand.bet)
        results.append((seat, outcome, detail))
    seat_results = tuple(SeatResult(s, o, state.change[s - 1], d) for s, o, d in results)
    dealer_detail = dealer_value.label if dealer_value else "no play"
    if state.dealer_case == "bust":
        dealer_detail = "bust"
    dealer_change = state.change[state.dealer - 1]
    dealer_result = SeatResult(state.dealer, "dealer", dealer_change, dealer_detail)
    return _rotate(state, (*seat_results, dealer_result))


def _settle_hand(state: State, seat: int, dealer: HandValue | None) -> tuple[str, str]:
    hand = state.hands[seat - 1]
    if hand.status == NO_BET:
        return "no bet", "sat out"
    if hand.status == NO_COVER:
        return "no bet", NOT_COVERED
    value = evaluate(hand.cards, state.options.heath)  # type: ignore[arg-type]
    if state.dealer_case == "bust":
        return "won", "dealer bust"
    if hand.status == BUSTED:
        return "lost", value.label
    if hand.status == PAID_31:
        return "won", "31, paid at once"
    if state.dealer_case == "31":
        return "lost", "dealer 31"
    assert dealer is not None
    won = beats(value, dealer)
    return ("won" if won else "lost"), f"{value.label} vs {dealer.label}"


def _rotate(state: State, results: tuple[SeatResult, ...]) -> State:
    """G7 and G10: who deals next; under table stakes the broke are out; the game may end."""
    opts = state.options
    out = state.out
    if opts.table_stakes:
        out = tuple(o or m <= 0 for o, m in zip(out, state.money, strict=True))
    state = evolve(state, out=out)
    dealer, streak = state.dealer, state.streak
    notes = []
    if opts.table_stakes and out[dealer - 1]:
        notes.append(f"{state.names[dealer - 1]} has no money left and passes the deal")
        dealer, streak = _next_dealer(state), 1
    elif not opts.table_stakes and state.money[dealer - 1] <= 0:  # G11: G10's hand-over holds
        money = state.money[dealer - 1]
        owed = f"owes {-money}" if money < 0 else "has no money"
        notes.append(f"{state.names[dealer - 1]} {owed} after the deal and passes the deal (G11)")
        dealer, streak = _next_dealer(state), 1
    elif state.dealer_case == "bust" and streak >= 2:
        dealer, streak = _next_dealer(state), 1
    else:
        streak += 1
    finished = opts.table_stakes and sum(not o for o in out) <= 1
    next_dealer = None if finished else dealer
    result = RoundResult(state.number, state.dealer, results, state.money, next_dealer,
                         notes=tuple(notes))
    if finished:
        return evolve(state, phase=OVER, round_result=result, finished=True)
    return evolve(_new_deal(state, dealer, streak, state.number + 1), round_result=result)


def _next_dealer(state: State) -> int:
    seat = anticlockwise(state.dealer, state.seat_count)
    while state.out[seat - 1] and seat != state.dealer:
        seat = anticlockwise(seat, state.seat_count)
    return seat


def _buy_in(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "amount"))
    seat = event_seat(event, state.seat_count)
    amount = event_int(event, "amount", minimum=1)
    if not state.options.buy_ins:
        raise RuleError("buy-ins are not allowed in this session (option buy_ins)")
    if not state.between_rounds or state.finished:
        raise RuleError("buy-ins are taken between deals")
    out = replace_at(state.out, seat - 1, False)
    state = evolve(state, money=add_at(state.money, seat - 1, amount), out=out)
    return evolve(state, order=_player_order(state.dealer, out))


HANDLERS = {"deal": _deal, "bet": _bet, "sit_out": _sit_out, "stand": _stand,
            "reveal": _reveal, "settle": _settle, "buy_in": _buy_in}


def _game_over(state: State) -> str:
    return "the game is over: one player holds all the money"


def apply(state: State, event: dict[str, Any]) -> State:
    """The state after ``event``, or RuleError with the reason (the state is unchanged)."""
    return dispatch(TITLE, HANDLERS, state, event, _game_over)


# ---------------------------------------------------------------- what the table shows


def legal_actions(state: State) -> list[Action]:
    acts: list[Action] = []
    if state.finished:
        return acts
    if state.phase == OPENING:
        for seat in state.order:
            hand = state.hands[seat - 1]
            if not hand.cards and hand.status not in (NO_BET, NO_COVER):
                acts.append(Action("deal", f"First card for {state.names[seat - 1]}", seat,
                                   asks="card"))
        bettor = _next_bettor(state)
        if bettor is not None:
            low, high = bet_limits(state, bettor)
            acts.append(Action("bet", "Bet", bettor, asks="amount", minimum=low, maximum=high))
            acts.append(Action("sit_out", "Sit out", bettor))
        if state.options.buy_ins and state.between_rounds:
            acts.extend(Action("buy_in", f"Buy-in {n}", s, asks="amount", minimum=1)
                        for s, n in enumerate(state.names, start=1))
    elif state.phase == DEALER:
        acts.append(Action("deal", "Dealer draws", state.dealer, asks="card"))
        if state.hand(state.dealer).cards:
            acts.append(Action("stand", "Dealer stands", state.dealer))
    elif state.phase == PLAYERS:
        seat = _current_player(state)
        if seat is not None:
            acts.append(Action("deal", "Hit", seat, asks="card"))
            acts.append(Action("stand", "Stand", seat))
    elif state.phase == SETTLE:
        if None in state.hand(state.dealer).cards:
            acts.append(Action("reveal", "Reveal dealer's card", state.dealer, asks="card"))
        else:
            acts.append(Action("settle", "Settle the deal"))
    return acts


def _prompt(state: State) -> str:
    names = state.names
    if state.finished:
        winner = max(range(state.seat_count), key=lambda i: state.money[i])
        return f"Game over: {names[winner]} holds all the money"
    if state.phase == OPENING:
        missing = [names[s - 1] for s in state.order
                   if not state.hands[s - 1].cards
                   and state.hands[s - 1].status not in (NO_BET, NO_COVER)]
        bettor = _next_bettor(state)
        if bettor is not None:
            low, high = bet_limits(state, bettor)
            return f"{names[bettor - 1]}: bet {low}–{high}"
        return f"Deal a face-up card to {', '.join(missing)}"
    if state.phase == DEALER:
        return f"Dealer {names[state.dealer - 1]}: draw or stand"
    if state.phase == PLAYERS:
        seat = _current_player(state)
        return f"{names[seat - 1]}: hit or stand" if seat else ""
    if None in state.hand(state.dealer).cards:
        return "Reveal the dealer's concealed card"
    return "Confirm the settlement"


def _seat_value(state: State, seat: int) -> str:
    cards = state.hands[seat - 1].cards
    known = tuple(c for c in cards if c is not None)
    if not known:
        return ""
    if seat == state.dealer and state.phase == PLAYERS and state.dealer_case == "hidden":
        return "?"
    value = evaluate(known, state.options.heath)
    return value.label + (" + ?" if None in cards else "")


def view(state: State) -> TableView:
    seats = []
    current = _current_player(state) if state.phase == PLAYERS else None
    bettor = _next_bettor(state) if state.phase == OPENING else None
    for seat in range(1, state.seat_count + 1):
        hand = state.hands[seat - 1]
        is_dealer = seat == state.dealer
        hidden = tuple(
            is_dealer and (c is None or (state.phase in (DEALER, PLAYERS) and i == state.hide
                                         and state.dealer_case == "hidden"))
            for i, c in enumerate(hand.cards))
        if state.out[seat - 1]:
            status = "out"
        elif is_dealer:
            status = {"bust": "bust", "31": "31", "14": "stood on 14", "hidden": "stood"}.get(
                state.dealer_case, "to act" if state.phase == DEALER else "dealing")
        elif seat in (current, bettor):
            status = "to act"
        else:
            status = {WAITING: "waiting", BET: "waiting", NO_BET: "no bet", NO_COVER: "no cover",
                      STOOD: "stood",
                      BUSTED: "bust", PAID_31: "31 — paid"}[hand.status]
        seats.append(SeatView(
            seat=seat, name=state.names[seat - 1], money=state.money[seat - 1],
            cards=tuple(None if c is None else c.code for c in hand.cards), hidden=hidden,
            value=_seat_value(state, seat), status=status,
            wagers=(("bet", hand.bet),) if hand.bet else (), is_dealer=is_dealer,
            role="dealer" if is_dealer else ""))
    to_act = state.dealer if state.phase == DEALER else (current or bettor)
    info = (f"Deal {state.number}; {state.names[state.dealer - 1]} has dealt "
            f"{state.streak} in a row",)
    return TableView(
        title=TITLE, round_number=state.number, phase=state.phase, prompt=_prompt(state),
        seats=tuple(seats), dealer_seat=state.dealer, to_act=to_act, info=info,
        usable_cards=tuple(c.code for c in state.shoe.available()))


def money_total(state: State) -> int:
    """All the money at the table (conserved by every deal; buy-ins add to it)."""
    return sum(state.money)


DEMO = {
    "options": {"min_bet": 1, "max_bet": 10},
    "seats": [{"name": "Ann", "money": 60}, {"name": "Bea", "money": 40},
              {"name": "Cy", "money": 40}, {"name": "Dora", "money": 40}],
    "first_dealer": 1,
}
