"""Sudden Death 31 (rule text sudden-death-31.txt, rulings S1-S10; docs/games/sudden_death.md).

A pot game. Seats are numbered clockwise; the next seat clockwise is ``seat + 1`` (wrapping).
Each hand: the opener bets 1 up to the smallest stack and everyone, the opener included, antes
exactly that amount (S4; the opener's bet *is* the opener's ante, so the pot is players x bet).
The bet sets the turns (S3); turns go clockwise from the opener's left; a turn is forced
(S5). Instant wins (S2; revealed only at the showdown, still ahead of every suit total: S10),
else the showdown (S6). Sudden death (S7), the end of the game (S8)
and the opener rotating clockwise (S9). Scoring helpers: ``sudden_death_scoring``.

Two ways to enter a hand (option ``entry``; docs/games/sudden_death.md):

- ``cards``: every card is entered; the app tracks the draw and discard piles and finds
  instant wins and the showdown itself.
  ``deal {seat, card | cards}``, ``bet {seat, amount}``, then per turn ``draw {seat, card}`` or
  ``take {seat}`` (the top discard), then ``discard {seat, card}``; or a whole turn at once:
  ``turn {seat, draw: card, discard: card}`` / ``turn {seat, take: true, discard: card}``.
- ``summary``: only the turns taken and the hands shown. ``bet``, ``turn {seat}`` (one turn
  taken) or ``turns_taken {count}``; ``show {seat, card | cards}`` reveals a hand (an instant
  win: after the deal anyone, during play the player who just took a turn; at the showdown
  everyone); ``settle`` pays the instant winners after the deal. Shortcuts:
  ``instant_win {seat, cards}`` or ``instant_win {hands}``, and ``showdown {hands}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.cards import FULL_DECK, Card, parse_card
from dealer_assist.errors import RuleError
from dealer_assist.variants.base import (
    Action,
    RoundResult,
    SeatResult,
    SeatSpec,
    SeatView,
    TableView,
    check_fields,
    dispatch,
    event_card,
    event_int,
    event_seat,
    evolve,
    opt,
    replace_at,
)
from dealer_assist.variants.sudden_death_scoring import (
    describe,
    instant_win,
    score,
    showdown,
    split_pot,
    turns_for_bet,
)

NAME = "sudden_death"
TITLE = "Sudden Death 31"
RULES_FILE = "sudden-death-31.txt"
SEAT_FIELDS: tuple[str, ...] = ()
MIN_SEATS, MAX_SEATS = 2, 5
SUDDEN_DEATH_STACK = 2  # S7: every stack at most this at the start of a hand
SUDDEN_DEATH_TURNS = 5  # S7: each player gets 5 turns


@dataclass(frozen=True)
class Options:
    starting_chips: int | None = opt(
        20, "Chips each player starts with; every seat's money must match it. None: play the "
        "amounts entered per seat (a game carried on from paper).", min=1)
    turn_count: str = opt(
        "per_player", "The bet's turns are each player's (per_player) or the whole table's "
        "(table) (S3).", choices=("per_player", "table"))
    entry: str = opt(
        "cards", "Enter every card (cards) or only the turns taken and the hands shown "
        "(summary).", choices=("cards", "summary"))
    max_hands: int | None = opt(
        None, "End the game after this many hands (S8); None: only when a player has no chips.",
        min=1)
    two_players: bool = opt(False, "Allow a game of two players (S8; the text says 3 to 5).")


OPENING, PLAY, SHOWDOWN, OVER = "opening", "play", "showdown", "over"
DRAWN, TAKEN = "drew", "took"


@dataclass(frozen=True, slots=True)
class State:
    options: Options
    names: tuple[str, ...]
    money: tuple[int, ...]
    opener: int
    number: int  # the hand being played, from 1
    phase: str
    sudden: bool  # S7: this hand is the sudden-death hand
    bet: int = 0  # 0: not placed yet
    pot: int = 0
    hands: tuple[tuple[Card, ...], ...] = ()  # summary entry: only the cards shown
    discards: tuple[Card, ...] = ()  # bottom to top (cards entry)
    turns_taken: int = 0
    pending: str = ""  # cards entry: DRAWN or TAKEN while the player to act holds 4 cards
    game_winners: tuple[int, ...] = ()
    round_result: RoundResult | None = None
    finished: bool = False

    @property
    def seat_count(self) -> int:
        return len(self.names)

    @property
    def cards_entry(self) -> bool:
        return self.options.entry == "cards"

    @property
    def between_rounds(self) -> bool:
        return self.finished or (self.phase == OPENING and not self.bet
                                 and not any(self.hands))

    def hand(self, seat: int) -> tuple[Card, ...]:
        return self.hands[seat - 1]


def clockwise(seat: int, count: int) -> int:
    return seat % count + 1


def from_openers_left(state: State) -> tuple[int, ...]:
    """Every seat clockwise from the opener's left, the opener last (turn and odd-chip order)."""
    n = state.seat_count
    return tuple((state.opener + k) % n + 1 for k in range(n))


