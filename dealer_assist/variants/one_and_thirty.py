"""One and Thirty, and Bone Ace (rule text one-and-thirty-bone-ace.txt, rulings O1-O10;
docs/games/one_and_thirty.md).

A pot game. Seats are numbered clockwise; "to the left" is the next seat number. Each seat has
an age order (1 = oldest). Every hand: everyone in the game puts the stake in the pot (O1), the
dealer deals three cards each (dealer last), players stick or have it in turn, and the pot goes
to a 31 at once (O5), to the last player not out (O6), or at the showdown to the closest to 31,
ties to the older (O7).

Events (besides the engine's void and end_session); docs/games/one_and_thirty.md has examples:

- ``draw_for_deal {seat, card}``: without a first dealer, each player draws; lowest deals (O2,
  Ace low; in Bone Ace the Ace of Hearts is highest, O8); players tied for lowest draw again,
  from a fresh deck (O3).
- ``ante``: everyone in the game puts the stake in the pot (O1).
- ``deal {seat, card}``: the next card of the deal, from the dealer's left round to the dealer;
  ``card: null`` = dealt face down and not entered. Bone Ace: the third card is entered (O8).
- ``deal_face_down``: all the face-down cards of the deal at once, none entered.
- ``have {seat, card}``: the player to act has a card (``null``: not shown).
- ``stick {seat}``: the player to act sticks.
- ``reveal {seat, card}``: enter a seat's first face-down card: the player to act (to show 31 or
  a hand over 31), or at the showdown each player still in.
- ``settle``: the dealer confirms the result; the pot is paid and the next dealer named.
"""

from __future__ import annotations

from dataclasses import dataclass
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
    event_seat,
    evolve,
    opt,
    replace_at,
)

NAME = "one_and_thirty"
TITLE = "One and Thirty"
RULES_FILE = "one-and-thirty-bone-ace.txt"
SEAT_FIELDS: tuple[str, ...] = ("age",)
MIN_SEATS, MAX_SEATS = 2, 8


@dataclass(frozen=True)
class Options:
    stake: int = opt(1, "The agreed stake every player, dealer included, puts in the pot "
                     "before each hand (O1). A player who cannot pay it is out of the game.",
                     min=1)
    winner_deals: bool = opt(False, "The winner of a hand deals the next; otherwise the deal "
                             "passes to the left (O3).")
    double_stake: bool = opt(False, "Double stake for a 31: each other player pays the winner "
                             "one more stake (O5).")
    bone_ace: bool = opt(False, "Bone Ace: the third card is dealt face up and the highest "
                         "face-up card plays first (O8).")


# ---------------------------------------------------------------- values and ranks (O2, O8)


def card_value(card: Card) -> int:
    """O2: Ace 1, J Q K 10, others their number."""
    return card.pips


def hand_total(cards: tuple[Card | None, ...]) -> int:
    """The total of the cards entered so far."""
    return sum(card_value(c) for c in cards if c is not None)


def draw_rank(card: Card) -> int:
    """O2: rank for "lowest card" in the draw for the deal: Ace 1 (lowest) ... King 13."""
    return RANKS.index(card.rank) + 1


def bone_rank(card: Card) -> int:
    """O8: the Ace of Hearts above all (14), then K Q J 10 ... 2, other Aces lowest (1)."""
    return 14 if card.code == "AH" else draw_rank(card)


# ---------------------------------------------------------------- state

DRAW, STAKES, DEAL, PLAY, SHOWDOWN, SETTLE, OVER = (
    "draw", "stakes", "deal", "play", "showdown", "settle", "over")
WAITING, STUCK, OUT = "waiting", "stuck", "out"
ONE_DECK = Shoe(1)  # one 52-card deck (the rule text's materials)


@dataclass(frozen=True, slots=True)
class Hand:
    cards: tuple[Card | None, ...] = ()
    status: str = WAITING

    @property
    def known(self) -> bool:
        return None not in self.cards


