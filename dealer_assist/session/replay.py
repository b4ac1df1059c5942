"""Replay a scenario (game, options, seats, events) headless and report every round as JSON.

The scenario format is documented in docs/replay.md. The same code replays a session log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_assist import safe_json
from dealer_assist.errors import InputError, RuleError
from dealer_assist.session.engine import ReplayError, Session, start_event
from dealer_assist.variants.base import RoundResult

SCENARIO_FIELDS = {"game", "options", "seats", "first_dealer", "events", "description", "expect"}


def load_scenario(path: str | Path) -> dict[str, Any]:
    """A scenario file's JSON; InputError (unreadable: not a regular file, not UTF-8 JSON, too
    deep, numbers too big, not a scenario object) says why."""
    try:
        data = safe_json.loads(safe_json.read_regular_file(path))
    except InputError as exc:
        raise InputError(f"{path}: {exc}" if str(path) not in str(exc) else str(exc)) from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: a scenario is a JSON object")
    extra = sorted(set(data) - SCENARIO_FIELDS)
    if extra:
        raise InputError(f"{path}: unknown field(s) {', '.join(extra)}")
    return data


def replay_scenario(data: dict[str, Any]) -> Session:
    """Build the session of a scenario; ReplayError names the first refused event."""
    try:
        start = start_event(data.get("game", ""), data.get("options"), data.get("seats"),
                            data.get("first_dealer"))
    except RuleError as exc:
        raise ReplayError(-1, {"type": "session_start"}, str(exc)) from exc
    events = data.get("events", [])
    if not isinstance(events, list):
        raise ReplayError(-1, {}, "'events' must be a list")
    try:
        session = Session(start)
    except RuleError as exc:
        raise ReplayError(-1, start, str(exc)) from exc
    for index, event in enumerate(events):
        try:
            if not isinstance(event, dict):
                raise RuleError("an event is an object with a 'type'")
            session.submit(event)
        except RuleError as exc:
            raise ReplayError(index, event if isinstance(event, dict) else {}, str(exc)) from exc
    return session


def _seat_ids(session: Session, seat: int) -> dict[str, Any]:
    """``seat`` (1.. in the scenario's list) and, where the game has table positions, the
    ``position`` too (31 Classic: seat 2 may sit at position 5)."""
    spec = session.seats[seat - 1]
    position = {"position": spec.position} if spec.position is not None else {}
    return {"seat": seat, **position, "name": spec.name}


def round_json(session: Session, result: RoundResult, *, pending: bool = False
               ) -> dict[str, Any]:
    """One round: every result with its detail; ``house`` in every round of a house-banked
    game (0 included); ``offer_pending`` for a Trianta Ena round settled while the bank offer
    is open."""
    names = session.names
    out: dict[str, Any] = {
        "round": result.number,
        "dealer": result.dealer,
        "results": [
            {**_seat_ids(session, r.seat), "outcome": r.outcome, "amount": r.amount,
             "detail": r.detail}
            for r in result.results
        ],
        "bankrolls": dict(zip(names, result.bankrolls, strict=True)),
        "next_dealer": result.next_dealer,
        "next_dealer_name": None if result.next_dealer is None else names[result.next_dealer - 1],
    }
    if getattr(session.variant, "HOUSE_BANKED", False):
        out["house"] = result.house
    if pending:
        out["offer_pending"] = True
    if result.notes:
        out["notes"] = list(result.notes)
    return out


def money_json(session: Session) -> list[dict[str, Any]]:
    """Buy-ins (+) and cash-outs (-), each with the round it came before and its event."""
    return [{"type": m.type, **_seat_ids(session, m.seat), "amount": m.amount,
             "before_round": m.before_round, "event_index": m.seq - 2}
            for m in session.money_moves]


def session_json(session: Session) -> dict[str, Any]:
    """Every settled round, the buy-ins and cash-outs, the money now, and where the session
    stands."""
    view = session.view()
    rounds = [round_json(session, r) for r in session.rounds]
    pending_round = getattr(session.variant, "pending_round", None)
    pending = pending_round(session.state) if pending_round else None
    if pending is not None:
        rounds.append(round_json(session, pending, pending=True))
    return {
        "game": session.variant.NAME,
        "seats": list(session.names),
        "rounds": rounds,
        "money": money_json(session),
        "bankrolls": {s.name: s.money for s in view.seats},
        "finished": bool(session.state.finished),
        "ended": session.ended,
        "phase": view.phase,
        "next": view.prompt,
    }


def refusal_json(error: ReplayError) -> dict[str, Any]:
    """The one line of JSON a refused replay prints: ``event_index`` counts from 0 in
    ``events``; a refused set-up (game, options, seats) has ``event_index`` null and
    ``stage`` "setup"."""
    if error.index < 0:
        return {"error": error.reason, "event_index": None, "stage": "setup"}
    return {"error": error.reason, "event_index": error.index, "stage": "events"}
