"""The dealer-assist command: replay and verify from outside, as a user runs them."""

import json
import shutil
import sqlite3
import subprocess
import sys

from conftest import SCENARIOS

CLI = [sys.executable, "-m", "dealer_assist.cli"]


def run(*args):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, check=False)


def test_replay_prints_rounds_as_json():
    result = run("replay", str(SCENARIOS / "greek31" / "g4_dealer_stands_on_31_collects_every_bet.json"))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["rounds"][0]["bankrolls"] == {"Ann": 65, "Bea": 10, "Cy": 15}
    assert out["rounds"][0]["next_dealer_name"] == "Ann"


def test_replay_of_an_illegal_event_exits_non_zero_with_reason_and_index():
    result = run("replay", str(SCENARIOS / "greek31" / "g8_bet_refused_when_dealer_cannot_cover.json"))
    assert result.returncode == 1
    assert "event 3" in result.stderr and "cover only 2" in result.stderr
    assert result.stdout == ""


def test_replay_of_a_missing_or_broken_file(tmp_path):
    assert "cannot read" in run("replay", str(tmp_path / "none.json")).stderr
    (tmp_path / "bad.json").write_text("{")
    result = run("replay", str(tmp_path / "bad.json"))
    assert result.returncode == 2 and "not valid JSON" in result.stderr


def test_verify_command_names_the_altered_event(tmp_path):
    from dealer_assist.session.engine import Session
    from dealer_assist.session.replay import load_scenario

    data = load_scenario(SCENARIOS / "greek31" / "g4_g5_dealer_14_only_31_beats.json")
    session = Session.new("greek31", data["options"], data["seats"], 1, path=tmp_path / "s.db")
    for event in data["events"]:
        session.submit(event)
    session.close()
    assert run("verify", str(tmp_path / "s.db")).returncode == 0
    shutil.copy(tmp_path / "s.db", tmp_path / "t.db")
    con = sqlite3.connect(tmp_path / "t.db")
    con.execute("UPDATE events SET body = replace(body, '\"amount\":5', '\"amount\":6') WHERE seq = 4")
    con.commit()
    con.close()
    result = run("verify", str(tmp_path / "t.db"))
    assert result.returncode == 1 and "BROKEN at event 4" in result.stdout


def test_games_lists_options_with_defaults():
    result = run("games", "greek31")
    assert "table_stakes = True" in result.stdout and "heath = False" in result.stdout