@dataclass(frozen=True, slots=True)
class State:
    options: Options
    names: tuple[str, ...]
    ages: tuple[int, ...]
    money: tuple[int, ...]
    out: tuple[bool, ...]  # out of the game: cannot pay the stake
    dealer: int | None  # None while drawing for the first deal
    number: int
    phase: str
    players: tuple[int, ...] = ()  # this hand, in deal order: dealer's left round to the dealer
    order: tuple[int, ...] = ()  # this hand, in play order (set when the deal is complete)
    hands: tuple[Hand, ...] = ()
    pot: int = 0
    before: tuple[int, ...] = ()  # money at the start of the hand, for the results
    shoe: Shoe = ONE_DECK
    drawers: tuple[int, ...] = ()  # who draws for the deal in this draw
    drawn: tuple[Card | None, ...] = ()  # per seat: the card drawn in this draw
    winner: int | None = None
    win_case: str = ""  # "31", "last" (everyone else out), or "31 shown" (at the showdown, O5)
    round_result: RoundResult | None = None
    finished: bool = False

    @property
    def seat_count(self) -> int:
        return len(self.names)

    @property
    def between_rounds(self) -> bool:
        return self.phase in (DRAW, STAKES, OVER)

    def hand(self, seat: int) -> Hand:
        return self.hands[seat - 1]


def clockwise(seat: int, count: int) -> int:
    """The seat to the left (O3, O9): seats are numbered clockwise."""
    return 1 if seat == count else seat + 1


def _round_from(first: int, seats: tuple[int, ...], count: int) -> tuple[int, ...]:
    """``seats`` in clockwise order starting at ``first``."""
    ordered, seat = [], first
    for _ in range(count):
        if seat in seats:
            ordered.append(seat)
        seat = clockwise(seat, count)
    return tuple(ordered)


def _in_game(state: State) -> tuple[int, ...]:
    return tuple(s for s in range(1, state.seat_count + 1) if not state.out[s - 1])


def _new_hand(state: State, dealer: int, number: int) -> State:
    count = state.seat_count
    playing = _in_game(state)
    players = _round_from(clockwise(dealer, count), playing, count)
    return evolve(
        state, dealer=dealer, number=number, phase=STAKES, players=players, order=(),
        hands=(Hand(),) * count, pot=0, before=state.money, shoe=state.shoe.collect(),
        drawers=(), drawn=(), winner=None, win_case="")


def start(options: Options, seats: tuple[SeatSpec, ...], first_dealer: int | None) -> State:
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise RuleError(f"One and Thirty needs {MIN_SEATS} to {MAX_SEATS} players, "
                        f"not {len(seats)}")
    out = tuple(s.money < options.stake for s in seats)
    if sum(not o for o in out) < 2:
        raise RuleError(f"at least two players need the stake of {options.stake} to play")
    state = State(
        options=options, names=tuple(s.name for s in seats),
        ages=tuple(s.age or i for i, s in enumerate(seats, start=1)),
        money=tuple(s.money for s in seats), out=out, dealer=None, number=1, phase=DRAW)
    if first_dealer is None:
        return _new_draw(state, _in_game(state))
    if not 1 <= first_dealer <= len(seats):
        raise RuleError(f"the first dealer must be a seat from 1 to {len(seats)}")
    if out[first_dealer - 1]:
        raise RuleError(f"{seats[first_dealer - 1].name} cannot pay the stake and cannot deal")
    return _new_hand(state, first_dealer, 1)


# ---------------------------------------------------------------- the draw for the deal (O3)


def _new_draw(state: State, drawers: tuple[int, ...]) -> State:
    return evolve(state, phase=DRAW, drawers=drawers, drawn=(None,) * state.seat_count,
                  shoe=state.shoe.collect())


def _draw_for_deal(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "card"))
    if state.phase != DRAW:
        raise RuleError("the first dealer is already chosen")
    seat = event_seat(event, state.seat_count)
    who = state.names[seat - 1]
    if seat not in state.drawers:
        tied = ", ".join(state.names[s - 1] for s in state.drawers)
        raise RuleError(f"{who} does not draw now; drawing: {tied}")
    if state.drawn[seat - 1] is not None:
        raise RuleError(f"{who} has already drawn a card")
    card = event_card(event)
    state = evolve(state, shoe=state.shoe.deal(card),
                   drawn=replace_at(state.drawn, seat - 1, card))
    cards = {s: state.drawn[s - 1] for s in state.drawers}
    if None in cards.values():
        return state
    rank = bone_rank if state.options.bone_ace else draw_rank  # O8: everywhere in Bone Ace
    lowest = min(rank(c) for c in cards.values() if c is not None)
    tied = tuple(s for s, c in cards.items() if c is not None and rank(c) == lowest)
    if len(tied) > 1:  # O3: redraw on ties, only those tied, from a fresh deck
        return _new_draw(state, tied)
    return _new_hand(state, tied[0], state.number)


# ---------------------------------------------------------------- stakes and the deal (O1, O8)


