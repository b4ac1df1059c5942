"""31 Classic (rule text 31-classic-washington.txt, rulings C1-C11; docs/games/classic31.md).

A house-banked table game: up to six players at positions 1-6 (vacant positions are skipped)
play against the house, which is not a seat. Each player must Ante and may add a Natural 31
Bonus and a 4 Card Royal Family Bonus; after three cards a player plays (a Play wager equal to
the Ante) or folds; the Draw card is the fourth card. Hand values, categories and pay tables
are in ``classic31_tables`` (shared with the analyser).

The dealer deals face down, so the app records cards as they are exposed. Events (besides the
engine's void, end_session and chip_count) name a player by ``seat`` (the player's number in the
session's list of seats, 1..N) or by ``position`` (the table position 1-6), not both: with Ann at
position 1 and Bea at position 3, ``{"seat": 2}`` and ``{"position": 3}`` are both Bea.

- ``ante {seat, amount}``, ``natural {seat, amount}``, ``royal {seat, amount}``: wagers before
  the deal, each within its table limits (options) and the player's money; the Ante comes first.
- ``deal_hands``: the packets go out (Dealer protocol 2-3); positions without an Ante sit out.
- ``play {seat}`` (Play wager = Ante) or ``fold {seat}``: each player's decision, in any order.
- ``deal {seat, card}``: the next exposed card of a position: cards 1-3 are its hand (any time
  after the deal), card 4 its Draw card (at settlement, once every decision is made). Cards are
  needed for a played hand (four), and for a folded hand with a live bonus (C7): three for the
  Natural 31 Bonus, four for the Royal Family bonus.
- ``handled_draw {seat}``: the player touched the Draw card (B.1): hand and wagers forfeited, a
  Play wager already placed is returned.
- ``misdeal {reason?}``: a player skipped or a card exposed in the deal (A.1, A.3, C9): every hand
  is dead, every wager is returned, the round ends. It is called during the initial deal: once
  any player has played, folded or forfeited the hand it is refused (C11). A hand dealt to a
  vacant position is moved forward by the dealer (A.2) before any card is exposed, so it needs
  no event.
- ``settle``: positions 6 to 1; within one, Natural, then Ante and Play, then Royal Family (C8).
- ``buy_in {seat, amount}``: a player buys chips between rounds (option ``buy_ins``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from dealer_assist.cards import Card, Shoe
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
from dealer_assist.variants.classic31_tables import (
    LABELS,
    NATURAL_TABLES,
    PLAY_TABLES,
    ROYAL_TABLES,
    ante_play_pays,
    facts,
    natural_category_of,
    natural_pays,
    odds_text,
    play_category_of,
    royal_category_of,
    royal_pays,
)

NAME = "classic31"
HOUSE_BANKED = True  # C10: the house banks; it is not a seat
TITLE = "31 Classic"
RULES_FILE = "31-classic-washington.txt"
SEAT_FIELDS: tuple[str, ...] = ("position",)
MIN_SEATS, MAX_SEATS = 1, 6
POSITIONS = range(1, 7)


@dataclass(frozen=True)
class Options:
    play_table: int = opt(1, "Play wager pay table #1-#5 of the manual; #1 suggested (C6).",
                          choices=tuple(PLAY_TABLES))
    natural_table: int = opt(1, "Natural 31 Bonus pay table #1-#3; #1 suggested (C6).",
                             choices=tuple(NATURAL_TABLES))
    royal_table: int = opt(1, "4 Card Royal Family Bonus pay table #1-#3; #1 suggested (C6).",
                           choices=tuple(ROYAL_TABLES))
    ante_min: int = opt(1, "Smallest Ante (C6 limits).", min=1)
    ante_max: int = opt(100, "Largest Ante; the Play wager equals the Ante (C6, C7).", min=1)
    natural_min: int = opt(1, "Smallest Natural 31 Bonus wager (C6).", min=1)
    natural_max: int = opt(25, "Largest Natural 31 Bonus wager (C6).", min=1)
    royal_min: int = opt(1, "Smallest 4 Card Royal Family Bonus wager (C6).", min=1)
    royal_max: int = opt(25, "Largest 4 Card Royal Family Bonus wager (C6).", min=1)
    buy_ins: bool = opt(True, "Players may buy chips between rounds; each buy-in is logged. "
                        "Without buy-ins the game ends when nobody can afford the minimum Ante.")

    def check(self) -> None:
        for wager in WAGERS:
            low, high = self.limits(wager)
            if high < low:
                raise RuleError(f"the largest {WAGER_NAMES[wager]} ({high}) is below the "
                                f"smallest ({low})")

    def limits(self, wager: str) -> tuple[int, int]:
        return getattr(self, f"{wager}_min"), getattr(self, f"{wager}_max")


WAGERS = ("ante", "natural", "royal")
WAGER_NAMES = {"ante": "Ante", "natural": "Natural 31 Bonus", "royal": "Royal Family bonus",
               "play": "Play wager"}

# ---------------------------------------------------------------- state

BETTING, DECISIONS, SETTLEMENT = "betting", "decisions", "settlement"
WAITING, OUT, IN, PLAYED, FOLDED, FORFEITED = (
    "waiting", "sat out", "to decide", "played", "folded", "forfeited")


@dataclass(frozen=True, slots=True)
class Spot:
    """One position's round: wagers, decision and the cards exposed so far (three, then Draw)."""

    ante: int = 0
    natural: int = 0
    royal: int = 0
    play: int = 0
    status: str = WAITING
    cards: tuple[Card, ...] = ()

    @property
    def staked(self) -> int:
        return self.ante + self.natural + self.royal + self.play

    @property
    def cards_needed(self) -> int:
        """Cards the settlement needs exposed: four when played, the live bonuses' when folded."""
        if self.status in (IN, PLAYED):
            return 4
        if self.status == FOLDED:
            return 4 if self.royal else 3 if self.natural else 0
        return 0


