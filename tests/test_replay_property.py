"""Property tests of the replay output (docs/replay.md), for every game and several option sets.

A random sequence of accepted commands (the game's own legal actions, with random cards and
amounts, and now and then an undo) is played into a logged session. Then:

- the session reopened from its own log, and the same events replayed as a scenario, give
  exactly the same replay output;
- every round balances: in a house-banked game every round has ``house``, 0 included, equal to
  minus the sum of the amounts; in the others the amounts sum to zero;
- every result has a ``detail``;
- the money adds up: starting money + the buy-ins and cash-outs listed before a round + the
  round's amounts = the round's bankrolls (no money appears from nothing).
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from dealer_assist.errors import RuleError
from dealer_assist.session.engine import Session
from dealer_assist.session.replay import replay_scenario, session_json
from dealer_assist.variants import available_games, get_variant

OPTION_SETS = {
    "greek31": [{}, {"table_stakes": False, "buy_ins": True, "max_bet": 30},
                {"heath": True, "decks": 2, "buy_ins": True}],
    "trianta_ena": [{"min_bet": 5}, {"min_bet": 20, "natural_tens": True}],
    "one_and_thirty": [{}, {"stake": 3, "double_stake": True}, {"bone_ace": True,
                                                                "winner_deals": True}],
    "sudden_death": [{}, {"entry": "summary"}],
    "classic31": [{}, {"buy_ins": True}],
}


def play(game: str, options: dict, data: st.DataObject, path: Path) -> Session:
    """A logged session driven by random legal actions; refusals are simply not recorded."""
    demo = get_variant(game).DEMO
    session = Session.new(game, {**demo.get("options", {}), **options}, demo["seats"],
                          demo.get("first_dealer"), path=path)
    for _ in range(data.draw(st.integers(10, 160), label="steps")):
        actions = session.legal_actions()
        if not actions:
            break
        if session.round_entries and data.draw(st.integers(0, 15), label="undo?") == 0:
            session.submit({"type": "void"})
            continue
        action = data.draw(st.sampled_from(actions), label="action")
        values = {}
        if action.asks == "card":
            usable = session.view().usable_cards
            values["card"] = data.draw(st.sampled_from(usable), label="card") if usable else "AS"
        elif action.asks == "amount":
            low = action.minimum or 1
            high = action.maximum if action.maximum is not None else low + 40
            values["amount"] = data.draw(st.integers(low, max(low, high)), label="amount")
        with contextlib.suppress(RuleError):  # a refusal records nothing
            session.submit(action.event(**values))
    return session


def check_balances(output: dict, house_banked: bool) -> None:
    for r in output["rounds"]:
        amounts = sum(x["amount"] for x in r["results"])
        if house_banked:
            assert "house" in r, f"round {r['round']} has no house result"
            assert r["house"] == -amounts
        else:
            assert "house" not in r
            assert amounts == 0, f"round {r['round']} does not balance"
        for x in r["results"]:
            assert x["detail"], f"round {r['round']}: {x['name']} has no detail"


def check_money_adds_up(output: dict, start: dict[str, int]) -> None:
    running = dict(start)
    for r in output["rounds"]:
        for m in output["money"]:
            if m["before_round"] == r["round"]:
                running[m["name"]] += m["amount"]
        for x in r["results"]:
            running[x["name"]] += x["amount"]
        assert running == r["bankrolls"], f"round {r['round']}"


@pytest.mark.parametrize("game", available_games())
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_replay_from_its_own_log_gives_the_same_output(game, data):
    options = data.draw(st.sampled_from(OPTION_SETS[game]), label="options")
    variant = get_variant(game)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "session.db"
        session = play(game, options, data, path)
        played = session_json(session)
        start_event = session.entries[0].body
        events = [e.body for e in session.entries[1:]]
        session.close()
        reopened = Session.open(path)
        from_log = session_json(reopened)
        reopened.close()
    scenario = {k: start_event[k] for k in ("game", "options", "seats", "first_dealer")
                if k in start_event}
    from_scenario = session_json(replay_scenario({**scenario, "events": events}))
    event(f"rounds {min(len(played['rounds']), 5)}+, money moves {bool(played['money'])}")
    assert from_log == played
    assert from_scenario == played
    check_balances(played, getattr(variant, "HOUSE_BANKED", False))
    check_money_adds_up(played, {s["name"]: s["money"] for s in start_event["seats"]})