def _ante(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ())
    if state.phase != STAKES:
        raise RuleError("draw for the first dealer first" if state.phase == DRAW
                        else "the stakes for this hand are already in the pot")
    stake = state.options.stake
    money = state.money
    for seat in state.players:
        money = add_at(money, seat - 1, -stake)
    return evolve(state, money=money, pot=stake * len(state.players), phase=DEAL)


def _next_deal(state: State) -> tuple[int, int] | None:
    """(seat, card index 0-2) of the next card of the deal, or None when it is complete."""
    dealt = sum(len(state.hand(s).cards) for s in state.players)
    if dealt >= 3 * len(state.players):
        return None
    return state.players[dealt % len(state.players)], dealt // len(state.players)


def _deal_slot(state: State) -> tuple[int, int]:
    """The next card of a deal in progress."""
    slot = _next_deal(state)
    assert slot is not None, "the deal is complete"
    return slot


def _face_up(state: State, index: int) -> bool:
    return state.options.bone_ace and index == 2


def _add_card(state: State, seat: int, card: Card | None) -> State:
    shoe = state.shoe if card is None else state.shoe.deal(card)
    hand = state.hand(seat)
    hands = replace_at(state.hands, seat - 1, evolve(hand, cards=(*hand.cards, card)))
    return evolve(state, shoe=shoe, hands=hands)


def _deal(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "card"))
    seat = event_seat(event, state.seat_count)
    if state.phase != DEAL:
        if state.phase == STAKES:
            raise RuleError("the stakes go in the pot before the deal")
        if state.phase == PLAY:
            raise RuleError("the deal is over: a player who has it is dealt with 'have'")
        raise RuleError("no cards are dealt now")
    target, index = _deal_slot(state)
    if seat != target:
        raise RuleError(f"the next card goes to {state.names[target - 1]} "
                        "(the deal goes round from the dealer's left, dealer last)")
    card = event_card(event, allow_hidden=not _face_up(state, index))
    return _after_deal_card(_add_card(state, seat, card))


def _deal_face_down(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ())
    if state.phase != DEAL:
        raise RuleError("no cards are dealt now")
    nxt = _next_deal(state)
    if nxt is not None and _face_up(state, nxt[1]):
        raise RuleError("Bone Ace: the third cards are dealt face up; enter each one")
    while nxt is not None and not _face_up(state, nxt[1]):
        state = _add_card(state, nxt[0], None)
        nxt = _next_deal(state)
    return _after_deal_card(state)


def bone_ace_first(state: State) -> int:
    """O8: the seat with the highest face-up card; equal ranks go to the older player."""
    def face_up(seat: int) -> Card:
        card = state.hand(seat).cards[2]
        assert card is not None, "Bone Ace third cards are entered"
        return card

    return max(state.players, key=lambda s: (bone_rank(face_up(s)), -state.ages[s - 1]))


def play_order(state: State) -> tuple[int, ...]:
    """O4, O9: from the oldest player round to the left, dealer last; Bone Ace (O8): from the
    highest face-up card round to the left, dealer in normal turn."""
    count = state.seat_count
    if state.options.bone_ace:
        return _round_from(bone_ace_first(state), state.players, count)
    others = tuple(s for s in state.players if s != state.dealer)
    oldest = min(others, key=lambda s: state.ages[s - 1])
    return (*_round_from(oldest, others, count), state.dealer)  # type: ignore[return-value]


def _after_deal_card(state: State) -> State:
    if _next_deal(state) is not None:
        return state
    return evolve(state, phase=PLAY, order=play_order(state))


# ---------------------------------------------------------------- play (O4-O6, O9)


def current_player(state: State) -> int | None:
    if state.phase != PLAY:
        return None
    return next((s for s in state.order if state.hand(s).status == WAITING), None)


def _set_status(state: State, seat: int, status: str) -> State:
    hands = replace_at(state.hands, seat - 1, evolve(state.hand(seat), status=status))
    return evolve(state, hands=hands)


def _check_turn(state: State, seat: int) -> None:
    who = state.names[seat - 1]
    if state.phase != PLAY:
        raise RuleError(f"{who} cannot play now (the hand is in its {state.phase} phase)")
    if seat not in state.players:
        raise RuleError(f"{who} is not in this hand")
    current = current_player(state)
    if seat != current:
        if state.hand(seat).status != WAITING:
            raise RuleError(f"{who} has finished playing this hand")
        raise RuleError(f"it is {state.names[current - 1]}'s turn, not {who}'s")  # type: ignore[operator]


