"""Trianta Ena (rule text trianta-ena.txt, rulings T1-T11; docs/games/trianta_ena.md).

A banking game against a rotating banker. Seats are numbered clockwise and keep their numbers
for the whole session: a seat is a person. The bank is a role (``State.banker``) that moves, and
``State.ring`` is the table order, the bank's chair first: turn order is ``ring[1:]``, clockwise
from the banker's left. When the bank changes hands the old and the new banker exchange places in
the ring ("the old banker takes the new banker's seat", T7), so the old banker plays in the new
banker's former turn.

A round, event by event (besides the engine's ``void`` and ``end_session``):

1. ``deal {seat, card}`` - the first pass, in any order: each player in the round one face-down
   card (``"card": null`` when it is not entered; a code when it is, e.g. read by the camera -
   the table view still shows it face down) and the banker one face-up card (a code).
2. ``bet {seat, amount}`` / ``fold {seat}`` - in turn order, once every first card is out.
   A bet is at least ``min_bet`` and at most the player's money and what the banker can still
   cover (T3, T6). Players left when the banker's cover is below the minimum cannot bet
   ("no cover").
3. ``deal {seat, card}`` - the second pass, in any order: two face-up cards to every betting
   player (codes) and the banker's second card face down (``null`` or a code).
4. Players in turn: ``deal {seat, card}`` is a hit, ``stand {seat}``; ``reveal {seat, card}``
   turns the player's face-down card over (how a player says "bust"). A hand that is over 31 -
   fully known, or certain whatever the face-down card is - is bust and pays the banker at once.
5. The banker: ``reveal {seat, card}`` of the face-down card when it was entered as ``null``,
   then ``deal {seat, card}`` while the banker's value is below 27; at 27 or more the banker's
   hand is done (T4). Skipped when no player is left standing.
6. ``reveal {seat, card}`` of every standing player's face-down card still unknown (a standing
   hand over 31 is a bust), then ``settle`` pays even money (T5).
7. The bank offer (T7, T10): ``bank_accept {seat}`` or ``bank_decline {seat}`` for each
   candidate in turn, richest first (equal money: nearer the banker's left first). The round's
   RoundResult is produced when the bank is decided - at ``settle`` when nobody is eligible;
   while the offer is open, ``pending_round`` gives the settled round with the offer pending.
8. Between rounds: ``cash_out {seat, amount?}`` (no amount: all the seat's money; not the banker).

Face-down cards: a player's first card and the banker's second. What must be entered: the
banker's before the banker draws; a standing player's before ``settle``. Optional: a bust,
folded or uncovered player's, and the banker's when the banker did not play (they only make the
shoe count exact: an unknown card is still counted as dealt).

The shoe (T8) is two decks dealt continuously: cards are not collected between rounds. Every
card dealt counts (entered ones by code, face-down ones not entered by number). The ``deal``
that takes the 104th card also reshuffles the discards automatically (no event); the cards on
the table stay out of the new shoe and stay counted. The round's notes record each reshuffle.

Every refusal leaves the state as it was and says why (out of turn, wrong phase, bet outside the
limits or the cover, a third copy of a card, a bank offer out of order...).

Bankroll (T6): with ``bank_multiple`` > 0 the session start is refused unless every player
brings the same money and the first banker exactly ``bank_multiple`` times that (the seats hold
the real money; the engine checks it, it does not invent it). ``bank_multiple`` 0 turns the check
off (uneven tables, a game continued from paper).

The session ends (``finished``) when a banker who cannot cover the table minimum finds nobody to
take the bank (T10), or when no player but the banker has money left.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from dealer_assist.cards import RANKS, Card, Shoe
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
    opt,
    replace_at,
)

NAME = "trianta_ena"
TITLE = "Trianta Ena"
RULES_FILE = "trianta-ena.txt"
SEAT_FIELDS: tuple[str, ...] = ()
MIN_SEATS, MAX_SEATS = 2, 10  # T9: up to 9 players besides the banker
DECKS = 2  # T8
SHOE_SIZE = 52 * DECKS
BANKER_STANDS = 27  # T4


@dataclass(frozen=True)
class Options:
    min_bet: int = opt(1, "Table minimum: the smallest bet (T3); a banker who cannot cover it "
                       "must give up the bank (T10).", min=1)
    bank_multiple: int = opt(
        3, "The first banker brings this many times a player's starting money (T6); the start "
        "is refused otherwise. 0: no check.", min=0, max=100)
    natural_tens: bool = opt(
        False, "Count 10s as face cards for the natural 31 (A-10-K is natural) (T2).")


# ---------------------------------------------------------------- hand values (T1, T2)


@dataclass(frozen=True, slots=True)
class HandValue:
    total: int  # the best total not over 31, or the smallest total when bust
    bust: bool
    natural: bool

    @property
    def rank(self) -> int:
        """Compare ranks: a natural beats any other 31 (T2); bust ranks below everything."""
        if self.bust:
            return -1
        return 32 if self.natural else self.total

    @property
    def label(self) -> str:
        if self.bust:
            return f"bust ({self.total})"
        return "natural 31" if self.natural else str(self.total)


def _totals(cards: tuple[Card, ...]) -> tuple[int, ...]:
    """T1: a lone Ace is 1 or 11; of several Aces at most one counts 1, the others 11."""
    aces = sum(1 for c in cards if c.rank == "A")
    base = sum(c.pips for c in cards if c.rank != "A")
    if aces == 0:
        return (base,)
    return (base + 1 + 11 * (aces - 1), base + 11 * aces)


def is_natural(cards: tuple[Card, ...], tens: bool = False) -> bool:
    """T2: exactly three cards, an Ace and two face cards (10s too with the option)."""
    if len(cards) != 3:
        return False
    faces = sum(1 for c in cards if c.is_face or (tens and c.rank == "10"))
    return faces == 2 and any(c.rank == "A" for c in cards)


def evaluate(cards: tuple[Card, ...], tens: bool = False) -> HandValue:
    """The best value not over 31 (T1), and whether the hand is a natural (T2)."""
    totals = _totals(cards)
    good = [t for t in totals if t <= 31]
    if not good:
        return HandValue(min(totals), True, False)
    best = max(good)
    return HandValue(best, False, best == 31 and is_natural(cards, tens))


_ONE_OF_EACH_RANK = tuple(Card(r, "S") for r in RANKS)


def certainly_bust(known: tuple[Card, ...], hidden: int) -> bool:
    """Over 31 whatever the ``hidden`` unknown cards are (at most one here: the first card)."""
    if hidden == 0:
        return evaluate(known).bust
    return all(certainly_bust((*known, c), hidden - 1) for c in _ONE_OF_EACH_RANK)


# ---------------------------------------------------------------- state

DEAL, BETS, CARDS, PLAY, BANKER, SETTLE, OFFER, OVER = (
    "deal", "bets", "cards", "play", "banker", "settle", "offer", "over")
WAITING, BET, FOLDED, NO_COVER, STOOD, BUSTED = (
    "waiting", "bet", "folded", "no cover", "stood", "bust")


@dataclass(frozen=True, slots=True)
class Hand:
    cards: tuple[Card | None, ...] = ()  # None: a face-down card not entered (yet)
    bet: int = 0
    status: str = WAITING
    shown: bool = False  # a player's face-down card was turned over
    outcome: str = ""  # after settlement: won, lost, ...


@dataclass(frozen=True, slots=True)
class State:
    options: Options
    names: tuple[str, ...]
    money: tuple[int, ...]
    banker: int
    ring: tuple[int, ...]  # table order, the bank's chair first; turn order is ring[1:]
    number: int
    phase: str
    order: tuple[int, ...]  # the players dealt into this round, in turn order
    hands: tuple[Hand, ...]
    shoe: Shoe  # known cards out of the shoe since the last reshuffle (T8)
    unknown: int = 0  # face-down cards dealt but not entered, since the last reshuffle
    reshuffles: int = 0
    change: tuple[int, ...] = ()  # money won (+) or lost (-) per seat this round
    offers: tuple[int, ...] = ()  # the bank's candidates, in asking order (T7, T10)
    declined: tuple[int, ...] = ()
    forced: bool = False  # T10: the banker must give up the bank
    notes: tuple[str, ...] = ()  # this round's notes (cash-outs, reshuffles, the bank)
    results: tuple[SeatResult, ...] = ()  # set by settle, completed by the bank decision
    round_result: RoundResult | None = None
    finished: bool = False
    end_reason: str = ""

    @property
    def seat_count(self) -> int:
        return len(self.names)

    @property
    def between_rounds(self) -> bool:
        return self.phase == OVER or (
            self.phase == DEAL and all(not h.cards for h in self.hands))

    @property
    def shoe_left(self) -> int:
        """Cards still in the shoe (T8); 0: the next card comes after a reshuffle."""
        return SHOE_SIZE - self.shoe.dealt - self.unknown

    def hand(self, seat: int) -> Hand:
        return self.hands[seat - 1]

    def name(self, seat: int) -> str:
        return self.names[seat - 1]

    def value(self, seat: int) -> HandValue | None:
        """The hand's value, or None while a card of it is not entered."""
        cards = self.hand(seat).cards
        if None in cards:
            return None
        return evaluate(cards, self.options.natural_tens)  # type: ignore[arg-type]


