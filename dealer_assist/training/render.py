"""Plain text of a table, an event and a settlement, for drills in a terminal or a window."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dealer_assist.cards import parse_card
from dealer_assist.variants.base import RoundResult, TableView


def card_text(code: str | None, hidden: bool = False) -> str:
    if code is None or hidden:
        return "??"
    return parse_card(code).label


def signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else ("0" if amount == 0 else f"−{-amount}")


def seat_lines(view: TableView) -> list[str]:
    """One line per seat: number, name, role, money, cards, value, wagers, status."""
    lines = []
    for sv in view.seats:
        hidden = sv.hidden or (False,) * len(sv.cards)
        cards = " ".join(card_text(c, h) for c, h in zip(sv.cards, hidden, strict=False)) or "—"
        role = f" ({sv.role})" if sv.role else (" (dealer)" if sv.is_dealer else "")
        wagers = ", ".join(f"{k} {v}" for k, v in sv.wagers)
        parts = [f"{sv.seat}. {sv.name}{role}", f"money {sv.money}", f"cards {cards}"]
        if sv.value:
            parts.append(f"value {sv.value}")
        if wagers:
            parts.append(wagers)
        parts.append(sv.status)
        if sv.extra:
            parts.append(sv.extra)
        lines.append(" | ".join(parts))
    return lines


def table_lines(view: TableView) -> list[str]:
    """The whole table as text: title, phase, seats, pot and notes."""
    lines = [f"{view.title} — round {view.round_number} — {view.phase}"]
    lines.extend(seat_lines(view))
    if view.pot is not None:
        lines.append(f"pot {view.pot}")
    lines.extend(view.info)
    return lines


def event_text(event: dict[str, Any], names: Sequence[str]) -> str:
    """An entry in words, e.g. ``Bea: deal 7♥`` or ``Cy: bet 5``."""
    words = [event.get("type", "?").replace("_", " ")]
    if event.get("card") is not None:
        words.append(card_text(event["card"]))
    for key, value in event.items():
        if key in ("type", "seat", "card"):
            continue
        words.append(f"{key.replace('_', ' ')} {value}" if key != "amount" else str(value))
    seat = event.get("seat")
    who = names[seat - 1] if isinstance(seat, int) and 1 <= seat <= len(names) else None
    return f"{who}: {' '.join(words)}" if who else " ".join(words)


def settlement_lines(result: RoundResult, names: Sequence[str]) -> list[str]:
    """The engine's settlement, in its order: who won or lost what and why."""
    lines = []
    for r in result.results:
        detail = f" ({r.detail})" if r.detail else ""
        lines.append(f"{names[r.seat - 1]}: {r.outcome}{detail} {signed(r.amount)}")
    if result.house:
        lines.append(f"house {signed(result.house)}")
    lines.extend(result.notes)
    return lines


SEAT_COLUMNS = ("Seat", "Money", "Cards", "Value", "Wagers", "Status")


def seat_rows(view: TableView) -> list[tuple[str, ...]]:
    """The table as rows of text under SEAT_COLUMNS, for a grid on screen."""
    rows = []
    for sv in view.seats:
        hidden = sv.hidden or (False,) * len(sv.cards)
        cards = " ".join(card_text(c, h) for c, h in zip(sv.cards, hidden, strict=False)) or "—"
        role = sv.role or ("dealer" if sv.is_dealer else "")
        name = f"{sv.seat}. {sv.name}" + (f" ({role})" if role else "")
        if sv.extra:
            name += f"\n{sv.extra}"
        wagers = "\n".join(f"{k} {v}" for k, v in sv.wagers)
        rows.append((name, str(sv.money), cards, sv.value, wagers, sv.status))
    return rows
