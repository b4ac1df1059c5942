"""Benchmark the card room: 30 tables x 500 Greek 31 rounds synced to PostgreSQL and reconciled.

    uv run python scripts/bench_cardroom.py [--tables 30] [--rounds 500] [--runs 3]
        [--url postgresql://owner@host/db] [--long-rounds 10000]

Without ``--url`` it starts a throwaway PostgreSQL cluster of its own (as the tests do: Debian's
postgresql, loopback, a temporary folder; fsync off, so the numbers are the app's, not the
disk's). Each run syncs every table's log into a fresh database, then times: the back office's
report from the server and the same report from the files; a re-sync with nothing new (what a
tablet does every 30 s between rounds); the floor view's first refresh and a refresh with
nothing new; one more round at every table, its sync and the floor's next refresh; then replay
(full fold) and resume (from the checkpoint) of a long session. Prints medians over the runs.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "cardroom"))

from dealer_assist.cardroom import schema
from dealer_assist.cardroom.source import server_sessions
from dealer_assist.cardroom.sync import sync_log
from dealer_assist.reports.floor import Floor
from dealer_assist.reports.reconcile import reconcile
from dealer_assist.session.engine import Session
from dealer_assist.session.log import EventLog, read_events
from dealer_assist.session.simulate import greek31_events, greek31_start


def make_log(path: Path, rounds: int, seed: int) -> int:
    log = EventLog(path, durable=False)
    events = [greek31_start(), *greek31_events(rounds, seed=seed)]
    log.append_many(events)
    log.close()
    return len(events)


def grow(path: Path, rounds: int, seed: int) -> None:
    """Append the next round of the table's seeded game (the log holds ``rounds`` rounds)."""
    events = [greek31_start(), *greek31_events(rounds + 1, seed=seed)]
    log = EventLog(path, durable=False)
    log.append_many(events[log.last_seq:])
    log.close()


def fresh_database(owner_url: str, run: int) -> str:
    base, _, _ = owner_url.rpartition("/")
    name = f"bench_cardroom_{os.getpid()}_{run}"
    with psycopg.connect(owner_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    url = f"{base}/{name}"
    with psycopg.connect(url, autocommit=True) as conn:
        schema.migrate(conn)
    return url


def timed(fn):
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--long-rounds", type=int, default=10_000)
    parser.add_argument("--url", help="an existing server (a database its owner may create "
                                      "databases from); default: a throwaway cluster")
    args = parser.parse_args()
    server = None
    if args.url is None:
        from pgserver import PgServer

        server = PgServer()
    owner_url = args.url or server.url()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            os.environ["DEALER_ASSIST_DATA"] = str(folder / "data")
            logs = [folder / f"T{n:02d}.db" for n in range(1, args.tables + 1)]
            events = sum(make_log(p, args.rounds, seed=n) for n, p in enumerate(logs, 1))
            long_log = folder / "long.db"
            long_events = make_log(long_log, args.long_rounds, seed=11)
            rows: dict[str, list[float]] = {k: [] for k in (
                "sync", "resync", "sync_round", "report_server", "report_files", "floor_first",
                "floor_again", "floor_grown", "replay", "resume")}
            for run in range(args.runs):
                url = fresh_database(owner_url, run)
                elapsed, results = timed(lambda u=url: [
                    sync_log(p, u, p.stem) for p in logs])
                assert all(r.ok and r.on_server == r.events for r in results)
                rows["sync"].append(elapsed)
                elapsed, results = timed(lambda u=url: [
                    sync_log(p, u, p.stem) for p in logs])
                assert all(r.ok and r.sent == 0 for r in results)
                rows["resync"].append(elapsed)
                floor = Floor(url)
                elapsed, floor_rows = timed(floor.rows)
                assert len(floor_rows) == args.tables and all(r.ok for r in floor_rows)
                rows["floor_first"].append(elapsed)
                elapsed, again = timed(floor.rows)
                assert again == floor_rows and floor.replayed == 0
                rows["floor_again"].append(elapsed)
                for n, p in enumerate(logs, 1):  # one more round at every table
                    grow(p, args.rounds + run, seed=n)
                elapsed, results = timed(lambda u=url: [
                    sync_log(p, u, p.stem) for p in logs])
                assert all(r.ok and r.sent > 0 for r in results)
                rows["sync_round"].append(elapsed)
                elapsed, grown = timed(floor.rows)
                assert floor.replayed == args.tables and all(r.ok for r in grown)
                rows["floor_grown"].append(elapsed)
                elapsed, rec = timed(lambda u=url: reconcile(server_sessions(u)))
                assert len(rec.tables) == args.tables and rec.ok
                rows["report_server"].append(elapsed)
                elapsed, rec_files = timed(lambda: reconcile(logs))
                assert rec_files.nets == rec.nets
                rows["report_files"].append(elapsed)
                elapsed, session = timed(lambda: Session.from_events(
                    read_events(long_log)))  # read-only: no writer lock held
                rows["replay"].append(elapsed)
                if run == 0:
                    Session.open(long_log).close()  # writes the checkpoint
                elapsed, session = timed(lambda: Session.open(long_log))
                session.log.close()
                rows["resume"].append(elapsed)
    finally:
        if server is not None:
            server.close()
    med = {k: statistics.median(v) for k, v in rows.items()}
    table = [
        (f"sync {args.tables} tables x {args.rounds} rounds ({events} events), s",
         f"{med['sync']:.2f}", "-"),
        ("  sync throughput, events/s", f"{events / med['sync']:,.0f}", "-"),
        ("  re-sync of every table, nothing new, s", f"{med['resync']:.2f}", "-"),
        ("  sync of one more round at every table, s", f"{med['sync_round']:.2f}", "-"),
        ("back-office report from the server, s", f"{med['report_server']:.2f}", "-"),
        ("  the same report from the files, s", f"{med['report_files']:.2f}", "-"),
        ("floor view, first refresh, s", f"{med['floor_first']:.2f}", "-"),
        ("  floor view, refresh with nothing new, s", f"{med['floor_again']:.2f}", "-"),
        ("  floor view, refresh after one more round at every table, s",
         f"{med['floor_grown']:.2f}", "-"),
        (f"replay {args.long_rounds} rounds ({long_events} events), full fold, s",
         f"{med['replay']:.3f}", "<= 1"),
        (f"resume {args.long_rounds} rounds (checkpoint + tail), s", f"{med['resume']:.3f}",
         "<= 0.3"),
    ]
    width = max(len(r[0]) for r in table)
    print(f"Python {platform.python_version()} ({os.path.realpath(sys.executable)}); "
          "a PGO/LTO build (Debian's) folds ~15 % faster than a plain one (pyenv's)")
    print(f"median of {args.runs} runs; PostgreSQL on loopback; {os.cpu_count()} CPU(s) "
          "shared with other work, so expect noise")
    print(f"{'measure':<{width}}  {'median':>10}  {'target':>6}")
    for name, value, target in table:
        print(f"{name:<{width}}  {value:>10}  {target:>6}")


if __name__ == "__main__":
    main()