def turns_each(state: State) -> int:
    """S3 (S7 in sudden death): the turns the bet gives."""
    return SUDDEN_DEATH_TURNS if state.sudden else turns_for_bet(state.bet)


def total_turns(state: State) -> int:
    """The hand's turns for the whole table (S3: per player by default; S7: 5 each)."""
    if state.options.turn_count == "table" and not state.sudden:
        return turns_each(state)
    return turns_each(state) * state.seat_count


def turn_seat(state: State, index: int) -> int:
    """Who takes turn ``index`` (0-based): clockwise from the opener's left."""
    return (state.opener + index) % state.seat_count + 1


def to_act(state: State) -> int | None:
    if state.phase != PLAY or state.turns_taken >= total_turns(state):
        return None
    return turn_seat(state, state.turns_taken)


def last_actor(state: State) -> int | None:
    return turn_seat(state, state.turns_taken - 1) if state.turns_taken else None


def bet_limits(state: State) -> tuple[int, int]:
    """S4: 1 up to the smallest stack; S7: forced to 1 in sudden death."""
    return (1, 1) if state.sudden else (1, min(state.money))


def _new_hand(state: State, opener: int, number: int) -> State:
    n = state.seat_count
    return evolve(
        state, opener=opener, number=number, phase=OPENING,
        sudden=all(m <= SUDDEN_DEATH_STACK for m in state.money), bet=0, pot=0,
        hands=((),) * n, discards=(), turns_taken=0, pending="")


def start(options: Options, seats: tuple[SeatSpec, ...], first_dealer: int | None) -> State:
    low = 2 if options.two_players else 3
    if not low <= len(seats) <= MAX_SEATS:
        extra = "" if options.two_players else " (option two_players allows 2)"
        raise RuleError(f"Sudden Death 31 needs {low} to {MAX_SEATS} players, "
                        f"not {len(seats)}{extra}")
    opener = 1 if first_dealer is None else first_dealer
    if not 1 <= opener <= len(seats):
        raise RuleError(f"the first opener must be a seat from 1 to {len(seats)}")
    for seat in seats:
        if options.starting_chips is not None and seat.money != options.starting_chips:
            raise RuleError(
                f"everyone starts with {options.starting_chips} chips, but {seat.name} has "
                f"{seat.money} (set the option starting_chips to null to play the amounts entered)")
        if seat.money < 1:
            raise RuleError(f"{seat.name} has no chips: the game is already over")
    state = State(options=options, names=tuple(s.name for s in seats),
                  money=tuple(s.money for s in seats), opener=opener, number=1,
                  phase=OPENING, sudden=False)
    return _new_hand(state, opener, 1)


# ---------------------------------------------------------------- cards in play (one deck)


def _in_play(state: State) -> set[Card]:
    return {c for hand in state.hands for c in hand} | set(state.discards)


def unseen(state: State) -> list[Card]:
    """Cards that can still be dealt or drawn: not in a hand, not in the discard pile."""
    used = _in_play(state)
    return [c for c in FULL_DECK if c not in used]


def _check_new_cards(state: State, cards: list[Card]) -> None:
    used = _in_play(state)
    for i, card in enumerate(cards):
        if card in used or card in cards[:i]:
            where = "the discard pile" if card in state.discards else "a hand"
            raise RuleError(f"{card.code} is already in {where}: there is one deck")