def _ring_from(banker: int, count: int) -> tuple[int, ...]:
    return tuple((banker - 1 + i) % count + 1 for i in range(count))


def _new_round(state: State, number: int) -> State:
    count = state.seat_count
    order = tuple(s for s in state.ring[1:] if state.money[s - 1] >= state.options.min_bet)
    return replace(
        state, number=number, phase=DEAL, order=order, hands=(Hand(),) * count,
        change=(0,) * count, offers=(), declined=(), forced=False, notes=(), results=())


def start(options: Options, seats: tuple[SeatSpec, ...], first_dealer: int | None) -> State:
    count = len(seats)
    if not MIN_SEATS <= count <= MAX_SEATS:
        raise RuleError(f"Trianta Ena needs a banker and 1 to {MAX_SEATS - 1} players "
                        f"({MIN_SEATS} to {MAX_SEATS} seats), not {count} seats")
    banker = 1 if first_dealer is None else first_dealer
    if isinstance(banker, bool) or not isinstance(banker, int) or not 1 <= banker <= count:
        raise RuleError(f"the first banker must be a seat from 1 to {count}")
    players = [s for i, s in enumerate(seats, start=1) if i != banker]
    bank = seats[banker - 1]
    if options.bank_multiple:
        stakes = {s.money for s in players}
        if len(stakes) > 1:
            raise RuleError(
                "every player begins with the same money (T6): "
                + ", ".join(f"{s.name} {s.money}" for s in players)
                + " differ (set bank_multiple to 0 for an uneven table)")
        stake = stakes.pop()
        if bank.money != options.bank_multiple * stake:
            raise RuleError(
                f"the banker {bank.name} must begin with {options.bank_multiple} × {stake} = "
                f"{options.bank_multiple * stake}, not {bank.money} (T6, option bank_multiple)")
    if bank.money < options.min_bet:
        raise RuleError(f"the banker {bank.name} cannot cover the table minimum "
                        f"({options.min_bet})")
    if not any(s.money >= options.min_bet for s in players):
        raise RuleError(f"no player has the table minimum ({options.min_bet}) to bet")
    state = State(
        options=options, names=tuple(s.name for s in seats), money=tuple(s.money for s in seats),
        banker=banker, ring=_ring_from(banker, count), number=1, phase=DEAL, order=(),
        hands=(), shoe=Shoe(DECKS))
    return _new_round(state, 1)


