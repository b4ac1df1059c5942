"""Drills: a seeded table stopped at a question point, answered by the engine.

``make_question(game, kind, seed)`` builds a session, plays seeded warm-up rounds, plays the
question round up to its question point, and asks. The answer is never written here: it is
what the engine does with the next entry (settle a copy and read its RoundResult, or submit an
entry and see whether it is refused).

Generic kinds work for every game through the engine's contract; game-specific kinds are
registered by the game's drill module (see ``register``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from dealer_assist.errors import RuleError
from dealer_assist.training.render import event_text, settlement_lines, signed
from dealer_assist.training.simulate import SimulationError, Table
from dealer_assist.variants import available_games, get_variant
from dealer_assist.variants.base import RoundResult, SeatView, TableView

AMOUNT, SEAT, ORDER, CHOICE = "amount", "seat", "order", "choice"


@dataclass(frozen=True)
class Question:
    """One drill question with the engine's answer."""

    game: str
    kind: str
    seed: int
    prompt: str
    table: TableView
    answer_type: str  # amount (signed whole number), seat, order (of seats), choice
    answer: Any  # int for amount and seat (0 = nobody), tuple of seats for order, str for choice
    explanation: str
    hint: str = ""
    choices: tuple[tuple[str, str], ...] = ()  # (value, label) for seat, order and choice
    names: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    events: tuple[dict[str, Any], ...] = ()  # the session log up to the question point
    entry: dict[str, Any] | None = None  # the entry the question is about (not yet submitted)
    tags: tuple[str, ...] = ()  # what kind of case this is (e.g. "folded"), for the search

    def check(self, given: Any) -> bool:
        """Is ``given`` (already parsed, see ``parse_answer``) the engine's answer?"""
        if self.answer_type == ORDER:
            return tuple(given) == tuple(self.answer)
        if self.answer_type == CHOICE:
            return str(given) == str(self.answer)
        return not isinstance(given, bool) and isinstance(given, int) and given == self.answer

    def answer_text(self) -> str:
        return format_answer(self, self.answer)


def format_answer(question: Question, value: Any) -> str:
    labels = dict(question.choices)
    if question.answer_type == AMOUNT:
        return signed(value)
    if question.answer_type == ORDER:
        return " → ".join(labels.get(str(v), str(v)) for v in value)
    return labels.get(str(value), str(value))


def parse_answer(question: Question, text: str) -> Any:
    """Read a typed answer; ValueError says what was expected."""
    text = text.strip().replace("−", "-").replace("+", "")
    if question.answer_type in (AMOUNT, SEAT):
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"expected a whole number, got {text!r}") from None
    if question.answer_type == ORDER:
        try:
            return tuple(int(p) for p in text.replace(",", " ").split())
        except ValueError:
            raise ValueError("expected seat numbers separated by spaces, e.g. 6 5 3") from None
    values = [v for v, _ in question.choices]
    if text.isdigit() and 1 <= int(text) <= len(values):
        return values[int(text) - 1]
    lowered = {v.casefold(): v for v in values}
    if text.casefold() in lowered:
        return lowered[text.casefold()]
    raise ValueError(f"choose 1 to {len(values)}")


# ---------------------------------------------------------------- the registry

Builder = Callable[[Table, random.Random, int], Question]


@dataclass(frozen=True)
class DrillKind:
    name: str
    title: str
    build: Builder
    irregular: bool = False  # an injected irregularity (table-ready level)
    # a case worth drilling more often than random play deals it (e.g. a passed deal, a tie):
    # with probability ``prefer_share`` the seeded search keeps trying tables until one is
    prefer: Callable[[Question], bool] | None = None
    prefer_share: float = 0.5


KINDS: dict[str, DrillKind] = {}
GAME_KINDS: dict[str, list[str]] = {}
# generic kinds that do not apply to a game (31 Classic: the house always deals)
NOT_FOR: dict[str, set[str]] = {"classic31": {"next_dealer"}}
# options drawn at random for a game's drills, e.g. classic31's pay tables
VARIED_OPTIONS: dict[str, dict[str, tuple[Any, ...]]] = {}
# seats drawn at random for a game's drills (default: the game's DEMO seats)
VARIED_SEATS: dict[str, Callable[[random.Random], list[dict[str, Any]]]] = {}
# what a game's table view shows that would give an answer away (a projected result), hidden
MASKS: dict[str, Callable[[SeatView], SeatView]] = {}