def _refill(state: State) -> State:
    """S5: an empty draw pile is refilled with the discards except the top card."""
    if unseen(state) or len(state.discards) < 2:
        return state
    return evolve(state, discards=state.discards[-1:])


def _cards_field(event: dict[str, Any]) -> list[Card]:
    if "cards" in event and "card" in event:
        raise RuleError(f"'{event.get('type')}' takes either 'card' or 'cards', not both")
    if "cards" in event:
        raw = event["cards"]
        if not isinstance(raw, list) or not raw:
            raise RuleError(f"'{event.get('type')}' needs 'cards' as a list of card codes")
        return [parse_card(c) for c in raw]
    card = event_card(event)
    assert card is not None
    return [card]


def _set_hand(state: State, seat: int, cards: tuple[Card, ...]) -> State:
    return evolve(state, hands=replace_at(state.hands, seat - 1, cards))


# ---------------------------------------------------------------- the opening: deal and bet


def _need_phase(state: State, phase: str, what: str) -> None:
    if state.phase != phase:
        raise RuleError(f"{what} is not possible now: {_prompt(state)}")


def _deal(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "card", "cards"))
    if not state.cards_entry:
        raise RuleError("the deal is not entered in summary entry: enter the opener's bet")
    _need_phase(state, OPENING, "dealing")
    seat = event_seat(event, state.seat_count)
    cards = _cards_field(event)
    hand = state.hand(seat)
    if len(hand) + len(cards) > 3:
        raise RuleError(f"{state.names[seat - 1]} is dealt 3 cards and already has {len(hand)}")
    _check_new_cards(state, cards)
    return _begin_play(_set_hand(state, seat, hand + tuple(cards)))


def _bet(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "amount"))
    _need_phase(state, OPENING, "a bet")
    seat = event_seat(event, state.seat_count)
    amount = event_int(event, "amount")
    who = state.names[seat - 1]
    if seat != state.opener:
        raise RuleError(f"{state.names[state.opener - 1]} opens this hand and bets, not {who}")
    if state.bet:
        raise RuleError(f"the bet of {state.bet} is already placed")
    low, high = bet_limits(state)
    if state.sudden and amount != 1:
        raise RuleError("sudden death: every stack is 2 or fewer, so the bet is forced to 1")
    if not low <= amount <= high:
        poorest = state.names[state.money.index(high)]
        raise RuleError(f"the bet must be 1 to {high} (the smallest stack, {poorest}'s); "
                        f"{amount} is refused")
    money = tuple(m - amount for m in state.money)  # S4: everyone antes exactly the bet
    state = evolve(state, bet=amount, pot=amount * state.seat_count, money=money)
    return _begin_play(state)


def _begin_play(state: State) -> State:
    """Once the bet is in (and, entering cards, every hand dealt): S2's check after the deal."""
    if not state.bet or (state.cards_entry and any(len(h) < 3 for h in state.hands)):
        return state
    state = evolve(state, phase=PLAY)
    if state.cards_entry:
        winners = [s for s in from_openers_left(state) if instant_win(state.hand(s))]
        if winners:
            return _pay_instant(state, winners, after_deal=True)
    return state


# ---------------------------------------------------------------- turns, entering cards (S5)


def _check_turn(state: State, event: dict[str, Any]) -> int:
    _need_phase(state, PLAY, "a turn")
    seat = event_seat(event, state.seat_count)
    expected = to_act(state)
    if seat != expected:
        turn = state.names[expected - 1] if expected else "nobody"
        raise RuleError(f"it is {turn}'s turn, not {state.names[seat - 1]}'s (turns go "
                        "clockwise from the opener's left)")
    return seat


def _draw(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "card"))
    _need_cards_entry(state, "draw")
    seat = _check_turn(state, event)
    if state.pending:
        raise RuleError(f"{state.names[seat - 1]} has 4 cards: discard one first")
    card = event_card(event)
    assert card is not None
    _check_new_cards(state, [card])
    return evolve(_set_hand(state, seat, state.hand(seat) + (card,)), pending=DRAWN)