# ---------------------------------------------------------------- cards and the shoe (T8)


def _on_table(state: State) -> list[Card | None]:
    return [c for h in state.hands for c in h.cards]


def _reshuffled(state: State) -> State:
    """T8: the discards go back; the cards on the table stay out and stay counted."""
    table = _on_table(state)
    known = [c for c in table if c is not None]
    shoe = Shoe(DECKS).deal_all(known)
    unknown = len(table) - len(known)
    back = SHOE_SIZE - len(table)
    stay = "1 card stays" if len(table) == 1 else f"{len(table)} cards stay"
    note = f"the shoe ran out: {back} discards reshuffled ({stay} on the table)"
    return replace(state, shoe=shoe, unknown=unknown, reshuffles=state.reshuffles + 1,
                   notes=(*state.notes, note))


def _next_shoe(state: State) -> State:
    """The state the next card comes from: reshuffled first if the shoe is still empty (only
    when every card was on the table as the last one was dealt)."""
    if state.shoe_left > 0:
        return state
    state = _reshuffled(state)
    if state.shoe_left <= 0:
        raise RuleError("no card left to deal: every card of both decks is on the table")
    return state


def _add_card(state: State, seat: int, card: Card | None) -> State:
    state = _next_shoe(state)
    if card is None:
        state = replace(state, unknown=state.unknown + 1)
    else:
        state = replace(state, shoe=state.shoe.deal(card))
    hand = state.hand(seat)
    hands = replace_at(state.hands, seat - 1, replace(hand, cards=(*hand.cards, card)))
    state = replace(state, hands=hands)
    if state.shoe_left == 0 and len(_on_table(state)) < SHOE_SIZE:
        state = _reshuffled(state)  # the last card is out: the discards become the shoe
    return state


def _set_hand(state: State, seat: int, **changes: Any) -> State:
    return replace(state, hands=replace_at(state.hands, seat - 1,
                                           replace(state.hand(seat), **changes)))


def _pay(state: State, seat: int, amount: int) -> State:
    """Move ``amount`` from the banker to ``seat`` (negative: from the seat to the banker)."""
    b = state.banker - 1
    money = add_at(add_at(state.money, seat - 1, amount), b, -amount)
    change = add_at(add_at(state.change, seat - 1, amount), b, -amount)
    return replace(state, money=money, change=change)


def _check_bust(state: State, seat: int) -> State:
    """A live hand over 31 (known, or certain whatever its face-down card) pays at once (T3)."""
    hand = state.hand(seat)
    if hand.status not in (BET, STOOD):
        return state
    known = tuple(c for c in hand.cards if c is not None)
    if certainly_bust(known, len(hand.cards) - len(known)):
        state = _pay(state, seat, -hand.bet)
        state = _set_hand(state, seat, status=BUSTED)
    return state


# ---------------------------------------------------------------- phase flow


def _first_pass_done(state: State) -> bool:
    return bool(state.hand(state.banker).cards) and all(state.hand(s).cards for s in state.order)


def _next_bettor(state: State) -> int | None:
    if state.phase != BETS:
        return None
    for seat in state.order:
        if state.hand(seat).status == WAITING:
            return seat
    return None


def cover_left(state: State) -> int:
    """What the banker can still cover of new bets (T6)."""
    return state.money[state.banker - 1] - sum(state.hand(s).bet for s in state.order)


def bet_limits(state: State, seat: int) -> tuple[int, int]:
    """The smallest and largest bet ``seat`` may place now; (0, 0) if none (T3, T6)."""
    low = state.options.min_bet
    high = min(state.money[seat - 1], cover_left(state))
    return (low, high) if high >= low else (0, 0)


