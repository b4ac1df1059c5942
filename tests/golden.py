"""Golden scenario files: a scenario plus ``expect``, replayed end to end and compared."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_assist.session.engine import ReplayError
from dealer_assist.session.replay import (
    load_scenario,
    refusal_json,
    replay_scenario,
    session_json,
)


def subset_mismatches(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Differences where ``expected`` is not contained in ``actual`` (dicts by key, lists whole)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{path}.{key}: missing")
            else:
                out.extend(subset_mismatches(value, actual[key], f"{path}.{key}"))
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{path}: expected {len(expected)} items, got {len(actual)}: {actual}"]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out.extend(subset_mismatches(e, a, f"{path}[{i}]"))
        return out
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


def check_golden(path: Path) -> list[str]:
    """Replay one golden file; return what does not match its ``expect`` (empty: it passes)."""
    data = load_scenario(path)
    expect = data.get("expect")
    if not expect:
        return [f"{path.name}: no 'expect' block"]
    error = expect.get("error")
    try:
        session = replay_scenario(data)
    except ReplayError as exc:
        if not error:
            return [f"refused at event {exc.index}: {exc.reason}"]
        problems = []
        refusal = refusal_json(exc)
        for key in ("event_index", "stage"):
            if key in error and refusal[key] != error[key]:
                problems.append(f"refused with {key} {refusal[key]!r}, expected {error[key]!r}")
        if error.get("contains", "").lower() not in exc.reason.lower():
            problems.append(f"reason {exc.reason!r} lacks {error['contains']!r}")
        return problems
    if error:
        return [f"expected a refusal at event {error['event_index']}, but all were accepted"]
    return subset_mismatches({k: v for k, v in expect.items() if k != "error"},
                             session_json(session))