def _take(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat",))
    _need_cards_entry(state, "take")
    seat = _check_turn(state, event)
    if state.pending:
        raise RuleError(f"{state.names[seat - 1]} has 4 cards: discard one first")
    if not state.discards:
        raise RuleError("the discard pile is empty: the first player must draw from the pile")
    top = state.discards[-1]
    state = _set_hand(state, seat, state.hand(seat) + (top,))
    return evolve(state, discards=state.discards[:-1], pending=TAKEN)


def _discard(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "card"))
    _need_cards_entry(state, "discard")
    seat = _check_turn(state, event)
    who = state.names[seat - 1]
    if not state.pending:
        raise RuleError(f"{who} must first draw from the pile or take the top discard")
    card = event_card(event)
    hand = state.hand(seat)
    if card not in hand:
        raise RuleError(f"{who} does not hold {card.code}")
    if state.pending == TAKEN and card == hand[-1]:
        raise RuleError(f"{who} took {card.code} from the discard pile and must swap another "
                        "card for it (no passing)")
    kept = tuple(c for c in hand if c != card)
    state = evolve(_set_hand(state, seat, kept), discards=(*state.discards, card), pending="")
    return _after_turn(_refill(state), seat)


def _need_cards_entry(state: State, what: str) -> None:
    if not state.cards_entry:
        raise RuleError(f"'{what}' is for card-by-card entry; this session enters a summary: "
                        "use 'turn' for each turn taken")


def _turn(state: State, event: dict[str, Any]) -> State:
    if not state.cards_entry:
        check_fields(event, ("seat",))
        seat = _check_turn(state, event)
        _no_claim_open(state)
        return _after_turn(state, seat)
    check_fields(event, ("seat", "draw", "take", "discard"))
    seat = event.get("seat")
    if ("draw" in event) == bool(event.get("take")):
        raise RuleError("a turn either draws a card ('draw') or takes the top discard "
                        "('take': true), then discards one ('discard')")
    if "discard" not in event:
        raise RuleError("a turn ends with a discard ('discard': a card code)")
    if "draw" in event:
        state = _draw(state, {"type": "draw", "seat": seat, "card": event["draw"]})
    else:
        state = _take(state, {"type": "take", "seat": seat})
    return _discard(state, {"type": "discard", "seat": seat, "card": event["discard"]})


def _after_turn(state: State, seat: int) -> State:
    """S2: the acting player's instant win; the last turn leads to the showdown (S6)."""
    state = evolve(state, turns_taken=state.turns_taken + 1)
    if state.cards_entry and instant_win(state.hand(seat)):
        return _pay_instant(state, [seat], after_deal=False)
    if state.turns_taken < total_turns(state):
        return state
    if state.cards_entry:
        return _pay_showdown(state)
    return evolve(state, phase=SHOWDOWN)


# ---------------------------------------------------------------- summary entry: turns and hands


def _open_claims(state: State) -> tuple[list[int], list[int]]:
    """During play in summary entry: seats with a hand partly shown, and fully shown."""
    partial = [s for s in range(1, state.seat_count + 1) if 0 < len(state.hand(s)) < 3]
    full = [s for s in range(1, state.seat_count + 1) if len(state.hand(s)) == 3]
    return partial, full


def _no_claim_open(state: State) -> None:
    partial, full = _open_claims(state)
    if partial:
        raise RuleError(f"{state.names[partial[0] - 1]} is showing a hand: enter the rest of "
                        "it (or void the cards shown)")
    if full:
        raise RuleError("an instant win was shown after the deal: enter any other instant "
                        "winner's cards, then settle")


def _turns_taken(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("count",))
    if state.cards_entry:
        raise RuleError("'turns_taken' is for summary entry; enter each turn's cards")
    _need_phase(state, PLAY, "a turn")
    count = event_int(event, "count", minimum=1)
    left = total_turns(state) - state.turns_taken
    if count > left:
        raise RuleError(f"only {left} turn(s) are left in this hand, not {count}")
    _no_claim_open(state)
    for _ in range(count):
        state = _after_turn(state, to_act(state))  # type: ignore[arg-type]
    return state


