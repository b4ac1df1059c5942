"""The replay output as docs/replay.md describes it (issue 13's output fixes)."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from dealer_assist.commands import replay as replay_command
from dealer_assist.session.engine import Session
from dealer_assist.session.replay import replay_scenario, session_json

DOCS = Path(__file__).resolve().parent.parent / "docs"


def output(game: str, options: dict, seats: list, events: list, first_dealer=1) -> dict:
    return session_json(replay_scenario({"game": game, "options": options, "seats": seats,
                                         "first_dealer": first_dealer, "events": events}))


GREEK_SEATS = [{"name": "Ann", "money": 50}, {"name": "Bea", "money": 20},
               {"name": "Cy", "money": 20}]
GREEK_DEAL = [{"type": "sit_out", "seat": 3}, {"type": "deal", "seat": 2, "card": "KD"},
              {"type": "bet", "seat": 2, "amount": 5}, {"type": "deal", "seat": 1, "card": "9C"},
              {"type": "deal", "seat": 1, "card": "8C"}, {"type": "stand", "seat": 1},
              {"type": "deal", "seat": 2, "card": "QD"}, {"type": "stand", "seat": 2},
              {"type": "settle"}]


def test_a_house_banked_round_with_a_zero_result_still_has_house():
    seats = [{"name": "Ann", "money": 100, "position": 2}]
    out = output("classic31", {}, seats, [{"type": "ante", "seat": 1, "amount": 10},
                                          {"type": "deal_hands"}, {"type": "misdeal"}])
    assert out["rounds"][0]["house"] == 0


def test_a_game_without_a_house_has_no_house_key():
    out = output("greek31", {}, GREEK_SEATS, GREEK_DEAL)
    assert "house" not in out["rounds"][0]


def test_every_result_has_a_detail():
    out = output("greek31", {}, GREEK_SEATS, GREEK_DEAL)
    assert [(r["name"], r["detail"]) for r in out["rounds"][0]["results"]] == [
        ("Cy", "sat out"), ("Bea", "20 vs 17"), ("Ann", "17")]


def test_buy_ins_are_listed_with_the_round_they_came_before():
    events = [*GREEK_DEAL, {"type": "buy_in", "seat": 3, "amount": 15},
              {"type": "buy_in", "seat": 2, "amount": 4}, {"type": "void"}]
    out = output("greek31", {"buy_ins": True}, GREEK_SEATS, events)
    assert out["money"] == [{"type": "buy_in", "seat": 3, "name": "Cy", "amount": 15,
                             "before_round": 2, "event_index": 9}]  # the voided one is gone
    assert out["bankrolls"]["Cy"] == 35


def test_a_cash_out_of_everything_is_listed_with_its_amount():
    seats = [{"name": "Ann", "money": 300}, {"name": "Bea", "money": 100},
             {"name": "Cy", "money": 100}]
    out = output("trianta_ena", {}, seats, [{"type": "cash_out", "seat": 3},
                                            {"type": "cash_out", "seat": 2, "amount": 30}])
    assert out["money"] == [
        {"type": "cash_out", "seat": 3, "name": "Cy", "amount": -100, "before_round": 1,
         "event_index": 0},
        {"type": "cash_out", "seat": 2, "name": "Bea", "amount": -30, "before_round": 1,
         "event_index": 1}]


def test_the_money_list_is_the_same_from_the_log(tmp_path):
    path = tmp_path / "s.db"
    session = Session.new("greek31", {"buy_ins": True}, GREEK_SEATS, 1, path=path)
    for event in [*GREEK_DEAL, {"type": "buy_in", "seat": 3, "amount": 15}]:
        session.submit(event)
    expected = session_json(session)
    session.close()
    assert session_json(Session.open(path)) == expected
    assert expected["money"][0]["amount"] == 15


def test_classic31_results_name_the_position():
    seats = [{"name": "Ann", "money": 100, "position": 5}, {"name": "Bea", "money": 100,
                                                            "position": 2}]
    out = output("classic31", {}, seats, [{"type": "ante", "position": 2, "amount": 10},
                                          {"type": "deal_hands"}, {"type": "misdeal"}])
    assert [(r["seat"], r["position"], r["name"]) for r in out["rounds"][0]["results"]] == [
        (1, 5, "Ann"), (2, 2, "Bea")]  # settled position 6 to 1


def run_replay(tmp_path, scenario: dict, capsys) -> tuple[int, str, str]:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    code = replay_command.run(argparse.Namespace(scenario=str(path), compact=True))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_refused_set_up_reports_event_index_null_and_stage_setup(tmp_path, capsys):
    code, out, err = run_replay(tmp_path, {"game": "greek31", "seats": [{"name": "Ann"}],
                                           "events": []}, capsys)
    assert code == 1 and out == ""
    refusal = json.loads(err.strip().splitlines()[-1])
    assert refusal["event_index"] is None and refusal["stage"] == "setup"
    assert "money" in refusal["error"]


def test_a_refused_event_reports_its_index_and_stage_events(tmp_path, capsys):
    scenario = {"game": "greek31", "seats": GREEK_SEATS, "first_dealer": 1,
                "events": [{"type": "deal", "seat": 3, "card": "1H"}]}
    code, _, err = run_replay(tmp_path, scenario, capsys)
    refusal = json.loads(err.strip().splitlines()[-1])
    assert code == 1 and refusal["event_index"] == 0 and refusal["stage"] == "events"
    assert "is not a rank" in refusal["error"]


def json_blocks(text: str) -> list[dict]:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)\n```", text, re.S)]


def test_the_example_in_docs_replay_md_is_what_replay_prints():
    scenario, printed = json_blocks((DOCS / "replay.md").read_text(encoding="utf-8"))[:2]
    assert session_json(replay_scenario(scenario)) == printed


RULINGS = {"greek31": ("G", 11), "trianta_ena": ("T", 11), "one_and_thirty": ("O", 10),
           "sudden_death": ("S", 10), "classic31": ("C", 11)}


@pytest.mark.parametrize("game", sorted(RULINGS))
def test_each_game_doc_stands_on_its_own_with_every_ruling(game):
    text = (DOCS / "games" / f"{game}.md").read_text(encoding="utf-8")
    assert "../shared" not in text and "RULINGS.md" not in text
    letter, count = RULINGS[game]
    missing = [f"{letter}{n}" for n in range(1, count + 1)
               if not re.search(rf"\b{letter}{n}\b", text)]
    assert not missing, f"docs/games/{game}.md does not mention {missing}"