@dataclass(frozen=True, slots=True)
class State:
    options: Options
    names: tuple[str, ...]
    positions: tuple[int, ...]
    money: tuple[int, ...]
    house: int  # the house's result this session (+ = the house won)
    number: int
    phase: str
    spots: tuple[Spot, ...]
    shoe: Shoe
    round_result: RoundResult | None = None
    finished: bool = False

    @property
    def seat_count(self) -> int:
        return len(self.names)

    @property
    def between_rounds(self) -> bool:
        return self.phase == BETTING and all(s == Spot() for s in self.spots)

    def spot(self, seat: int) -> Spot:
        return self.spots[seat - 1]

    def available(self, seat: int) -> int:
        """Money not yet staked this round."""
        return self.money[seat - 1] - self.spot(seat).staked

    def deal_order(self) -> list[int]:
        """Seats by position, 1 to 6 (C8); settlement goes the other way."""
        return sorted(range(1, self.seat_count + 1), key=lambda s: self.positions[s - 1])


def start(options: Options, seats: tuple[SeatSpec, ...], first_dealer: int | None) -> State:
    """The house deals every round (C10): ``first_dealer`` means nothing here and is ignored."""
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise RuleError(f"31 Classic seats 1 to 6 players, not {len(seats)}")
    for s in seats:
        if s.position not in POSITIONS:
            raise RuleError(f"{s.name}: the table has positions 1 to 6, not {s.position}")
    if not options.buy_ins and all(s.money < options.ante_min for s in seats):
        raise RuleError(f"nobody has the minimum Ante ({options.ante_min}) to play")
    return State(
        options=options, names=tuple(s.name for s in seats),
        positions=tuple(s.position for s in seats),  # type: ignore[misc]
        money=tuple(s.money for s in seats), house=0, number=1, phase=BETTING,
        spots=(Spot(),) * len(seats), shoe=Shoe(1))