def _after_bets_step(state: State) -> State:
    """Close the bets nobody can cover (T6); when every player has decided, deal on."""
    for seat in state.order:
        if state.hand(seat).status == WAITING and bet_limits(state, seat) == (0, 0):
            state = _set_hand(state, seat, status=NO_COVER)
    if _next_bettor(state) is not None:
        return state
    if any(state.hand(s).status == BET for s in state.order):
        return replace(state, phase=CARDS)
    return replace(state, phase=SETTLE)  # nobody bet: nothing to play for


def _second_pass_done(state: State) -> bool:
    return len(state.hand(state.banker).cards) == 2 and all(
        len(state.hand(s).cards) == 3 for s in state.order if state.hand(s).status == BET)


def current_player(state: State) -> int | None:
    if state.phase != PLAY:
        return None
    for seat in state.order:
        if state.hand(seat).status == BET:
            return seat
    return None


def _after_play_step(state: State) -> State:
    if current_player(state) is not None:
        return state
    if any(state.hand(s).status == STOOD for s in state.order):
        return _after_banker_step(replace(state, phase=BANKER))
    return replace(state, phase=SETTLE)  # every bet is bust: the banker need not play


def _after_banker_step(state: State) -> State:
    value = state.value(state.banker)
    if value is not None and (value.bust or value.total >= BANKER_STANDS):
        return replace(state, phase=SETTLE)
    return state


# ---------------------------------------------------------------- events


def _deal(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "card"))
    seat = event_seat(event, state.seat_count)
    if "card" not in event:
        raise RuleError("'deal' needs 'card': a code like 'QS', or null for a face-down card "
                        "not entered")
    who, hand, banker = state.name(seat), state.hand(seat), seat == state.banker
    if state.phase == DEAL:
        if not state.order:
            raise RuleError(_prompt(state))
        if banker:
            if hand.cards:
                raise RuleError(f"the banker {who} already has the face-up card")
            card = event_card(event)  # face up: it must be entered
        else:
            if seat not in state.order:
                raise RuleError(_not_in_round(state, seat))
            if hand.cards:
                raise RuleError(f"{who} already has the face-down card; the other cards come "
                                "after the bets")
            card = event_card(event, allow_hidden=True)
        state = _add_card(state, seat, card)
        return _after_bets_step(replace(state, phase=BETS)) if _first_pass_done(state) else state
    if state.phase == CARDS:
        if banker:
            if len(hand.cards) >= 2:
                raise RuleError(f"the banker {who} already has the face-down card")
            card = event_card(event, allow_hidden=True)
        else:
            if hand.status != BET:
                raise RuleError(f"{who} has no bet in this round and gets no more cards")
            if len(hand.cards) >= 3:
                raise RuleError(f"{who} has three cards: hits come in turn, after the deal")
            card = event_card(event)  # face up
        state = _add_card(state, seat, card)
        return _after_play_step(replace(state, phase=PLAY)) if _second_pass_done(state) \
            else state
    if state.phase == PLAY:
        current = current_player(state)
        if seat != current:
            raise RuleError(f"it is {state.name(current)}'s turn to hit or stand, "  # type: ignore[arg-type]
                            f"not {who}'s")
        state = _check_bust(_add_card(state, seat, event_card(event)), seat)
        return _after_play_step(state)
    if state.phase == BANKER:
        if not banker:
            raise RuleError(f"the banker draws now; {who}'s hand is done")
        if None in hand.cards:
            raise RuleError(f"the banker {who} reveals the face-down card before drawing (T4)")
        return _after_banker_step(_add_card(state, seat, event_card(event)))
    raise RuleError(f"no cards are dealt now ({_prompt(state)})")


def _not_in_round(state: State, seat: int) -> str:
    who = state.name(seat)
    if seat == state.banker:
        return f"{who} is the banker"
    if state.money[seat - 1] <= 0:
        return f"{who} is out: no money (T10)"
    if seat not in state.order:
        return f"{who} is not in this round: below the table minimum ({state.options.min_bet})"
    return f"{who} is in this round"


def _bet(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "amount"))
    seat = event_seat(event, state.seat_count)
    amount = event_int(event, "amount", minimum=1)
    who = state.name(seat)
    _check_bettor(state, seat)
    low, high = bet_limits(state, seat)
    if amount < low:
        raise RuleError(f"{who}'s bet of {amount} is refused: the table minimum is {low}")
    if amount > state.money[seat - 1]:
        raise RuleError(f"{who}'s bet of {amount} is refused: {who} has only "
                        f"{state.money[seat - 1]}")
    if amount > high:
        raise RuleError(f"{who}'s bet of {amount} is refused: the banker can cover only "
                        f"{high} more (T6)")
    return _after_bets_step(_set_hand(state, seat, bet=amount, status=BET))


def _check_bettor(state: State, seat: int) -> None:
    who = state.name(seat)
    if seat == state.banker:
        raise RuleError(f"{who} is the banker and does not bet")
    if seat not in state.order:
        raise RuleError(_not_in_round(state, seat))
    if state.phase == DEAL:
        raise RuleError("bets come after every player and the banker have their first card")
    if state.phase != BETS:
        raise RuleError("the betting is over for this round")
    expected = _next_bettor(state)
    if seat != expected:
        if state.hand(seat).status != WAITING:
            raise RuleError(f"{who} has already bet or folded this round")
        raise RuleError(f"bets go in turn order: {state.name(expected)} bets or folds first")  # type: ignore[arg-type]