def register(kind: DrillKind, games: list[str]) -> DrillKind:
    KINDS[kind.name] = kind
    for game in games:
        GAME_KINDS.setdefault(game, [])
        if kind.name not in GAME_KINDS[game]:
            GAME_KINDS[game].append(kind.name)
    return kind


def kinds_for(game: str, irregular: bool | None = None) -> list[str]:
    """The drill kinds of ``game``; ``irregular`` filters on injected irregularities."""
    _load_game_drills()
    game = get_variant(game).NAME
    own = GAME_KINDS.get(game, [])
    names = own + [k for k in GENERIC if k not in own and k not in NOT_FOR.get(game, set())]
    return [n for n in names if irregular is None or KINDS[n].irregular == irregular]


def drill_games() -> list[str]:
    return available_games()


def make_question(game: str, kind: str, seed: int,
                  options: dict[str, Any] | None = None) -> Question:
    """The question of drill ``kind`` for ``game`` built from ``seed`` (same seed, same one)."""
    _load_game_drills()
    game = get_variant(game).NAME
    if kind not in kinds_for(game):
        raise RuleError(f"no drill {kind!r} for {game}; drills: {', '.join(kinds_for(game))}")
    rng = random.Random(f"{game}/{kind}/{seed}")
    drill = KINDS[kind]
    want = drill.prefer is not None and rng.random() < drill.prefer_share
    for _ in range(PREFER_TRIES if want else 1):
        q = _build(game, drill, rng, seed, options)
        if not want or drill.prefer(q):  # type: ignore[misc]
            break
    return q


PREFER_TRIES = 40


def _build(game: str, drill: DrillKind, rng: random.Random, seed: int,
           options: dict[str, Any] | None) -> Question:
    chosen = {name: rng.choice(values)
              for name, values in VARIED_OPTIONS.get(game, {}).items()}
    seats = VARIED_SEATS[game](rng) if game in VARIED_SEATS else None
    table = Table.new(game, rng.randrange(2**32), {**chosen, **(options or {})}, seats)
    for _ in range(rng.randint(0, 3)):  # warm-up rounds: bankrolls and dealers move on
        table.play_round()
        if table.session.state.finished:
            table = Table.new(game, rng.randrange(2**32), {**chosen, **(options or {})}, seats)
    return drill.build(table, rng, seed)


def _load_game_drills() -> None:
    """Import the drill module of each game this build has (they register their kinds)."""
    from dealer_assist.training import game_drills

    game_drills.load()


# ---------------------------------------------------------------- shared steps


def round_end(table: Table) -> tuple[dict[str, Any], RoundResult]:
    """Play to the entry that completes the round; the round as the engine settles it."""
    event = table.play_until(lambda t, e: t.completes_round(e))
    _, result, refusal = table.outcome(event)
    assert result is not None, refusal
    return event, result


def until_suitable(table: Table, attempt: Callable[[], Question | None],
                   tries: int = 30) -> Question:
    """Call ``attempt`` (which plays on) until it finds a suitable round to ask about."""
    for _ in range(tries):
        found = attempt()
        if found is not None:
            return found
    raise SimulationError("no suitable round for this drill was found")


def pending_text(table: Table, event: dict[str, Any]) -> str:
    if event.get("type") == "settle":
        return ""
    return f"Next entry: {event_text(event, table.session.names)}. "


def question(table: Table, kind: str, seed: int, prompt: str, answer_type: str, answer: Any,
             explanation: str, **more: Any) -> Question:
    view = table.session.view()
    mask = MASKS.get(table.session.variant.NAME)
    if mask is not None:
        view = replace(view, seats=tuple(mask(sv) for sv in view.seats))
    return Question(game=table.session.variant.NAME, kind=kind, seed=seed, prompt=prompt,
                    table=view, answer_type=answer_type, answer=answer,
                    explanation=explanation, names=table.session.names,
                    options=asdict(table.session.options),
                    events=tuple(e.body for e in table.session.entries), **more)


def seat_label(table: Table, seat: int) -> str:
    """``Bea (seat 2)``, or ``Bea (position 3)`` where seats have table positions."""
    spec = table.session.seats[seat - 1]
    where = f"position {spec.position}" if spec.position is not None else f"seat {seat}"
    return f"{spec.name} ({where})"


def seat_choices(table: Table) -> tuple[tuple[str, str], ...]:
    return tuple((str(i), f"{i}. {n}") for i, n in enumerate(table.session.names, start=1))


# ---------------------------------------------------------------- generic drills


