"""What every game module shares: seats, round results, the table view, options and event fields.

A game module (one per rule text) provides:

- ``NAME``, ``TITLE``, ``RULES_FILE``, ``Options`` (a frozen dataclass; each field's metadata
  has ``doc``, and ``choices`` or ``min``/``max`` where it helps), ``SEAT_FIELDS`` (extra seat
  attributes such as ``age``), ``MIN_SEATS``, ``MAX_SEATS``;
- ``start(options, seats, first_dealer) -> state``;
- ``apply(state, event) -> state``: a pure function that raises RuleError to refuse;
- ``legal_actions(state) -> list[Action]`` and ``view(state) -> TableView`` for the GUI.

A state is a frozen dataclass with at least ``round_result`` (the RoundResult of the round the
last event completed, or the previous one) and ``finished`` (the game is over).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import RuleError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat at the start of a session. Seats are numbered 1.. clockwise around the table."""

    name: str
    money: int
    age: int | None = None  # age order: 1 = oldest (games that break ties by age)
    position: int | None = None  # table position (31 Classic: 1-6, vacant ones skipped)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's outcome in a round. ``amount`` is what the seat won (+) or lost (-)."""

    seat: int
    outcome: str
    amount: int
    detail: str = ""


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A completed round: results in the game's settlement order, money after, who deals next."""

    number: int
    dealer: int | None
    results: tuple[SeatResult, ...]
    bankrolls: tuple[int, ...]
    next_dealer: int | None
    house: int = 0  # house-banked games: the house's result (+ = house won)
    notes: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return sum(r.amount for r in self.results) + self.house


@dataclass(frozen=True, slots=True)
class Action:
    """A legal action for the GUI: the event ``type`` to send, with fixed and asked-for fields."""

    type: str
    label: str
    seat: int | None = None
    fixed: tuple[tuple[str, Any], ...] = ()
    asks: str | None = None  # "amount", "card" or None
    minimum: int | None = None
    maximum: int | None = None

    def event(self, **values: Any) -> dict[str, Any]:
        body: dict[str, Any] = {"type": self.type}
        if self.seat is not None:
            body["seat"] = self.seat
        body.update(dict(self.fixed))
        body.update(values)
        return body


@dataclass(frozen=True, slots=True)
class SeatView:
    """What the table screen shows for one seat; every value is computed by the game module."""

    seat: int
    name: str
    money: int
    cards: tuple[str | None, ...] = ()  # codes; None = face down / not yet entered
    hidden: tuple[bool, ...] = ()  # per card: shown face down to the table
    value: str = ""
    status: str = "waiting"  # waiting, to act, stood, bust, folded, out, ...
    wagers: tuple[tuple[str, int], ...] = ()
    is_dealer: bool = False
    role: str = ""  # "dealer", "banker", "opener", ...
    extra: str = ""


@dataclass(frozen=True, slots=True)
class TableView:
    """The whole table for the GUI."""

    title: str
    round_number: int
    phase: str
    prompt: str
    seats: tuple[SeatView, ...]
    pot: int | None = None
    dealer_seat: int | None = None
    to_act: int | None = None
    info: tuple[str, ...] = ()
    usable_cards: tuple[str, ...] = ()  # cards the shoe can still deal (touch grid)


# ---------------------------------------------------------------- options


def option_specs(options_cls: type) -> list[dict[str, Any]]:
    """Each option's name, default, type, doc and limits, for the wizard and the docs."""
    hints = typing.get_type_hints(options_cls)
    specs = []
    for f in dataclasses.fields(options_cls):
        spec = {"name": f.name, "default": f.default, "type": hints[f.name], **f.metadata}
        specs.append(spec)
    return specs


def _coerce(name: str, kind: Any, value: Any, meta: typing.Mapping[str, Any]) -> Any:
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(kind) if a is not type(None)]
        if value is None:
            return None
        kind = args[0]
    if kind is bool and not isinstance(value, bool):
        raise RuleError(f"option {name}: expected true or false, got {value!r}")
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise RuleError(f"option {name}: expected a whole number, got {value!r}")
    if kind is int and "min" in meta and value < meta["min"]:
        raise RuleError(f"option {name}: at least {meta['min']}, got {value}")
    if kind is int and "max" in meta and value > meta["max"]:
        raise RuleError(f"option {name}: at most {meta['max']}, got {value}")
    if kind is str and not isinstance(value, str):
        raise RuleError(f"option {name}: expected text, got {value!r}")
    if "choices" in meta and value not in meta["choices"]:
        choices = ", ".join(map(str, meta["choices"]))
        raise RuleError(f"option {name}: {value!r} is not one of {choices}")
    return value


def make_options(options_cls: type, given: dict[str, Any] | None) -> Any:
    """Build an Options instance from a dict, refusing unknown names and wrong types."""
    given = dict(given or {})
    hints = typing.get_type_hints(options_cls)
    fields = {f.name: f for f in dataclasses.fields(options_cls)}
    unknown = sorted(set(given) - set(fields))
    if unknown:
        raise RuleError(f"unknown option(s): {', '.join(unknown)}; known: {', '.join(fields)}")
    values = {k: _coerce(k, hints[k], v, fields[k].metadata) for k, v in given.items()}
    options = options_cls(**values)
    check = getattr(options, "check", None)
    if check:
        check()
    return options


