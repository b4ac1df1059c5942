"""Checkpoints beside the log: a cache that is used only when it provably matches the log."""

from __future__ import annotations

import pickle
import shutil
from itertools import islice

import pytest

from dealer_assist.session import checkpoint
from dealer_assist.session.engine import Session
from dealer_assist.session.simulate import greek31_events, greek31_start


@pytest.fixture(autouse=True)
def small(monkeypatch, data_dir):
    monkeypatch.setattr(checkpoint, "SAVE_AFTER", 50)


@pytest.fixture
def loads(monkeypatch):
    """What each checkpoint.load returned (None: not used)."""
    seen, real = [], checkpoint.load
    monkeypatch.setattr(checkpoint, "load", lambda *a: seen.append(real(*a)) or seen[-1])
    return seen


def play(path, events):
    start = greek31_start()
    session = Session.new("greek31", start["options"], start["seats"], 1, path=path)
    for event in events:
        session.submit(event)
    return session


def summary(session):
    return (len(session.entries), [r.bankrolls for r in session.rounds], session.view(),
            session.state, [e.seq for e in session.round_entries])


def full_replay(path):
    session = Session.open(path)  # called after the checkpoint is removed
    return summary(session)


def test_a_closed_session_reopens_from_its_checkpoint_with_the_same_state(tmp_path):
    path = tmp_path / "s.db"
    events = list(islice(greek31_events(10, seed=2), 150))  # ends inside a round
    play(path, events).close()
    assert checkpoint.path_for(path).exists()
    resumed = Session.open(path)
    assert resumed._saved_seq == 151
    got = summary(resumed)
    resumed.close()
    checkpoint.path_for(path).unlink()
    assert got == full_replay(path)


def test_events_logged_after_the_checkpoint_are_folded_on_top(tmp_path):
    path = tmp_path / "s.db"
    events = list(islice(greek31_events(20, seed=3), 300))
    play(path, events[:120]).close()
    session = Session.open(path)
    for event in events[120:160]:  # then the tablet dies: no close, no new checkpoint
        session.submit(event)
    session.log.close()
    resumed = Session.open(path)
    assert resumed._saved_seq == 121
    got = summary(resumed)
    for event in events[160:]:  # and the resumed session goes on as if replayed
        resumed.submit(event)
    resumed.close()
    checkpoint.path_for(path).unlink()
    assert got[0] == 161
    whole = Session.open(path)
    assert len(whole.rounds) == len(Session.from_events([greek31_start(), *events]).rounds)


def test_a_checkpoint_that_does_not_match_is_ignored_and_rebuilt(tmp_path, monkeypatch, loads):
    path, other = tmp_path / "s.db", tmp_path / "other.db"
    play(path, islice(greek31_events(10, seed=4), 120)).close()
    play(other, islice(greek31_events(10, seed=5), 120)).close()
    shutil.copy(checkpoint.path_for(other), checkpoint.path_for(path))  # another log's cache
    expected = summary(Session.open(path))
    assert loads[-1] is None  # replayed in full, then cached again
    assert summary(Session.open(path)) == expected and loads[-1][0] == 121
    monkeypatch.setattr(checkpoint, "fingerprint", lambda: "a rule was fixed")
    assert summary(Session.open(path)) == expected and loads[-1] is None


def test_a_planted_or_altered_checkpoint_is_never_unpickled(tmp_path, loads):
    path = tmp_path / "s.db"
    play(path, islice(greek31_events(10, seed=6), 120)).close()
    expected = full_replay(path)
    marker = tmp_path / "pwned"

    class Payload:
        def __reduce__(self):
            return (marker.write_text, ("code ran",))

    body = pickle.dumps(Payload())
    checkpoint.path_for(path).write_bytes(checkpoint.MAGIC + b"\0" * 32 + body)
    session = Session.open(path)
    assert not marker.exists() and loads[-1] is None
    session.close()
    data = bytearray(checkpoint.path_for(path).read_bytes())
    data[-5] ^= 1
    checkpoint.path_for(path).write_bytes(bytes(data))
    assert summary(Session.open(path)) == expected and not marker.exists()
    assert loads[-1] is None


def test_an_unwritable_folder_only_costs_speed(tmp_path, monkeypatch):
    path = tmp_path / "s.db"
    monkeypatch.setattr(checkpoint.os, "replace", lambda *a: (_ for _ in ()).throw(OSError))
    play(path, islice(greek31_events(10, seed=7), 120)).close()
    assert not checkpoint.path_for(path).exists()
    assert len(Session.open(path).entries) == 121


def test_a_resumed_session_equals_a_full_replay_in_every_attribute(tmp_path):
    """Every attribute the fold derives is in the checkpoint (a new one must be added to FIELDS)."""
    path = tmp_path / "s.db"
    start = greek31_start()
    session = Session.new("greek31", {**start["options"], "buy_ins": True}, start["seats"], 1,
                          path=path)
    session.submit({"type": "buy_in", "seat": 2, "amount": 15})
    for event in islice(greek31_events(10, seed=4), 120):
        session.submit(event)
    session.close()
    resumed = Session.open(path)
    resumed.log.close()  # one writer at a time: the replay below opens the same file
    assert resumed.money_moves
    assert resumed._saved_seq > 0
    checkpoint.path_for(path).unlink()
    replayed = Session.open(path)
    replayed.log.close()
    ignore = {"log", "_saved_seq"}
    for name in (vars(resumed).keys() | vars(replayed).keys()) - ignore:
        assert getattr(resumed, name) == getattr(replayed, name), name
