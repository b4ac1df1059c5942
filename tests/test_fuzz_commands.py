"""Bad input never crashes a command: `replay`, `report` and `verify` end with exit 0, 1 or 2
and one line of reason, never a traceback (exit 3). The regression files in tests/regressions/
are issue 14's crash list; hypothesis mutates scenarios and logs around them."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.cli import main
from dealer_assist.session.engine import Session
from dealer_assist.session.simulate import greek31_events, greek31_start
from dealer_assist.variants import available_games

HERE = Path(__file__).resolve().parent
REGRESSIONS = HERE / "regressions"
SCENARIO = HERE / "scenarios" / "greek31" / "dealer_must_draw_before_standing.json"
FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


def run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    text = out.out + out.err
    assert code in (0, 1, 2), f"exit {code}: {text[-500:]}"
    assert "Traceback" not in text
    return code, text


@pytest.mark.parametrize("path", sorted((REGRESSIONS / "scenarios").glob("*.json")),
                         ids=lambda p: p.stem)
def test_scenario_regressions(capsys, path):
    code, text = run(capsys, "replay", path)
    assert code in (1, 2) and text.strip()


@pytest.mark.parametrize("name", ["first_dealer_float", "first_dealer_text",
                                  "first_dealer_list", "options_list"])
@pytest.mark.parametrize("game", available_games())
def test_start_shapes_are_checked_for_every_game(capsys, tmp_path, name, game):
    data = json.loads((REGRESSIONS / "scenarios" / f"{name}.json").read_text())
    data["game"] = game
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    code, text = run(capsys, "replay", path)
    assert code == 1 and ("first_dealer" in text or "options" in text)


@pytest.fixture(scope="module")
def regression_key():
    """The fixed public key the regression logs are signed with (in no data folder)."""
    return REGRESSIONS / "test_key.pub.pem"


@pytest.mark.parametrize("path", sorted((REGRESSIONS / "logs").glob("*.db")),
                         ids=lambda p: p.stem)
@pytest.mark.parametrize("with_key", [False, True])
def test_log_regressions(capsys, tmp_path, path, with_key, regression_key):
    copy = tmp_path / path.name  # never touch the committed file
    shutil.copyfile(path, copy)
    extra = ["--key", regression_key] if with_key else []
    code, _ = run(capsys, "verify", copy, *extra)
    assert code in (1, 2)
    for fmt in ("text", "json", "csv"):
        code, _ = run(capsys, "report", copy, "--format", fmt, *extra)
        assert code in (1, 2)


def test_a_fifo_is_refused_not_waited_on(capsys, tmp_path):
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    for command in ("verify", "report", "replay"):
        code, text = run(capsys, command, fifo)
        assert code == 2 and "not a regular file" in text


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12)


@FUZZ
@given(data=st.data())
def test_fuzzed_scenarios(capsys, data):
    scenario = json.loads(SCENARIO.read_text())
    for _ in range(data.draw(st.integers(1, 3))):
        target = data.draw(st.sampled_from(["top", "seat", "event", "event_field"]))
        value = data.draw(json_values)
        if target == "top":
            scenario[data.draw(st.sampled_from(
                ["game", "options", "seats", "first_dealer", "events", "x"]))] = value
        elif target == "seat" and isinstance(scenario.get("seats"), list) and scenario["seats"]:
            scenario["seats"][0] = value
        elif isinstance(scenario.get("events"), list) and scenario["events"]:
            i = data.draw(st.integers(0, len(scenario["events"]) - 1))
            if target == "event" or not isinstance(scenario["events"][i], dict):
                scenario["events"][i] = value
            else:
                scenario["events"][i][data.draw(st.sampled_from(
                    ["type", "seat", "card", "amount", "target"]))] = value
    raw = json.dumps(scenario, ensure_ascii=False).encode("utf-8", "surrogatepass")
    if data.draw(st.booleans()):  # and some byte-level damage
        pos = data.draw(st.integers(0, len(raw) - 1))
        raw = raw[:pos] + bytes([data.draw(st.integers(0, 255))]) + raw[pos + 1:]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.json"
        path.write_bytes(raw)
        run(capsys, "replay", path)


@pytest.fixture(scope="module")
def good_log(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz-log")
    start = greek31_start()
    session = Session.new(start["game"], start["options"], start["seats"],
                          start["first_dealer"], path=folder / "good.db")
    for event in list(greek31_events(3, seed=2))[:40]:
        session.submit(event)
    session.close()
    return folder / "good.db"


@FUZZ
@given(data=st.data())
def test_fuzzed_logs(capsys, good_log, data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.db"
        shutil.copyfile(good_log, path)
        kind = data.draw(st.sampled_from(["body", "raw_body", "type", "delete", "bytes"]))
        seq = data.draw(st.integers(1, 40))
        if kind == "bytes":
            blob = bytearray(path.read_bytes())
            rng = random.Random(data.draw(st.integers(0, 2**32)))
            for _ in range(data.draw(st.integers(1, 8))):
                blob[rng.randrange(len(blob))] = rng.randrange(256)
            path.write_bytes(bytes(blob))
        else:
            con = sqlite3.connect(path)
            if kind == "body":
                value = data.draw(json_values)
                text = json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
                con.execute("UPDATE events SET body = ? WHERE seq = ?",
                            [text.decode("utf-8", "replace"), seq])
            elif kind == "raw_body":
                con.execute("UPDATE events SET body = ? WHERE seq = ?",
                            [data.draw(st.text(max_size=30)), seq])
            elif kind == "type":
                con.execute("UPDATE events SET type = ? WHERE seq = ?",
                            [data.draw(st.text(max_size=10)), seq])
            else:
                con.execute("DELETE FROM events WHERE seq = ?", [seq])
            con.commit()
            con.close()
        run(capsys, "verify", path)
        run(capsys, "report", path, "--format", data.draw(st.sampled_from(["text", "json"])))
