"""Crash safety: SIGKILL a process that appends events in a loop; the log loses at most one event."""

import itertools
import os
import signal
import subprocess
import sys

import pytest

from dealer_assist.session.engine import Session
from dealer_assist.session.log import read_events, verify
from dealer_assist.session.simulate import greek31_events, greek31_start

WRITER = """
import sys
from dealer_assist.session.engine import Session
from dealer_assist.session.simulate import greek31_events, greek31_start
start = greek31_start()
session = Session.new(start["game"], start["options"], start["seats"], start["first_dealer"],
                      path=sys.argv[1])
for event in greek31_events(100_000, seed=7):
    session.submit(event)
    print(session.log.last_seq, flush=True)
"""


@pytest.mark.parametrize("kill_after", [25, 180, 611])
def test_sigkill_loses_at_most_the_event_being_written(tmp_path, kill_after):
    path = tmp_path / "session.db"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    for line in proc.stdout:
        if int(line) >= kill_after:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    # every commit the writer reported before it died is acknowledged (the pipe keeps them)
    acknowledged = max([kill_after, *(int(n) for n in proc.stdout.read().split())])
    proc.stdout.close()

    files = [path, path.with_name(path.name + "-wal")]  # what the crash left, -wal included
    before = [f.read_bytes() for f in files]
    assert verify(path).ok
    stored = len(read_events(path))
    assert [f.read_bytes() for f in files] == before  # evidence tools changed nothing
    assert acknowledged <= stored <= acknowledged + 1

    session = Session.open(path)  # the session resumes where it stood
    expected = Session.from_events([greek31_start(), *itertools.islice(
        greek31_events(100_000, seed=7), stored - 1)])
    assert session.state == expected.state
    next_event = next(itertools.islice(greek31_events(100_000, seed=7), stored - 1, None))
    session.submit(next_event)
    assert verify(path).ok and len(read_events(path)) == stored + 1