def _with_spot(state: State, seat: int, **changes: Any) -> State:
    spot = replace(state.spot(seat), **changes)
    return replace(state, spots=replace_at(state.spots, seat - 1, spot))


def _who(state: State, seat: int) -> str:
    return f"{state.names[seat - 1]} (position {state.positions[seat - 1]})"


# ---------------------------------------------------------------- wagers (Betting protocol 1-2)


def wager_limits(state: State, seat: int, wager: str) -> tuple[int, int]:
    """The smallest and largest ``wager`` the seat may place now; (0, 0) if none."""
    low, high = state.options.limits(wager)
    high = min(high, state.available(seat))
    return (low, high) if high >= low else (0, 0)


def _wager(state: State, event: dict[str, Any], wager: str) -> State:
    check_fields(event, ("seat", "amount"))
    seat = event_seat(event, state.seat_count)
    amount = event_int(event, "amount", minimum=1)
    who, name, spot = _who(state, seat), WAGER_NAMES[wager], state.spot(seat)
    if state.phase != BETTING:
        raise RuleError(f"wagers are placed before the deal; round {state.number} is dealt")
    if wager != "ante" and not spot.ante:
        raise RuleError(f"{who} must place the Ante first: it is required to play")
    if getattr(spot, wager):
        raise RuleError(f"{who} already has a {name} of {getattr(spot, wager)} "
                        "(void it to change it)")
    low, high = state.options.limits(wager)
    if not low <= amount <= high:
        raise RuleError(f"{who}'s {name} of {amount} is refused: the table limits are "
                        f"{low} to {high}")
    if amount > state.available(seat):
        raise RuleError(f"{who}'s {name} of {amount} is refused: only "
                        f"{state.available(seat)} left to wager")
    return _with_spot(state, seat, **{wager: amount})


def _deal_hands(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ())
    if state.phase != BETTING:
        raise RuleError("the hands are already dealt")
    if not any(s.ante for s in state.spots):
        raise RuleError("nobody has placed an Ante yet: the dealer waits for the wagers")
    spots = tuple(replace(s, status=IN if s.ante else OUT) for s in state.spots)
    return replace(state, spots=spots, phase=DECISIONS)


# ---------------------------------------------------------------- decisions (Betting protocol 4-5)


def _after_decision(state: State) -> State:
    if all(s.status != IN for s in state.spots):
        return replace(state, phase=SETTLEMENT)
    return state


def _undecided(state: State, event: dict[str, Any]) -> int:
    check_fields(event, ("seat",))
    seat = event_seat(event, state.seat_count)
    status = state.spot(seat).status
    if state.phase == BETTING:
        raise RuleError("the hands are not dealt yet")
    if status == OUT:
        raise RuleError(f"{_who(state, seat)} has no Ante and is not in this hand")
    if status == FORFEITED:
        raise RuleError(f"{_who(state, seat)}'s hand is forfeited")
    if status != IN:
        raise RuleError(f"{_who(state, seat)} has already {status}")
    return seat


def _play(state: State, event: dict[str, Any]) -> State:
    seat = _undecided(state, event)
    ante = state.spot(seat).ante
    if state.available(seat) < ante:
        raise RuleError(f"{_who(state, seat)} has only {state.available(seat)} left: the Play "
                        f"wager must equal the Ante ({ante}), so the hand can only fold")
    return _after_decision(_with_spot(state, seat, play=ante, status=PLAYED))


def _fold(state: State, event: dict[str, Any]) -> State:
    seat = _undecided(state, event)
    return _after_decision(_with_spot(state, seat, status=FOLDED))


# ---------------------------------------------------------------- cards as they are exposed