def _may_show(state: State, seat: int) -> str:
    """Why ``seat`` may not show cards now ("" if it may)."""
    who = state.names[seat - 1]
    if state.cards_entry:
        return "the app sees every card in card-by-card entry: nothing to show"
    if state.phase == SHOWDOWN:
        return f"{who} has shown 3 cards already" if len(state.hand(seat)) == 3 else ""
    if state.phase != PLAY:
        return f"nobody shows cards now: {_prompt(state)}"
    if state.turns_taken == 0:
        return f"{who} has shown 3 cards already" if len(state.hand(seat)) == 3 else ""
    actor = last_actor(state)
    if seat != actor:
        return (f"during play only the player who just took a turn can reveal an instant win "
                f"({state.names[actor - 1]}), not {who}")  # type: ignore[index]
    return ""


def _show(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "card", "cards"))
    seat = event_seat(event, state.seat_count)
    refusal = _may_show(state, seat)
    if refusal:
        raise RuleError(refusal)
    partial, _ = _open_claims(state)
    if state.phase == PLAY and partial and partial != [seat]:
        raise RuleError(f"finish {state.names[partial[0] - 1]}'s hand first")
    cards = _cards_field(event)
    hand = state.hand(seat) + tuple(cards)
    if len(hand) > 3:
        raise RuleError(f"{state.names[seat - 1]} holds 3 cards, not {len(hand)}")
    _check_new_cards(state, cards)
    kind = instant_win(hand) if len(hand) == 3 else None
    if state.phase == PLAY and len(hand) == 3 and not kind:
        raise RuleError(f"{' '.join(c.code for c in hand)} is neither 31 (three cards of one "
                        "suit totalling 31) nor Blitz (three of a rank): no instant win")
    state = _set_hand(state, seat, hand)
    if kind and state.turns_taken and seat == last_actor(state):
        return _pay_instant(state, [seat], after_deal=False)  # S2: the acting player wins
    if state.phase == SHOWDOWN and all(len(h) == 3 for h in state.hands):
        return _pay_showdown(state)
    return state


def _settle(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ())
    _, full = _open_claims(state)
    if state.cards_entry or state.phase != PLAY or not full or state.turns_taken:
        raise RuleError("settle pays instant wins shown after the deal (summary entry); "
                        f"there are none to pay: {_prompt(state)}")
    _no_partial(state)
    return _pay_instant(state, [s for s in from_openers_left(state) if s in full],
                        after_deal=True)


def _no_partial(state: State) -> None:
    partial, _ = _open_claims(state)
    if partial:
        raise RuleError(f"{state.names[partial[0] - 1]} is showing a hand: enter the rest of it")


def _hands_field(state: State, event: dict[str, Any]) -> list[tuple[int, list[Card]]]:
    raw = event.get("hands")
    if not isinstance(raw, dict) or not raw:
        raise RuleError(f"'{event.get('type')}' needs 'hands': seat number -> its 3 cards")
    out = []
    for key, cards in raw.items():
        seat = event_seat({"type": event.get("type"), "seat": _seat_key(key)}, state.seat_count)
        if not isinstance(cards, list):
            raise RuleError(f"seat {seat}'s hand must be a list of card codes")
        out.append((seat, [parse_card(c) for c in cards]))
    return out


def _seat_key(key: Any) -> Any:
    return int(key) if isinstance(key, str) and key.isdigit() else key


def _instant_win(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "cards", "hands"))
    if state.cards_entry:
        raise RuleError("in card-by-card entry the app finds instant wins itself")
    if "hands" in event:
        if "seat" in event or "cards" in event:
            raise RuleError("'instant_win' takes 'seat' and 'cards', or 'hands', not both")
        hands = _hands_field(state, event)
    else:
        hands = [(event_seat(event, state.seat_count), _cards_field(event))]
    if state.phase == PLAY and state.turns_taken == 0:
        for seat, cards in hands:
            state = _show(state, {"type": "show", "seat": seat,
                                  "cards": [c.code for c in cards]})
        return _settle(state, {"type": "settle"})
    if len(hands) > 1:
        raise RuleError("only after the deal can several players win at once; during play "
                        "only the player who just took a turn")
    seat, cards = hands[0]
    if seat != last_actor(state):
        raise RuleError("during play only the player who just took a turn can reveal an "
                        f"instant win, not {state.names[seat - 1]}")
    if len(state.hand(seat)) + len(cards) != 3 or not instant_win((*state.hand(seat), *cards)):
        raise RuleError(f"{state.names[seat - 1]}'s hand must be 3 cards making 31 or Blitz")
    return _show(state, {"type": "show", "seat": seat, "cards": [c.code for c in cards]})