def _fold(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat",))
    seat = event_seat(event, state.seat_count)
    _check_bettor(state, seat)
    return _after_bets_step(_set_hand(state, seat, status=FOLDED))


def _stand(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat",))
    seat = event_seat(event, state.seat_count)
    who = state.name(seat)
    if seat == state.banker:
        raise RuleError("the banker does not choose: the banker draws below 27 and stands on "
                        "27 to 31 (T4)")
    if state.phase != PLAY:
        raise RuleError(f"nobody stands now ({_prompt(state)})")
    current = current_player(state)
    if seat != current:
        raise RuleError(f"it is {state.name(current)}'s turn, not {who}'s")  # type: ignore[arg-type]
    return _after_play_step(_set_hand(state, seat, status=STOOD))


def _reveal(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "card"))
    seat = event_seat(event, state.seat_count)
    who, hand = state.name(seat), state.hand(seat)
    if None not in hand.cards:
        raise RuleError(f"{who} has no face-down card waiting to be entered")
    if seat == state.banker:
        if state.phase not in (BANKER, SETTLE):
            raise RuleError("the banker's face-down card is revealed when the banker plays (T4)")
    elif state.phase == PLAY:
        if seat != current_player(state):
            raise RuleError(f"{who} shows the face-down card in their own turn or at settlement")
    elif state.phase != SETTLE:
        raise RuleError(f"{who} shows the face-down card in their own turn or at settlement")
    card = event_card(event)
    index = hand.cards.index(None)
    cards = replace_at(hand.cards, index, card)
    state = replace(state, shoe=state.shoe.deal(card), unknown=state.unknown - 1)
    state = _set_hand(state, seat, cards=cards, shown=True)
    if seat == state.banker:
        return _after_banker_step(state) if state.phase == BANKER else state
    state = _check_bust(state, seat)
    return _after_play_step(state) if state.phase == PLAY else state


# ---------------------------------------------------------------- settlement (T5)


def _settle_hand(state: State, seat: int, banker: HandValue | None) -> tuple[str, str]:
    """The outcome of one player's hand and why; money moves only for standing hands."""
    hand = state.hand(seat)
    if hand.status in (WAITING, FOLDED):
        return "folded", "folded, no bet"
    if hand.status == NO_COVER:
        return "no cover", "the banker could not cover another bet"
    value = state.value(seat)
    if hand.status == BUSTED:
        if value is None:  # certain from the face-up cards; the face-down card not entered
            known = tuple(c for c in hand.cards if c is not None)
            return "lost", f"bust ({evaluate(known).total} + face-down card)"
        return "lost", value.label
    assert value is not None and banker is not None
    if banker.bust:
        return "won", f"{value.label} vs banker bust"
    if banker.natural:
        return "lost", f"{value.label} vs banker's natural 31"
    won = value.rank > banker.rank
    return ("won" if won else "lost"), f"{value.label} vs {banker.label}"


def missing_reveals(state: State) -> list[int]:
    """Standing players whose face-down card must be entered before settlement."""
    return [s for s in state.order
            if state.hand(s).status == STOOD and None in state.hand(s).cards]


def _settle(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ())
    if state.phase != SETTLE:
        raise RuleError(f"the round is not ready to settle ({_prompt(state)})")
    missing = missing_reveals(state)
    if missing:
        raise RuleError(f"enter {state.name(missing[0])}'s face-down card before settling "
                        "(a standing hand is shown)")
    standing = any(state.hand(s).status == STOOD for s in state.order)
    banker_value = state.value(state.banker) if standing else None
    results = []
    for seat in state.order:
        outcome, detail = _settle_hand(state, seat, banker_value)
        if state.hand(seat).status == STOOD:
            bet = state.hand(seat).bet
            state = _pay(state, seat, bet if outcome == "won" else -bet)
        state = _set_hand(state, seat, outcome=outcome)
        results.append((seat, outcome, detail))
    seat_results = [SeatResult(s, o, state.change[s - 1], d) for s, o, d in results]
    if banker_value is not None:
        banker_detail = "banker " + banker_value.label
    elif any(state.hand(s).status == BUSTED for s in state.order):
        banker_detail = "every bet bust: the banker did not play"
    else:
        banker_detail = "no bets"
    seat_results.append(SeatResult(state.banker, "banker", state.change[state.banker - 1],
                                   banker_detail))
    return _offer_bank(replace(state, results=tuple(seat_results)))


# ---------------------------------------------------------------- the bank (T7, T10)


def _candidates(state: State, forced: bool) -> tuple[int, ...]:
    """T7: players richer than the banker; T10: every player who can cover the minimum.
    Richest first; equal money: nearer the banker's left first."""
    players = state.ring[1:]
    banker_money = state.money[state.banker - 1]
    if forced:
        eligible = [s for s in players if state.money[s - 1] >= state.options.min_bet]
    else:
        eligible = [s for s in players if state.money[s - 1] > banker_money]
    return tuple(sorted(eligible, key=lambda s: (-state.money[s - 1], players.index(s))))


def _offer_bank(state: State) -> State:
    forced = state.money[state.banker - 1] < state.options.min_bet
    offers = _candidates(state, forced)
    notes = state.notes
    if forced:
        notes = (*notes, f"the banker {state.name(state.banker)} cannot cover the table "
                 f"minimum ({state.options.min_bet}) and must give up the bank (T10)")
    state = replace(state, offers=offers, declined=(), forced=forced, notes=notes)
    if offers:
        return replace(state, phase=OFFER)
    return _complete_round(state, None)


def current_offer(state: State) -> int | None:
    if state.phase != OFFER:
        return None
    for seat in state.offers:
        if seat not in state.declined:
            return seat
    return None


def _check_offer(state: State, event: dict[str, Any]) -> int:
    check_fields(event, ("seat",))
    seat = event_seat(event, state.seat_count)
    if state.phase != OFFER:
        raise RuleError("the bank is offered after the round is settled")
    expected = current_offer(state)
    if seat != expected:
        who = state.name(seat)
        if seat in state.declined:
            raise RuleError(f"{who} has already declined the bank this round")
        if seat == state.banker:
            raise RuleError(f"{who} is the banker")
        if seat not in state.offers:
            reason = ("a player who can cover the table minimum" if state.forced
                      else "richer than the banker")
            raise RuleError(f"the bank is not offered to {who}: only to {reason} (T7)")
        raise RuleError(f"the bank is offered to {state.name(expected)} first "  # type: ignore[arg-type]
                        "(richest first, T7)")
    return seat


def _bank_accept(state: State, event: dict[str, Any]) -> State:
    return _complete_round(state, _check_offer(state, event))


def _bank_decline(state: State, event: dict[str, Any]) -> State:
    seat = _check_offer(state, event)
    note = f"{state.name(seat)} ({state.money[seat - 1]}) declined the bank"
    state = replace(state, declined=(*state.declined, seat), notes=(*state.notes, note))
    if current_offer(state) is None:
        return _complete_round(state, None)
    return state


def _complete_round(state: State, new_banker: int | None) -> State:
    """The bank is decided: the round's result, the seat swap, the next round or the end."""
    old = state.banker
    notes = list(state.notes)
    ring = state.ring
    finished, reason = False, ""
    if new_banker is not None:
        i, j = ring.index(old), ring.index(new_banker)
        ring = replace_at(replace_at(ring, i, new_banker), j, old)
        notes.append(f"{state.name(new_banker)} takes the bank; {state.name(old)} takes "
                     f"{state.name(new_banker)}'s seat")
        banker = new_banker
    else:
        banker = old
        if state.forced:
            finished = True
            reason = (f"the banker {state.name(old)} cannot cover the table minimum and nobody "
                      "takes the bank (T10)")
            notes.append("nobody takes the bank: the session ends (T10)")
        elif state.offers:
            notes.append(f"{state.name(old)} keeps the bank")
    if not finished and not any(m > 0 for s, m in enumerate(state.money, 1) if s != banker):
        finished, reason = True, f"{state.name(banker)} holds all the money"
    result = RoundResult(state.number, old, state.results, state.money,
                         None if finished else banker, notes=tuple(notes))
    state = replace(state, banker=banker, ring=ring, round_result=result)
    if finished:
        return replace(state, phase=OVER, finished=True, end_reason=reason, order=())
    return _new_round(state, state.number + 1)


def pending_round(state: State) -> RoundResult | None:
    """A round settled while the bank offer is still open: its results, the offer pending and
    no next banker yet (None when no round waits for the bank decision)."""
    seat = current_offer(state)
    if seat is None:
        return None
    pending = f"the bank is offered to {state.name(seat)}: accept or decline (T7)"
    return RoundResult(state.number, state.banker, state.results, state.money, None,
                       notes=(*state.notes, pending))


# ---------------------------------------------------------------- cash-out (T9)


def _cash_out(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "amount"))
    seat = event_seat(event, state.seat_count)
    who, money = state.name(seat), state.money[seat - 1]
    if not state.between_rounds:
        raise RuleError("cash-outs are taken between rounds (T9)")
    if seat == state.banker:
        raise RuleError(f"{who} holds the bank: a banker cashes out after giving up the bank")
    if money <= 0:
        raise RuleError(f"{who} has no money to cash out")
    amount = event_int(event, "amount", minimum=1) if "amount" in event else money
    if amount > money:
        raise RuleError(f"{who} has only {money} to cash out, not {amount}")
    state = replace(state, money=add_at(state.money, seat - 1, -amount),
                    notes=(*state.notes, f"{who} cashed out {amount}"))
    order = tuple(s for s in state.ring[1:] if state.money[s - 1] >= state.options.min_bet)
    state = replace(state, order=order)
    if not any(m > 0 for s, m in enumerate(state.money, 1) if s != state.banker):
        return replace(state, phase=OVER, finished=True, order=(),
                       end_reason="no player has money left")
    return state