def _deal(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "card"))
    seat = event_seat(event, state.seat_count)
    card = event_card(event)
    spot, who = state.spot(seat), _who(state, seat)
    if state.phase == BETTING:
        raise RuleError("the hands are not dealt yet: place the wagers, then deal")
    if spot.status == OUT:
        raise RuleError(f"{who} has no Ante and no hand this round")
    if len(spot.cards) >= spot.cards_needed:
        if spot.status == FORFEITED:
            raise RuleError(f"{who}'s hand is forfeited: its cards are not needed")
        if spot.status == FOLDED and not spot.cards_needed:
            raise RuleError(f"{who} folded with no bonus wager: the cards are not needed")
        if spot.status == FOLDED and len(spot.cards) == 3:
            raise RuleError(f"{who} folded: the Natural 31 Bonus needs only the three cards")
        raise RuleError(f"{who}'s cards are all entered")
    if len(spot.cards) == 3 and state.phase == DECISIONS:
        raise RuleError(f"{who}'s Draw card is exposed at settlement, after every decision")
    return replace(_with_spot(state, seat, cards=(*spot.cards, card)),
                   shoe=state.shoe.deal(card))


# ---------------------------------------------------------------- irregularities (C9)


def _handled_draw(state: State, event: dict[str, Any]) -> State:
    """B.1: hand and wagers forfeited; a Play wager already placed is returned (at settlement)."""
    check_fields(event, ("seat",))
    seat = event_seat(event, state.seat_count)
    spot, who = state.spot(seat), _who(state, seat)
    if state.phase == BETTING:
        raise RuleError("no Draw card is dealt yet")
    if spot.status == OUT:
        raise RuleError(f"{who} has no hand this round")
    if spot.status == FORFEITED:
        raise RuleError(f"{who}'s hand is already forfeited")
    if spot.status == FOLDED and not (spot.natural or spot.royal):
        raise RuleError(f"{who} folded with no bonus wager: nothing is left to forfeit")
    return _after_decision(_with_spot(state, seat, status=FORFEITED))


def _decided(state: State) -> list[int]:
    """Seats that have played, folded or forfeited this round (a misdeal is then too late)."""
    return [s for s in state.deal_order() if state.spot(s).status in (PLAYED, FOLDED, FORFEITED)]


def _misdeal(state: State, event: dict[str, Any]) -> State:
    """A.1, A.3, C9: every hand is dead and every wager returned; the round is over."""
    check_fields(event, ("reason",))
    reason = event.get("reason", "")
    if not isinstance(reason, str):
        raise RuleError("a misdeal's reason is text")
    if state.phase == BETTING:
        raise RuleError("no hands are dealt yet, so there is no misdeal to call")
    decided = _decided(state)
    if decided:
        raise RuleError(f"a misdeal is called during the initial deal; {_who(state, decided[0])} "
                        f"has already {state.spot(decided[0]).status}, so it is too late (C11)")
    results = []
    for seat in reversed(state.deal_order()):
        in_hand = state.spot(seat).status != OUT
        results.append(SeatResult(seat, "misdeal" if in_hand else "sat out", 0,
                                  "every wager returned" if in_hand else "no Ante this round"))
    note = "misdeal: every hand is dead and every wager is returned"
    notes = (note + (f" ({reason.strip()})" if reason.strip() else ""),
             f"house: +0 this round, {state.house:+d} this session")
    return _next_round(state, tuple(results), 0, notes)


# ---------------------------------------------------------------- settlement (Dealer protocol 6)


@dataclass(frozen=True, slots=True)
class WagerLine:
    """One wager settled: its stake, the category it was settled on, the odds and the result."""

    wager: str  # "Natural", "Ante", "Play", "Royal Family"
    stake: int
    category: str
    odds: str  # "15-1", "1-1", "push", "lost", "forfeited", "returned"
    amount: int

    def text(self) -> str:
        return f"{self.wager} {self.stake}: {self.category}, {self.odds} {self.amount:+d}"


def _total_label(category: str, total: int) -> str:
    if "-" in category or category.startswith("under"):
        return f"{total} ({LABELS[category]})"
    return LABELS[category]