def _showdown(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("hands",))
    if state.cards_entry:
        raise RuleError("in card-by-card entry the app settles the showdown itself")
    _need_phase(state, SHOWDOWN, "the showdown")
    hands = _hands_field(state, event)
    actor = last_actor(state)
    hands.sort(key=lambda item: item[0] != actor)  # the last turn's instant win comes first
    _check_new_cards(state, [c for _, cards in hands for c in cards])
    number = state.number
    for seat, cards in hands:
        state = _show(state, {"type": "show", "seat": seat, "cards": [c.code for c in cards]})
        if state.number != number or state.finished:
            return state  # settled by the last player's instant win
    if state.phase == SHOWDOWN:
        missing = [state.names[s - 1] for s in range(1, state.seat_count + 1)
                   if len(state.hand(s)) < 3]
        raise RuleError(f"the showdown needs every hand: missing {', '.join(missing)}")
    return state


# ---------------------------------------------------------------- paying the pot, ending the hand


def _pay_instant(state: State, winners: list[int], after_deal: bool,
                 when: str = "") -> State:
    when = when or ("after the deal" if after_deal else f"on turn {state.turns_taken}")
    details = {s: describe(state.hand(s)) for s in winners}
    names = _and([state.names[s - 1] for s in winners])
    note = f"Instant win {when}: {names} " + ("take" if len(winners) > 1 else "takes") + \
        f" the pot of {state.pot}"
    return _pay(state, winners, details, note)


def _pay_showdown(state: State) -> State:
    hands = {s: state.hand(s) for s in from_openers_left(state)}
    instant = [s for s, cards in hands.items() if instant_win(cards)]
    if instant:  # S10: a 31 or Blitz revealed at the showdown wins ahead of every suit total
        return _pay_instant(state, instant, after_deal=False, when="revealed at the showdown")
    winners, how = showdown(hands)
    details = {s: describe(cards) for s, cards in hands.items()}
    names = _and([state.names[s - 1] for s in winners])
    best = score(hands[winners[0]])
    if len(winners) > 1:
        note = f"Showdown: {names} split the pot of {state.pot} ({best.total} each, {how})"
    else:
        note = f"Showdown: {names} wins the pot of {state.pot} with {best.label}" + \
            (f" ({how})" if how else "")
    return _pay(state, winners, details, note)


def _pay(state: State, winners: list[int], details: dict[int, str], note: str) -> State:
    """The pot to the winners (S6 split and odd chips), results clockwise from the opener's left."""
    order = from_openers_left(state)
    shares = split_pot(state.pot, [s for s in order if s in winners])
    money = tuple(m + shares.get(s, 0) for s, m in enumerate(state.money, start=1))
    outcome = "won" if len(winners) == 1 else "split"
    results = tuple(
        SeatResult(s, outcome if s in winners else "lost", shares.get(s, 0) - state.bet,
                   details[s] if s in winners else _loser_detail(state, s, details))
        for s in order)
    notes = [note]
    if len(winners) > 1 and state.pot % len(winners):
        odd = [state.names[s - 1] for s in order if s in winners][:state.pot % len(winners)]
        notes.append(f"Odd chip(s) clockwise from the opener's left: {', '.join(odd)}")
    return _end_hand(evolve(state, money=money, pot=0), results, winners, notes)


def _loser_detail(state: State, seat: int, details: dict[int, str]) -> str:
    """A losing hand's detail: its suit total when its cards are known (never "Blitz" or "31",
    which did not win as such), else what beat it."""
    hand = state.hand(seat)
    if len(hand) == 3:
        return describe(hand, as_instant=False)
    return "lost to an instant win" if any(instant_win(state.hand(s)) for s in details) \
        else "hand not shown"