def least_total(cards: tuple[Card | None, ...]) -> int:
    """The smallest the hand can be: the cards shown, and at least 1 per face-down card."""
    return hand_total(cards) + cards.count(None)


def _after_card(state: State, seat: int) -> State:
    """O5: over 31 is out at once (certain even with cards face down); exactly 31 (every card
    shown) wins at once."""
    hand = state.hand(seat)
    total = hand_total(hand.cards)
    if least_total(hand.cards) > 31:
        return _after_turn(_set_status(state, seat, OUT))
    if total == 31 and hand.known:
        return evolve(state, phase=SETTLE, winner=seat, win_case="31")
    return state


def _after_turn(state: State) -> State:
    """O6: when every other player is out, the one left wins without drawing."""
    left = [s for s in state.players if state.hand(s).status != OUT]
    if len(left) == 1:
        return evolve(state, phase=SETTLE, winner=left[0], win_case="last")
    if state.phase == PLAY and current_player(state) is None:
        return evolve(state, phase=SHOWDOWN)
    return state


def _have(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "card"))
    seat = event_seat(event, state.seat_count)
    _check_turn(state, seat)
    card = event_card(event, allow_hidden=True)
    return _after_card(_add_card(state, seat, card), seat)


def _stick(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat",))
    seat = event_seat(event, state.seat_count)
    _check_turn(state, seat)
    return _after_turn(_set_status(state, seat, STUCK))


def _reveal(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "card"))
    seat = event_seat(event, state.seat_count)
    who = state.names[seat - 1]
    hand = state.hand(seat) if state.hands else Hand()
    if hand.known:
        raise RuleError(f"{who} has no face-down card to reveal")
    if state.phase == PLAY:
        if seat != current_player(state):
            raise RuleError(f"{who}'s cards are shown at the showdown; now only the player "
                            "to act shows cards")
    elif state.phase != SHOWDOWN or hand.status != STUCK:
        raise RuleError(f"{who}'s cards are not shown now")
    card = event_card(event)
    index = hand.cards.index(None)
    shoe = state.shoe.deal(card)
    cards = replace_at(hand.cards, index, card)
    hands = replace_at(state.hands, seat - 1, evolve(hand, cards=cards))
    state = evolve(state, shoe=shoe, hands=hands)
    if state.phase == PLAY:
        return _after_card(state, seat)
    if least_total(state.hand(seat).cards) > 31:  # stuck over 31 without saying so: out
        return _after_turn(_set_status(state, seat, OUT))
    return state


# ---------------------------------------------------------------- settlement (O5, O7, O3)


def showdown_winner(state: State) -> int:
    """O7: the closest to 31 without going over; ties go to the older player."""
    contenders = [s for s in state.order if state.hand(s).status == STUCK]
    return max(contenders,
               key=lambda s: (hand_total(state.hand(s).cards), -state.ages[s - 1]))


def _settle(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ())
    if state.phase not in (SHOWDOWN, SETTLE):
        raise RuleError(f"the hand is not over yet ({_prompt(state)})")
    if state.phase == SHOWDOWN:
        hidden = [state.names[s - 1] for s in state.order
                  if state.hand(s).status == STUCK and not state.hand(s).known]
        if hidden:
            raise RuleError(f"reveal the cards of {', '.join(hidden)} before settling")
    winner = state.winner if state.phase == SETTLE else showdown_winner(state)
    assert winner is not None
    if state.phase == SHOWDOWN and hand_total(state.hand(winner).cards) == 31:
        state = evolve(state, win_case="31 shown")  # O5: a 31 first shown at the showdown
    stake = state.options.stake
    money = add_at(state.money, winner - 1, state.pot)
    notes: list[str] = []
    if state.win_case in ("31", "31 shown") and state.options.double_stake:  # O5 option
        for seat in state.players:
            if seat != winner:
                pay = min(stake, money[seat - 1])
                money = add_at(add_at(money, seat - 1, -pay), winner - 1, pay)
                if pay < stake:
                    notes.append(f"{state.names[seat - 1]} could pay only {pay} of the "
                                 "double stake")
    results = tuple(
        SeatResult(s, "won" if s == winner else "lost", money[s - 1] - state.before[s - 1],
                   _detail(state, s, winner))
        for s in state.order)
    out = tuple(o or m < stake for o, m in zip(state.out, money, strict=True))
    for seat in range(1, state.seat_count + 1):
        if out[seat - 1] and not state.out[seat - 1]:
            notes.append(f"{state.names[seat - 1]} cannot pay the stake of {stake} and is out "
                         "of the game")
    state = evolve(state, money=money, out=out, pot=0)
    finished = sum(not o for o in out) < 2
    next_dealer = None if finished else _next_dealer(state, winner)
    result = RoundResult(state.number, state.dealer, results, money, next_dealer,
                         notes=tuple(notes))
    if finished:
        return evolve(state, phase=OVER, round_result=result, finished=True)
    return evolve(_new_hand(state, next_dealer, state.number + 1),  # type: ignore[arg-type]
                  round_result=result)


