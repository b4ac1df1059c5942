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


def round_json(session: Session, result: RoundResult) -> dict[str, Any]:
    names = session.names
    out: dict[str, Any] = {
        "round": result.number,
        "dealer": result.dealer,
        "results": [
            {"seat": r.seat, "name": names[r.seat - 1], "outcome": r.outcome,
             "amount": r.amount, **({"detail": r.detail} if r.detail else {})}
            for r in result.results
        ],
        "bankrolls": dict(zip(names, result.bankrolls, strict=True)),
        "next_dealer": result.next_dealer,
        "next_dealer_name": None if result.next_dealer is None else names[result.next_dealer - 1],
    }
    if result.house:
        out["house"] = result.house
    if result.notes:
        out["notes"] = list(result.notes)
    return out


def session_json(session: Session) -> dict[str, Any]:
    """Every settled round, the money now, and where the session stands."""
    view = session.view()
    return {
        "game": session.variant.NAME,
        "seats": list(session.names),
        "rounds": [round_json(session, r) for r in session.rounds],
        "bankrolls": {s.name: s.money for s in view.seats},
        "finished": bool(session.state.finished),
        "ended": session.ended,
        "phase": view.phase,
        "next": view.prompt,
    }