def _natural_line(spot: Spot, table: int) -> WagerLine:
    f = facts(spot.cards[:3])
    category = natural_category_of(f)
    per_unit = natural_pays(category, table)
    odds = "lost" if per_unit < 0 else odds_text(per_unit)
    return WagerLine("Natural", spot.natural, _total_label(category, f.total), odds,
                     spot.natural * per_unit)


def _royal_line(spot: Spot, table: int) -> WagerLine:
    f = facts(spot.cards)
    category = royal_category_of(f)
    per_unit = royal_pays(category, table)
    odds = "lost" if per_unit < 0 else odds_text(per_unit)
    label = _total_label(category, f.flush_total) if category == "32-39" else LABELS[category]
    return WagerLine("Royal Family", spot.royal, label, odds, spot.royal * per_unit)


def settle_spot(spot: Spot, options: Options) -> tuple[WagerLine, ...]:
    """C7, C8, C9: a position's wagers in the manual's order, Natural, Ante and Play, Royal."""
    lines: list[WagerLine] = []
    if spot.status == FORFEITED:
        for wager, stake in (("Natural", spot.natural), ("Ante", spot.ante),
                             ("Royal Family", spot.royal)):
            if stake:
                lines.append(WagerLine(wager, stake, "Draw card handled", "forfeited", -stake))
        if spot.play:
            lines.insert(2 if spot.natural else 1,
                         WagerLine("Play", spot.play, "Draw card handled", "returned", 0))
        return tuple(lines)
    if spot.natural:
        lines.append(_natural_line(spot, options.natural_table))
    if spot.status == FOLDED:
        lines.append(WagerLine("Ante", spot.ante, "folded", "lost", -spot.ante))
    else:
        f = facts(spot.cards)
        category = play_category_of(f)
        ante_per, play_per = ante_play_pays(category, options.play_table)
        label = _total_label(category, f.total)
        for wager, stake, per, odds in (("Ante", spot.ante, ante_per, "1-1"),
                                        ("Play", spot.play, play_per, f"{play_per}-1")):
            text = "push" if per == 0 else "lost" if per < 0 else odds
            lines.append(WagerLine(wager, stake, label, text, stake * per))
    if spot.royal:
        lines.append(_royal_line(spot, options.royal_table))
    return tuple(lines)


def _missing_cards(state: State) -> list[str]:
    missing = []
    for seat in state.deal_order():
        spot = state.spot(seat)
        if len(spot.cards) < spot.cards_needed:
            what = "the Draw card" if len(spot.cards) == 3 else \
                f"{spot.cards_needed - len(spot.cards)} card(s)"
            missing.append(f"{state.names[seat - 1]} needs {what}")
    return missing


def _settle(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ())
    if state.phase == BETTING:
        raise RuleError("nothing to settle: the hands are not dealt yet")
    if state.phase == DECISIONS:
        waiting = [state.names[s - 1] for s in state.deal_order() if state.spot(s).status == IN]
        raise RuleError(f"waiting for every decision (play or fold): {', '.join(waiting)}")
    missing = _missing_cards(state)
    if missing:
        raise RuleError(f"enter the exposed cards first: {'; '.join(missing)}")
    results = []
    money = state.money
    for seat in reversed(state.deal_order()):  # position 6 to 1 (C8)
        spot = state.spot(seat)
        if spot.status == OUT:
            results.append(SeatResult(seat, "sat out", 0, "no Ante this round"))
            continue
        lines = settle_spot(spot, state.options)
        amount = sum(line.amount for line in lines)
        money = add_at(money, seat - 1, amount)
        outcome = spot.status if spot.status in (FOLDED, FORFEITED) else (
            "won" if amount > 0 else "lost" if amount < 0 else "push")
        detail = "; ".join(line.text() for line in lines)
        if spot.cards:
            hand = " ".join(c.code for c in spot.cards[:3])
            drawn = f" + {spot.cards[3].code}" if len(spot.cards) == 4 else ""
            detail = f"{hand}{drawn} | {detail}"
        results.append(SeatResult(seat, outcome, amount, detail))
    house_round = -sum(r.amount for r in results)
    house = state.house + house_round
    notes = (f"house: {house_round:+d} this round, {house:+d} this session",)
    return _next_round(replace(state, money=money, house=house), tuple(results), house_round,
                       notes)