HANDLERS = {"deal": _deal, "bet": _bet, "fold": _fold, "stand": _stand, "reveal": _reveal,
            "settle": _settle, "bank_accept": _bank_accept, "bank_decline": _bank_decline,
            "cash_out": _cash_out}


def _game_over(state: State) -> str:
    return f"the session is over: {state.end_reason}"


def apply(state: State, event: dict[str, Any]) -> State:
    """The state after ``event``, or RuleError with the reason (the state is unchanged)."""
    return dispatch(TITLE, HANDLERS, state, event, _game_over)


# ---------------------------------------------------------------- what the table shows


def _usable(state: State) -> list[Card]:
    """The cards a deal or a reveal may enter now."""
    if state.shoe_left > 0 or state.unknown:
        return state.shoe.available()
    return _reshuffled(state).shoe.available() if len(_on_table(state)) < SHOE_SIZE else []


def legal_actions(state: State) -> list[Action]:
    acts: list[Action] = []
    if state.finished:
        return acts
    names, banker = state.names, state.banker
    if state.phase == DEAL and state.order:
        if not state.hand(banker).cards:
            acts.append(Action("deal", "Banker's face-up card", banker, asks="card"))
        for seat in state.order:
            if not state.hand(seat).cards:
                who = names[seat - 1]
                acts.append(Action("deal", f"Face-down card to {who}", seat,
                                   fixed=(("card", None),)))
                acts.append(Action("deal", f"Face-down card to {who}, entered", seat,
                                   asks="card"))
    elif state.phase == BETS:
        seat = _next_bettor(state)
        if seat is not None:
            low, high = bet_limits(state, seat)
            acts.append(Action("bet", f"{names[seat - 1]} bets", seat, asks="amount",
                               minimum=low, maximum=high))
            acts.append(Action("fold", f"{names[seat - 1]} folds", seat))
    elif state.phase == CARDS:
        for seat in state.order:
            hand = state.hand(seat)
            if hand.status == BET and len(hand.cards) < 3:
                acts.append(Action("deal", f"Face-up card to {names[seat - 1]}", seat,
                                   asks="card"))
        if len(state.hand(banker).cards) < 2:
            acts.append(Action("deal", "Banker's face-down card", banker,
                               fixed=(("card", None),)))
            acts.append(Action("deal", "Banker's face-down card, entered", banker, asks="card"))
    elif state.phase == PLAY:
        seat = current_player(state)
        if seat is not None:
            who = names[seat - 1]
            acts.append(Action("deal", f"{who} hits", seat, asks="card"))
            acts.append(Action("stand", f"{who} stands", seat))
            if None in state.hand(seat).cards:
                acts.append(Action("reveal", f"{who} shows the face-down card", seat,
                                   asks="card"))
    elif state.phase == BANKER:
        if None in state.hand(banker).cards:
            acts.append(Action("reveal", "Banker reveals the face-down card", banker,
                               asks="card"))
        else:
            acts.append(Action("deal", "Banker draws", banker, asks="card"))
    elif state.phase == SETTLE:
        missing = missing_reveals(state)
        for seat in (*state.order, banker):
            if None in state.hand(seat).cards:
                optional = "" if seat in missing else " (optional)"
                acts.append(Action("reveal", f"{names[seat - 1]}'s face-down card{optional}",
                                   seat, asks="card"))
        if not missing:
            acts.append(Action("settle", "Settle the round"))
    elif state.phase == OFFER:
        seat = current_offer(state)
        if seat is not None:
            acts.append(Action("bank_accept", f"{names[seat - 1]} takes the bank", seat))
            acts.append(Action("bank_decline", f"{names[seat - 1]} declines the bank", seat))
    if state.between_rounds:
        for seat in state.ring[1:]:
            money = state.money[seat - 1]
            if money > 0:
                who = names[seat - 1]
                acts.append(Action("cash_out", f"{who} cashes out everything", seat))
                acts.append(Action("cash_out", f"{who} cashes out part", seat,
                                   asks="amount", minimum=1, maximum=money))
    return acts