def _next_dealer(state: State, winner: int) -> int:
    """O3: the deal passes to the left (skipping players out of the game); option: the winner."""
    if state.options.winner_deals:
        return winner
    seat = clockwise(state.dealer, state.seat_count)  # type: ignore[arg-type]
    while state.out[seat - 1]:
        seat = clockwise(seat, state.seat_count)
    return seat


def _detail(state: State, seat: int, winner: int) -> str:
    hand = state.hand(seat)
    total = hand_total(hand.cards)
    if seat == winner:
        if state.win_case in ("31", "31 shown"):
            shown = ", first shown at the showdown" if state.win_case == "31 shown" else ""
            return "31" + shown + (", double stake" if state.options.double_stake else "")
        if state.win_case == "last":
            return "everyone else out"
        tied = [s for s in state.order if state.hand(s).status == STUCK and s != seat
                and hand_total(state.hand(s).cards) == total]
        return f"{total}, tie to the older" if tied else str(total)
    if hand.status == OUT:
        return f"out ({total})" if hand.known else "out"
    if hand.status == STUCK:
        return str(total) if hand.known else "stuck"
    return "did not play"


# ---------------------------------------------------------------- the engine's entry point

HANDLERS = {"draw_for_deal": _draw_for_deal, "ante": _ante, "deal": _deal,
            "deal_face_down": _deal_face_down, "have": _have, "stick": _stick,
            "reveal": _reveal, "settle": _settle}


def _game_over(state: State) -> str:
    return "the game is over: fewer than two players can pay the stake"


def apply(state: State, event: dict[str, Any]) -> State:
    """The state after ``event``, or RuleError with the reason (the state is unchanged)."""
    return dispatch(TITLE, HANDLERS, state, event, _game_over)


# ---------------------------------------------------------------- what the table shows


def legal_actions(state: State) -> list[Action]:
    acts: list[Action] = []
    names = state.names
    if state.phase == DRAW:
        acts.extend(Action("draw_for_deal", f"{names[s - 1]} draws for the deal", s,
                           asks="card")
                    for s in state.drawers if state.drawn[s - 1] is None)
    elif state.phase == STAKES:
        acts.append(Action("ante", f"Stakes in: {state.options.stake} each"))
    elif state.phase == DEAL:
        seat, index = _deal_slot(state)
        if _face_up(state, index):
            acts.append(Action("deal", f"Face-up card to {names[seat - 1]}", seat, asks="card"))
        else:
            acts.append(Action("deal", f"Card to {names[seat - 1]}", seat, asks="card"))
            acts.append(Action("deal", f"Face-down card to {names[seat - 1]}", seat,
                               fixed=(("card", None),)))
            acts.append(Action("deal_face_down", "Deal the face-down cards"))
    elif state.phase == PLAY:
        seat = current_player(state)
        assert seat is not None
        acts.append(Action("stick", "Stick", seat))
        acts.append(Action("have", "Have it", seat, asks="card"))
        acts.append(Action("have", "Have it (card not shown)", seat, fixed=(("card", None),)))
        if not state.hand(seat).known:
            acts.append(Action("reveal", "Show a face-down card", seat, asks="card"))
    elif state.phase == SHOWDOWN:
        hidden = [s for s in state.order
                  if state.hand(s).status == STUCK and not state.hand(s).known]
        acts.extend(Action("reveal", f"Show {names[s - 1]}'s card", s, asks="card")
                    for s in hidden)
        if not hidden:
            acts.append(Action("settle", "Settle the hand"))
    elif state.phase == SETTLE:
        acts.append(Action("settle", "Settle the hand"))
    return acts