def _next_round(state: State, results: tuple[SeatResult, ...], house_round: int,
                notes: tuple[str, ...]) -> State:
    broke = not state.options.buy_ins and all(m < state.options.ante_min for m in state.money)
    if broke:
        notes = (*notes, f"game over: nobody has the minimum Ante ({state.options.ante_min})")
    result = RoundResult(state.number, None, results, state.money, None, house=house_round,
                         notes=notes)
    return replace(state, number=state.number + 1, phase=BETTING,
                   spots=(Spot(),) * state.seat_count, shoe=state.shoe.collect(),
                   round_result=result, finished=broke)


def _buy_in(state: State, event: dict[str, Any]) -> State:
    check_fields(event, ("seat", "amount"))
    seat = event_seat(event, state.seat_count)
    amount = event_int(event, "amount", minimum=1)
    if not state.options.buy_ins:
        raise RuleError("buy-ins are not allowed in this session (option buy_ins)")
    if not state.between_rounds:
        raise RuleError("chips are bought between rounds, before any wager is placed")
    return replace(state, money=add_at(state.money, seat - 1, amount))


HANDLERS = {
    "ante": lambda s, e: _wager(s, e, "ante"),
    "natural": lambda s, e: _wager(s, e, "natural"),
    "royal": lambda s, e: _wager(s, e, "royal"),
    "deal_hands": _deal_hands, "play": _play, "fold": _fold, "deal": _deal,
    "handled_draw": _handled_draw, "misdeal": _misdeal, "settle": _settle,
    "buy_in": _buy_in,
}


def _game_over(state: State) -> str:
    return "the game is over: no player has the minimum Ante left"


def apply(state: State, event: dict[str, Any]) -> State:
    """The state after ``event``, or RuleError with the reason (the state is unchanged)."""
    if "position" in event:
        event = _by_seat(state, event)
    return dispatch(TITLE, HANDLERS, state, event, _game_over)


def _by_seat(state: State, event: dict[str, Any]) -> dict[str, Any]:
    """An event that names a table ``position`` instead of a ``seat``, with its seat number."""
    if "seat" in event:
        raise RuleError("name the player by 'seat' or by 'position', not both")
    position = event["position"]
    if isinstance(position, bool) or not isinstance(position, int):
        raise RuleError(f"'position' is a table position 1-6, not {position!r}")
    if position not in state.positions:
        taken = ", ".join(str(p) for p in sorted(state.positions))
        raise RuleError(f"nobody plays at position {position} (positions in play: {taken})")
    body = {k: v for k, v in event.items() if k != "position"}
    return {**body, "seat": state.positions.index(position) + 1}


# ---------------------------------------------------------------- what the table shows