def _prompt(state: State) -> str:
    names, banker = state.names, state.banker
    if state.finished:
        return f"Session over: {state.end_reason}"
    if state.phase == DEAL:
        if not state.order:
            return (f"No player has the table minimum ({state.options.min_bet}): "
                    "cash out or end the session")
        wanted = [names[s - 1] for s in state.order if not state.hand(s).cards]
        parts = []
        if not state.hand(banker).cards:
            parts.append("the banker's face-up card")
        if wanted:
            parts.append("a face-down card to " + ", ".join(wanted))
        return "Deal " + " and ".join(parts)
    if state.phase == BETS:
        seat = _next_bettor(state)
        low, high = bet_limits(state, seat)  # type: ignore[arg-type]
        return f"{names[seat - 1]}: bet {low}–{high} or fold"  # type: ignore[index]
    if state.phase == CARDS:
        wanted = [names[s - 1] for s in state.order
                  if state.hand(s).status == BET and len(state.hand(s).cards) < 3]
        parts = [f"face-up cards to {', '.join(wanted)} (two each)"] if wanted else []
        if len(state.hand(banker).cards) < 2:
            parts.append("the banker's face-down card")
        return "Deal " + " and ".join(parts)
    if state.phase == PLAY:
        seat = current_player(state)
        return f"{names[seat - 1]}: hit or stand"  # type: ignore[index]
    if state.phase == BANKER:
        if None in state.hand(banker).cards:
            return f"Banker {names[banker - 1]}: reveal the face-down card"
        value = state.value(banker)
        return f"Banker {names[banker - 1]}: draw ({value.label}, below {BANKER_STANDS})"  # type: ignore[union-attr]
    if state.phase == SETTLE:
        missing = missing_reveals(state)
        if missing:
            return "Enter the face-down card of " + ", ".join(names[s - 1] for s in missing)
        return "Confirm the settlement"
    if state.phase == OFFER:
        seat = current_offer(state)
        return (f"Bank offered to {names[seat - 1]} ({state.money[seat - 1]}; banker "  # type: ignore[index]
                f"{state.money[banker - 1]}): accept or decline")
    return ""