def _end_hand(state: State, results: tuple[SeatResult, ...], winners: list[int],
              notes: list[str]) -> State:
    """S7, S8: does the game end, and who wins it; else S9: the next opener clockwise."""
    reasons = []
    if state.sudden:
        reasons.append("the sudden-death hand is over")
    broke = [state.names[s] for s, m in enumerate(state.money) if m == 0]
    if broke:
        reasons.append(f"{_and(broke)} {'has' if len(broke) == 1 else 'have'} no chips")
    if state.options.max_hands is not None and state.number >= state.options.max_hands:
        reasons.append(f"{state.options.max_hands} hand(s) played")
    if not reasons:
        result = RoundResult(state.number, state.opener, results, state.money,
                             clockwise(state.opener, state.seat_count), notes=tuple(notes))
        return evolve(_new_hand(state, clockwise(state.opener, state.seat_count),
                                 state.number + 1), round_result=result)
    contenders = winners if state.sudden else range(1, state.seat_count + 1)
    top = max(state.money[s - 1] for s in contenders)
    champions = tuple(s for s in contenders if state.money[s - 1] == top)
    state = evolve(state, phase=OVER, finished=True, game_winners=champions, pending="")
    notes.append(f"Game over ({'; '.join(reasons)}): {_winners_text(state)}")
    result = RoundResult(state.number, state.opener, results, state.money, None,
                         notes=tuple(notes))
    return evolve(state, round_result=result)


def _winners_text(state: State) -> str:
    names = [state.names[s - 1] for s in state.game_winners]
    chips = state.money[state.game_winners[0] - 1]
    if len(names) == 1:
        return f"{names[0]} wins the game with {chips} chips"
    return f"{_and(names)} share the win with {chips} chips each"


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


HANDLERS = {"deal": _deal, "bet": _bet, "draw": _draw, "take": _take, "discard": _discard,
            "turn": _turn, "turns_taken": _turns_taken, "show": _show, "settle": _settle,
            "instant_win": _instant_win, "showdown": _showdown}


def _game_over(state: State) -> str:
    return f"the game is over: {_winners_text(state)}"


def apply(state: State, event: dict[str, Any]) -> State:
    """The state after ``event``, or RuleError with the reason (the state is unchanged)."""
    return dispatch(TITLE, HANDLERS, state, event, _game_over)


# ---------------------------------------------------------------- what the table shows


def legal_actions(state: State) -> list[Action]:
    if state.finished:
        return []
    names = state.names
    acts: list[Action] = []
    if state.phase == OPENING:
        if state.cards_entry:
            acts += [Action("deal", f"Card for {names[s - 1]}", s, asks="card")
                     for s in from_openers_left(state) if len(state.hand(s)) < 3]
        if not state.bet:
            low, high = bet_limits(state)
            acts.append(Action("bet", "Opening bet", state.opener, asks="amount",
                               minimum=low, maximum=high))
    elif state.phase == PLAY and state.cards_entry:
        seat = to_act(state)
        assert seat is not None
        if not state.pending:
            acts.append(Action("draw", "Draw from the pile", seat, asks="card"))
            if state.discards:
                acts.append(Action("take", f"Take the {state.discards[-1].code}", seat))
        else:
            hand = state.hand(seat)
            choices = hand[:-1] if state.pending == TAKEN else hand
            acts += [Action("discard", f"Discard {c.code}", seat, fixed=(("card", c.code),))
                     for c in choices]
    elif state.phase == PLAY:
        acts += _summary_play_actions(state)
    elif state.phase == SHOWDOWN:
        acts += [Action("show", f"{names[s - 1]} shows a card", s, asks="card")
                 for s in from_openers_left(state) if not _may_show(state, s)]
    return acts


def _summary_play_actions(state: State) -> list[Action]:
    names = state.names
    partial, full = _open_claims(state)
    if partial:
        seat = partial[0]
        return [Action("show", f"{names[seat - 1]} shows a card", seat, asks="card")]
    shows = [Action("show", f"{names[s - 1]} reveals an instant win", s, asks="card")
             for s in from_openers_left(state) if not _may_show(state, s)]
    if full:
        return [*shows, Action("settle", "Pay the instant win(s) after the deal")]
    seat = to_act(state)
    return [Action("turn", f"{names[seat - 1]} took a turn", seat), *shows]  # type: ignore[index]