def build_payout(table: Table, rng: random.Random, seed: int) -> Question:
    event, result = round_end(table)
    names = table.session.names
    playing = [r for r in result.results if r.outcome not in NOTHING_TO_SETTLE] or result.results
    pick = rng.choice(playing)
    who = names[pick.seat - 1]
    prompt = (f"{pending_text(table, event)}What does {seat_label(table, pick.seat)} win (+) "
              f"or lose (−) in this round, in total?")
    hint = f"{who}: {pick.outcome}" + (f", {pick.detail}" if pick.detail else "")
    return question(table, "payout", seed, prompt, AMOUNT, pick.amount,
                    "\n".join(settlement_lines(result, names)), hint=hint, entry=event)


NOTHING_TO_SETTLE = ("no bet", "sat out", "out")
ROLE_VERBS = {"trianta_ena": "banks", "sudden_death": "opens"}


def build_next_dealer(table: Table, rng: random.Random, seed: int) -> Question:
    event, result = round_end(table)
    names = table.session.names
    verb = ROLE_VERBS.get(table.session.variant.NAME, "deals")
    answer = result.next_dealer or 0
    prompt = f"{pending_text(table, event)}When this round is settled, who {verb} next?"
    choices = (*seat_choices(table), ("0", "nobody: the game ends"))
    lines = settlement_lines(result, names)
    who = names[answer - 1] if answer else "nobody (the game ends)"
    past = {"deals": "dealt", "banks": "banked", "opens": "opened"}[verb]
    hint = f"{names[result.dealer - 1]} {past} this round" if result.dealer else ""
    return question(table, "next_dealer", seed, prompt, SEAT, answer,
                    "\n".join([*lines, f"next: {who}"]), hint=hint, choices=choices,
                    entry=event)


def build_settle_order(table: Table, rng: random.Random, seed: int) -> Question:
    event, result = round_end(table)
    names = table.session.names
    order = tuple(r.seat for r in result.results if r.outcome not in NOTHING_TO_SETTLE)
    prompt = (f"{pending_text(table, event)}In what order are the seats settled? "
              f"Touch each seat in turn ({len(order)} seats).")
    return question(table, "settle_order", seed, prompt, ORDER, order,
                    "\n".join(settlement_lines(result, names)),
                    hint="Settle in the game's order (see its rule text).",
                    choices=tuple(c for c in seat_choices(table) if int(c[0]) in order),
                    entry=event)


def _mutate(table: Table, event: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A plausible mistake: wrong seat, amount over the limit, a card already in play, or
    settling too early. Whether it is really wrong is for the engine to say."""
    names = table.session.names
    entries = [e.body for e in table.session.round_entries]
    dealt = [e["card"] for e in entries if e.get("card")]
    options = []
    if "amount" in event:
        options.append({**event, "amount": event["amount"] + rng.randint(5, 50)})
    if "card" in event and dealt:
        options.append({**event, "card": rng.choice(dealt)})
    if "seat" in event and len(names) > 1:
        other = rng.choice([s for s in range(1, len(names) + 1) if s != event["seat"]])
        options.append({**event, "seat": other})
    options.append({"type": "settle"})
    return rng.choice(options)


def build_legal_entry(table: Table, rng: random.Random, seed: int) -> Question:
    legal = table.play_steps(rng.randint(1, 14))
    entry = legal if rng.random() < 0.4 else _mutate(table, legal, rng)
    _, _, refusal = table.outcome(entry)
    answer = "refuse" if refusal else "accept"
    text = event_text(entry, table.session.names)
    prompt = f"The dealer enters: “{text}”. Does the table accept it?"
    explanation = (f"Refused: {refusal}" if refusal
                   else "Accepted: the entry is legal at this point.")
    return question(table, "legal_entry", seed, prompt, CHOICE, answer, explanation,
                    hint="Check whose turn it is, the limits, and the cards in play.",
                    choices=(("accept", "Accept"), ("refuse", "Refuse")), entry=entry)


PAYOUT = register(DrillKind("payout", "Payout per seat", build_payout), [])
def _dealer_changes(q: Question) -> bool:
    return q.answer != q.table.dealer_seat


NEXT_DEALER = register(DrillKind("next_dealer", "Who deals next", build_next_dealer,
                                 prefer=_dealer_changes), [])
SETTLE_ORDER = register(DrillKind("settle_order", "Settlement order", build_settle_order,
                                  prefer=lambda q: len(q.answer) >= 3, prefer_share=0.8), [])
LEGAL_ENTRY = register(DrillKind("legal_entry", "Accept or refuse an entry", build_legal_entry,
                                 irregular=True), [])
GENERIC = ["payout", "next_dealer", "legal_entry"]