def _hidden_flags(state: State, seat: int) -> tuple[bool, ...]:
    hand = state.hand(seat)
    if seat == state.banker:
        played = any(state.hand(s).status == STOOD for s in state.order)
        down = state.phase in (DEAL, BETS, CARDS, PLAY) or (
            state.phase in (SETTLE, OFFER) and not played and not hand.shown)
        return tuple(c is None or (i == 1 and down) for i, c in enumerate(hand.cards))
    shown = hand.shown or hand.status == BUSTED or (
        hand.status == STOOD and state.phase in (SETTLE, OFFER))
    return tuple(c is None or (i == 0 and not shown) for i, c in enumerate(hand.cards))


def _value_text(state: State, seat: int, hidden: tuple[bool, ...]) -> str:
    hand = state.hand(seat)
    visible = tuple(c for c, h in zip(hand.cards, hidden, strict=True) if not h and c is not None)
    if not hand.cards:
        return ""
    if hand.status == BUSTED and None in hand.cards:
        known = tuple(c for c in hand.cards if c is not None)
        return f"bust ({evaluate(known).total} + ?)"
    value = evaluate(visible, state.options.natural_tens)  # type: ignore[arg-type]
    if any(hidden):
        return f"{value.total} + ?" if visible else "?"
    return value.label


def _status(state: State, seat: int) -> str:
    hand = state.hand(seat)
    if seat == state.banker:
        if state.phase == BANKER:
            return "to act"
        value = state.value(seat)
        if state.phase in (SETTLE, OFFER) and value is not None and len(hand.cards) > 2:
            return "bust" if value.bust else "natural" if value.natural else "stood"
        return "banker"
    if seat == current_offer(state):
        return "offered the bank"
    if seat in (_next_bettor(state), current_player(state)):
        return "to act"
    if seat in state.declined:
        return "declined the bank"
    if hand.outcome:
        return hand.outcome
    if seat not in state.order:
        if state.money[seat - 1] <= 0:
            return "out"
        return "below minimum"
    return hand.status


def _projection(state: State, seat: int) -> str:
    """In the settle phase: what a standing hand will win or lose (the balance check)."""
    if state.phase != SETTLE or state.hand(seat).status != STOOD or missing_reveals(state):
        return ""
    outcome, _ = _settle_hand(state, seat, state.value(state.banker))
    bet = state.hand(seat).bet
    return f"wins {bet}" if outcome == "won" else f"loses {bet}"


def view(state: State) -> TableView:
    seats = []
    for seat in range(1, state.seat_count + 1):
        hand = state.hand(seat)
        hidden = _hidden_flags(state, seat)
        is_banker = seat == state.banker
        seats.append(SeatView(
            seat=seat, name=state.name(seat), money=state.money[seat - 1],
            cards=tuple(None if c is None or h else c.code
                        for c, h in zip(hand.cards, hidden, strict=True)),
            hidden=hidden, value=_value_text(state, seat, hidden), status=_status(state, seat),
            wagers=(("bet", hand.bet),) if hand.bet else (), is_dealer=is_banker,
            role="banker" if is_banker else "", extra=_projection(state, seat)))
    to_act = (_next_bettor(state) or current_player(state) or current_offer(state)
              or (state.banker if state.phase == BANKER else None))
    turn = ", ".join(state.name(s) for s in state.ring[1:])
    info = (f"Round {state.number}; banker {state.name(state.banker)}; turn order {turn}",
            f"Shoe: {state.shoe_left} of {SHOE_SIZE} cards left; reshuffled {state.reshuffles}"
            " time(s)",
            f"Table minimum {state.options.min_bet}; the banker can cover "
            f"{cover_left(state)} more" if state.phase in (DEAL, BETS)
            else f"Table minimum {state.options.min_bet}",
            *state.notes)
    return TableView(
        title=TITLE, round_number=state.number, phase=state.phase, prompt=_prompt(state),
        seats=tuple(seats), dealer_seat=state.banker, to_act=to_act, info=info,
        usable_cards=tuple(c.code for c in _usable(state)))


def money_total(state: State) -> int:
    """All the money at the table, players and banker (changes only by cash-outs)."""
    return sum(state.money)


DEMO = {
    "options": {"min_bet": 5, "bank_multiple": 3},
    "seats": [{"name": "Ann", "money": 300}, {"name": "Bea", "money": 100},
              {"name": "Cy", "money": 100}, {"name": "Dora", "money": 100},
              {"name": "Eli", "money": 100}],
    "first_dealer": 1,
}