def _prompt(state: State) -> str:
    names = state.names
    if state.finished:
        return f"Game over: {_winners_text(state)}"
    opener = names[state.opener - 1]
    if state.phase == OPENING:
        parts = []
        if state.cards_entry:
            short = [names[s - 1] for s in from_openers_left(state) if len(state.hand(s)) < 3]
            if short:
                parts.append(f"deal 3 cards to {', '.join(short)}")
        if not state.bet:
            low, high = bet_limits(state)
            if state.sudden:
                parts.append(f"sudden death: {opener} opens with the forced bet of 1")
            else:
                parts.append(f"{opener} opens: bet {low}–{high}, everyone antes the same")
        text = "; ".join(parts)
        return text[:1].upper() + text[1:]
    if state.phase == SHOWDOWN:
        missing = [names[s - 1] for s in from_openers_left(state) if len(state.hand(s)) < 3]
        return f"Showdown: enter the hands of {', '.join(missing)}"
    seat = to_act(state)
    who = names[seat - 1]  # type: ignore[index]
    count = f"turn {state.turns_taken + 1} of {total_turns(state)}"
    if state.cards_entry:
        if state.pending:
            return f"{who} ({count}): discard a card"
        if not state.discards:
            return f"{who} ({count}): draw from the pile (the discard pile is empty)"
        return f"{who} ({count}): draw from the pile or take the {state.discards[-1].code}"
    partial, full = _open_claims(state)
    if partial:
        return f"{names[partial[0] - 1]} is revealing an instant win: enter the cards"
    if full:
        return "Instant win after the deal: enter any other winner's cards, then settle"
    return f"{who} ({count}): tap when the turn is taken, or enter a revealed 31 or Blitz"


def _seat_status(state: State, seat: int) -> str:
    if state.finished:
        return "winner" if seat in state.game_winners else "out" if not state.money[seat - 1] \
            else "played"
    if seat == to_act(state):
        return "to act"
    hand = state.hand(seat)
    if len(hand) == 3 and not state.cards_entry:
        return "shown"
    return "waiting"


def view(state: State) -> TableView:
    seats = []
    for seat in range(1, state.seat_count + 1):
        hand = state.hand(seat)
        value = (instant_win(hand) or score(hand).label) if hand else ""
        seats.append(SeatView(
            seat=seat, name=state.names[seat - 1], money=state.money[seat - 1],
            cards=tuple(c.code for c in hand), hidden=(False,) * len(hand), value=value,
            status=_seat_status(state, seat),
            wagers=(("ante", state.bet),) if state.bet else (),
            is_dealer=seat == state.opener, role="opener" if seat == state.opener else ""))
    info = [f"Hand {state.number}; {state.names[state.opener - 1]} opens"]
    if state.sudden:
        info.append("Sudden death: bet 1, 5 turns each, the game ends after this hand")
    if state.bet:
        each = "" if total_turns(state) == turns_each(state) else " each"
        info.append(f"Bet {state.bet}: {turns_each(state)} turn(s){each}; "
                    f"{total_turns(state) - state.turns_taken} left")
    if state.cards_entry and state.phase == PLAY:
        top = state.discards[-1].code if state.discards else "none"
        info.append(f"Discard pile top: {top}; draw pile: {len(unseen(state))} cards")
    usable = tuple(c.code for c in unseen(state))
    return TableView(
        title=TITLE, round_number=state.number, phase=state.phase, prompt=_prompt(state),
        seats=tuple(seats), pot=state.pot, dealer_seat=state.opener, to_act=to_act(state),
        info=tuple(info), usable_cards=usable)


def money_total(state: State) -> int:
    """The players' chips and the pot: conserved by every hand."""
    return sum(state.money) + state.pot


DEMO = {
    "options": {},
    "seats": [{"name": "Ann", "money": 20}, {"name": "Bea", "money": 20},
              {"name": "Cy", "money": 20}, {"name": "Dora", "money": 20}],
    "first_dealer": 1,
}