def _prompt(state: State) -> str:
    names = state.names
    if state.finished:
        richest = max(range(state.seat_count), key=lambda i: state.money[i])
        return f"Game over: {names[richest]} has the most money"
    if state.phase == DRAW:
        waiting = [names[s - 1] for s in state.drawers if state.drawn[s - 1] is None]
        redraw = "Redraw for the tie" if len(state.drawers) < len(_in_game(state)) else "Draw"
        return f"{redraw} for the deal (lowest deals): {', '.join(waiting)} to draw"
    if state.phase == STAKES:
        return (f"Stakes in: {state.options.stake} from each of {len(state.players)} players; "
                f"{names[state.dealer - 1]} deals")  # type: ignore[operator]
    if state.phase == DEAL:
        seat, index = _deal_slot(state)
        way = "face up" if _face_up(state, index) else "face down"
        return f"Deal card {index + 1} to {names[seat - 1]} ({way})"
    if state.phase == PLAY:
        seat = current_player(state)
        return f"{names[seat - 1]}: stick or have it?"  # type: ignore[operator]
    if state.phase == SHOWDOWN:
        hidden = [names[s - 1] for s in state.order
                  if state.hand(s).status == STUCK and not state.hand(s).known]
        if hidden:
            return f"Showdown: reveal the cards of {', '.join(hidden)}"
        return f"Showdown: {names[showdown_winner(state) - 1]} wins {state.pot}; confirm"
    why = "31" if state.win_case == "31" else "everyone else is out"
    return f"{names[state.winner - 1]} wins ({why}); confirm the settlement"  # type: ignore[operator]


def _seat_value(hand: Hand) -> str:
    if not hand.cards:
        return ""
    total = hand_total(hand.cards)
    if all(c is None for c in hand.cards):
        return "?"
    shown = str(total) if hand.known else f"{total} + ?"
    return f"{shown} — out" if least_total(hand.cards) > 31 else shown


def _seat_status(state: State, seat: int) -> str:
    if state.out[seat - 1] and seat not in state.players:
        return "out of the game"
    if state.phase == DRAW:
        return "to draw" if seat in state.drawers and state.drawn[seat - 1] is None else "drawn"
    if seat == state.winner or (state.phase == SHOWDOWN and seat == _showdown_leader(state)):
        return "wins"
    if seat == current_player(state):
        return "to act"
    return {WAITING: "waiting", STUCK: "stuck", OUT: "out"}[state.hand(seat).status]


def _showdown_leader(state: State) -> int | None:
    if any(not state.hand(s).known for s in state.order if state.hand(s).status == STUCK):
        return None
    return showdown_winner(state)


def view(state: State) -> TableView:
    seats = []
    for seat in range(1, state.seat_count + 1):
        if state.phase == DRAW:
            drawn = state.drawn[seat - 1]
            cards: tuple[Card | None, ...] = () if drawn is None else (drawn,)
            hand = Hand(cards)
        else:
            hand = state.hand(seat)
        is_dealer = seat == state.dealer
        stake = state.options.stake if seat in state.players and state.phase not in (
            DRAW, STAKES) else 0
        seats.append(SeatView(
            seat=seat, name=state.names[seat - 1], money=state.money[seat - 1],
            cards=tuple(None if c is None else c.code for c in hand.cards),
            hidden=tuple(c is None for c in hand.cards),
            value="" if state.phase == DRAW else _seat_value(hand),
            status=_seat_status(state, seat), wagers=(("stake", stake),) if stake else (),
            is_dealer=is_dealer, role="dealer" if is_dealer else "",
            extra=f"age {state.ages[seat - 1]}"))
    order = ", ".join(state.names[s - 1] for s in state.order)
    info = (f"Hand {state.number}; stake {state.options.stake}",
            *((f"Play order: {order}",) if order else ()))
    to_act = current_player(state)
    return TableView(
        title=TITLE + (" (Bone Ace)" if state.options.bone_ace else ""),
        round_number=state.number, phase=state.phase, prompt=_prompt(state), seats=tuple(seats),
        pot=state.pot, dealer_seat=state.dealer, to_act=to_act, info=info,
        usable_cards=tuple(c.code for c in state.shoe.available()))


def money_total(state: State) -> int:
    """The players' money plus the pot (conserved by every hand)."""
    return sum(state.money) + state.pot


DEMO = {
    "options": {"stake": 1},
    "seats": [{"name": "Ann", "money": 20, "age": 2}, {"name": "Bea", "money": 20, "age": 4},
              {"name": "Cy", "money": 20, "age": 1}, {"name": "Dora", "money": 20, "age": 3}],
    "first_dealer": 1,
}