def options_dict(options: Any) -> dict[str, Any]:
    return dataclasses.asdict(options)


def opt(default: Any, doc: str, **meta: Any) -> Any:
    """A dataclass field for an option, with its one-line description."""
    return field(default=default, metadata={"doc": doc, **meta})


# ---------------------------------------------------------------- event fields


def event_int(event: dict[str, Any], key: str, *, minimum: int | None = None) -> int:
    value = event.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"'{event.get('type')}' needs a whole number '{key}', got {value!r}")
    if minimum is not None and value < minimum:
        raise RuleError(f"'{key}' must be at least {minimum}, got {value}")
    return value


def event_seat(event: dict[str, Any], seat_count: int, key: str = "seat") -> int:
    value = event.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"'{event.get('type')}' needs a seat number '{key}', got {value!r}")
    if not 1 <= value <= seat_count:
        raise RuleError(f"there is no seat {value} (seats are 1 to {seat_count})")
    return value


def event_card(
    event: dict[str, Any], key: str = "card", *, allow_hidden: bool = False
) -> Card | None:
    """The card in ``event[key]``; ``None`` (face down, entered later) only where allowed."""
    value = event.get(key)
    if value is None:
        if allow_hidden:
            return None
        raise RuleError(f"'{event.get('type')}' needs a card code '{key}' (like 'QS' or '10h')")
    return parse_card(value)


_ALLOWED: dict[tuple[str, ...], frozenset[str]] = {}


def check_fields(event: dict[str, Any], allowed: tuple[str, ...]) -> None:
    """Refuse unexpected fields, so a misspelt scenario cannot silently mean something else."""
    permitted = _ALLOWED.get(allowed)
    if permitted is None:
        permitted = _ALLOWED[allowed] = frozenset(("type", *allowed))
    if event.keys() <= permitted:
        return
    extra = sorted(event.keys() - permitted)
    if extra:
        raise RuleError(f"'{event.get('type')}' does not take field(s): {', '.join(extra)}")


_DICT_FIELDS: dict[type, frozenset[str]] = {}  # dataclasses without __slots__: their fields
_EVOLVERS: dict[type, Callable[..., Any]] = {}  # dataclasses with __slots__: a generated copier
_new_object, _set_attr = object.__new__, object.__setattr__


def evolve(obj: T, **changes: Any) -> T:
    """A copy of a frozen dataclass with some fields changed (a fast ``dataclasses.replace``).

    Like ``replace`` but without re-running ``__init__``/``__post_init__``: for the game states,
    which are copied on every event of a replay. A class without ``__slots__`` is copied fastest
    (one dict merge), so a game's large State is best declared without them.
    """
    cls = type(obj)
    fields = _DICT_FIELDS.get(cls)
    if fields is None:
        return _evolve_slotted(obj, changes)
    if not changes.keys() <= fields:
        raise _unknown_fields(cls, changes, fields)
    new = _new_object(cls)
    _set_attr(new, "__dict__", {**obj.__dict__, **changes})
    return new


def _unknown_fields(cls: type, changes: dict[str, Any], fields: frozenset[str]) -> TypeError:
    return TypeError(f"{cls.__name__} has no field(s) {sorted(changes.keys() - fields)}")


def _evolve_slotted(obj: T, changes: dict[str, Any]) -> T:
    cls = type(obj)
    evolver = _EVOLVERS.get(cls)
    if evolver is None:
        names = [f.name for f in dataclasses.fields(cls)]
        if "__slots__" not in cls.__dict__:
            _DICT_FIELDS[cls] = frozenset(names)
            return evolve(obj, **changes)
        evolver = _EVOLVERS[cls] = _make_evolver(cls, names)
    return evolver(obj, changes)


def _make_evolver(cls: type, names: list[str]) -> Callable[..., Any]:
    lines = ["def evolve(obj, changes):",
             "    if not changes.keys() <= FIELDS:",
             "        raise unknown_fields(CLS, changes, FIELDS)",
             "    new = new_object(CLS)",
             *(f"    set_attr(new, {n!r}, changes[{n!r}] if {n!r} in changes else obj.{n})"
               for n in names),
             "    return new"]
    namespace = {"CLS": cls, "FIELDS": frozenset(names), "unknown_fields": _unknown_fields,
                 "new_object": _new_object, "set_attr": _set_attr}
    exec("\n".join(lines), namespace)
    return namespace["evolve"]


def dispatch(title: str, handlers: dict[str, Callable[[Any, dict[str, Any]], Any]], state: Any,
             event: dict[str, Any], over: Callable[[Any], str]) -> Any:
    """A game's ``apply``: route the event to its handler; refuse an unknown event, and any
    event once the game is over (``over(state)`` says why)."""
    handler = handlers.get(event.get("type"))  # type: ignore[arg-type]
    if handler is None:
        raise RuleError(f"{title} has no event {event.get('type')!r}; "
                        f"events: {', '.join(handlers)}")
    if state.finished:
        raise RuleError(over(state))
    return handler(state, event)


def replace_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    changed = list(values)  # one copy: about twice as fast as joining slices
    changed[index] = value
    return tuple(changed)


def add_at(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    changed = list(values)
    changed[index] += amount
    return tuple(changed)
