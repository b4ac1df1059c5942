"""Trainees and their attempts, kept in SQLite (``training.db`` in the user data folder)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

import sqlite_utils

from dealer_assist.errors import RuleError
from dealer_assist.session.store import data_dir
from dealer_assist.training.grading import Attempt, Summary, summarize
from dealer_assist.training.levels import LEVELS


def default_path() -> Path:
    return data_dir() / "training.db"


@dataclass(frozen=True)
class Progress:
    """A trainee's results: a summary per level tried, and over all levels."""

    name: str
    levels: dict[str, Summary]
    overall: Summary
    attempts: tuple[Attempt, ...]


@dataclass(frozen=True)
class OverviewRow:
    name: str
    attempts: int
    accuracy: float
    best_level: str  # the highest level with a grade, or ""
    grade: str
    weak_spots: tuple[str, ...]
    last_at: str


class TrainingStore:
    """The trainees table and the attempts table."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.db = sqlite_utils.Database(self.path)
        if "trainees" not in self.db.table_names():
            self.db["trainees"].create({"id": int, "name": str, "created_at": str}, pk="id")
            self.db["trainees"].create_index(["name"], unique=True)
        if "attempts" not in self.db.table_names():
            self.db["attempts"].create(
                {"id": int, "trainee_id": int, "at": str, "game": str, "kind": str,
                 "level": str, "seed": int, "correct": int, "late": int, "seconds": float,
                 "given": str, "expected": str},
                pk="id", foreign_keys=[("trainee_id", "trainees", "id")])
            self.db["attempts"].create_index(["trainee_id"])

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------ trainees

    def add_trainee(self, name: str) -> int:
        name = name.strip()
        if not name:
            raise RuleError("a trainee needs a name")
        if self._id(name) is not None:
            raise RuleError(f"there is already a trainee called {name!r}")
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self.db.atomic():
            table = self.db["trainees"].insert({"name": name, "created_at": now})
        return int(table.last_pk)

    def trainees(self) -> list[str]:
        return [r["name"] for r in self.db["trainees"].rows_where(order_by="name")]

    def _id(self, name: str) -> int | None:
        rows = list(self.db["trainees"].rows_where("name = ? COLLATE NOCASE", [name.strip()]))
        return rows[0]["id"] if rows else None

    def require(self, name: str) -> int:
        found = self._id(name)
        if found is None:
            raise RuleError(f"no trainee called {name!r}")
        return found

    # ------------------------------------------------------------ attempts

    def record(self, name: str, attempts: list[Attempt]) -> None:
        """Save attempts for ``name`` (one transaction)."""
        trainee = self.require(name)
        now = datetime.now(UTC).isoformat(timespec="seconds")
        rows = []
        for a in attempts:
            row = asdict(a)
            row.update(trainee_id=trainee, at=a.at or now, correct=int(a.correct),
                       late=int(a.late))
            rows.append(row)
        with self.db.atomic():
            self.db["attempts"].insert_all(rows)

    def attempts(self, name: str) -> list[Attempt]:
        trainee = self.require(name)
        rows = self.db["attempts"].rows_where("trainee_id = ?", [trainee], order_by="id")
        return [Attempt(r["game"], r["kind"], r["level"], r["seed"], bool(r["correct"]),
                        r["seconds"], r["given"], r["expected"], bool(r["late"]), r["at"])
                for r in rows]

    def progress(self, name: str) -> Progress:
        attempts = self.attempts(name)
        levels = {level: summarize([a for a in attempts if a.level == level], level)
                  for level in LEVELS if any(a.level == level for a in attempts)}
        overall = summarize(attempts, "learning")  # the untimed bands: accuracy only
        return Progress(name, levels, overall, tuple(attempts))

    def overview(self) -> list[OverviewRow]:
        """One row per trainee, for the trainer."""
        rows = []
        for name in self.trainees():
            p = self.progress(name)
            graded = [lv for lv in LEVELS if lv in p.levels and p.levels[lv].grade != "—"]
            best = graded[-1] if graded else ""
            rows.append(OverviewRow(
                name, p.overall.count, p.overall.accuracy, best,
                p.levels[best].grade if best else "—", p.overall.weak_spots,
                p.attempts[-1].at if p.attempts else ""))
        return rows