def legal_actions(state: State) -> list[Action]:
    acts: list[Action] = []
    if state.finished:
        return acts
    order = state.deal_order()
    if state.phase == BETTING:
        for seat in order:
            spot, name = state.spot(seat), state.names[seat - 1]
            for wager in WAGERS if spot.ante else ("ante",):
                low, high = wager_limits(state, seat, wager)
                if not getattr(spot, wager) and high:
                    acts.append(Action(wager, f"{WAGER_NAMES[wager]}: {name}", seat,
                                       asks="amount", minimum=low, maximum=high))
        if any(s.ante for s in state.spots):
            acts.append(Action("deal_hands", "Deal the hands"))
        if state.options.buy_ins and state.between_rounds:
            acts.extend(Action("buy_in", f"Buy-in: {state.names[s - 1]}", s, asks="amount",
                               minimum=1) for s in order)
        return acts
    for seat in order:
        spot, name = state.spot(seat), state.names[seat - 1]
        if spot.status == IN:
            if state.available(seat) >= spot.ante:
                acts.append(Action("play", f"Play: {name} (Play wager {spot.ante})", seat))
            acts.append(Action("fold", f"Fold: {name}", seat))
        count = len(spot.cards)
        if count < spot.cards_needed and (count < 3 or state.phase == SETTLEMENT):
            label = "Draw card" if count == 3 else f"Card {count + 1} of 3"
            acts.append(Action("deal", f"{label}: {name}", seat, asks="card"))
        if spot.status in (IN, PLAYED) or (spot.status == FOLDED and (spot.natural or spot.royal)):
            acts.append(Action("handled_draw", f"Draw card handled: {name}", seat))
    if state.phase == SETTLEMENT and not _missing_cards(state):
        acts.append(Action("settle", "Settle positions 6 to 1"))
    if not _decided(state):  # C11: only during the initial deal
        acts.append(Action("misdeal", "Misdeal: return every wager"))
    return acts


def _prompt(state: State) -> str:
    if state.finished:
        return "Game over: no player has the minimum Ante left"
    if state.phase == BETTING:
        if not any(s.ante for s in state.spots):
            return "Place the wagers: the Ante first, then the optional bonuses"
        return "Place the wagers, then deal the hands"
    if state.phase == DECISIONS:
        waiting = [state.names[s - 1] for s in state.deal_order() if state.spot(s).status == IN]
        return f"Play or fold: {', '.join(waiting)}"
    missing = _missing_cards(state)
    if missing:
        return f"Expose and enter the cards (position 6 to 1): {'; '.join(missing)}"
    return "Confirm the settlement (position 6 to 1)"


def _seat_value(spot: Spot) -> str:
    if len(spot.cards) < 3:
        return ""
    first = facts(spot.cards[:3])
    text = f"natural {_total_label(natural_category_of(first), first.total)}"
    if len(spot.cards) == 4:
        f = facts(spot.cards)
        text += (f"; best {_total_label(play_category_of(f), f.total)}; "
                 f"royal {LABELS[royal_category_of(f)]}")
    return text


def view(state: State) -> TableView:
    seats = []
    for seat in state.deal_order():
        spot = state.spot(seat)
        slots = max(len(spot.cards), spot.cards_needed)
        cards = tuple(c.code for c in spot.cards) + (None,) * (slots - len(spot.cards))
        status = "betting" if spot.status == WAITING and state.phase == BETTING else spot.status
        wagers = tuple((w, getattr(spot, w)) for w in ("ante", "play", "natural", "royal")
                       if getattr(spot, w))
        seats.append(SeatView(
            seat=seat, name=state.names[seat - 1], money=state.money[seat - 1], cards=cards,
            hidden=tuple(c is None for c in cards), value=_seat_value(spot), status=status,
            wagers=wagers, extra=f"position {state.positions[seat - 1]}"))
    opts = state.options
    info = (f"Pay tables: Play #{opts.play_table}, Natural #{opts.natural_table}, "
            f"Royal Family #{opts.royal_table}",
            f"House result this session: {state.house:+d}")
    return TableView(
        title=TITLE, round_number=state.number, phase=state.phase, prompt=_prompt(state),
        seats=tuple(seats), info=info,
        usable_cards=tuple(c.code for c in state.shoe.available()))


def money_total(state: State) -> int:
    """The players' money plus the house's result: conserved by every round."""
    return sum(state.money) + state.house


DEMO = {
    "options": {},
    "seats": [{"name": "Ann", "money": 100, "position": 1},
              {"name": "Bea", "money": 100, "position": 3},
              {"name": "Cy", "money": 100, "position": 4},
              {"name": "Dora", "money": 100, "position": 6}],
    "first_dealer": None,
}
