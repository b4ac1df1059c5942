"""The generic drills of every game in the build: each answer is what a fresh replay of the
question's log does with the question's entry (a second, independent run of the engine)."""

import re

import pytest

from dealer_assist.errors import RuleError
from dealer_assist.session.engine import Session
from dealer_assist.training.drills import kinds_for, make_question
from dealer_assist.variants import available_games

GAMES = available_games()
SEEDS = range(4)


def _replay(q):
    session = Session.from_events(list(q.events))
    before = len(session.rounds)
    session.submit(q.entry)
    assert len(session.rounds) == before + 1  # the entry completes the round asked about
    return session.rounds[-1]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_payout(game, seed):
    q = make_question(game, "payout", seed)
    seat = int(re.search(r"\((?:seat|position) (\d+)\)", q.prompt).group(1))
    if "position" in q.prompt:  # seats with table positions are named by position
        seat = next(sv.seat for sv in q.table.seats if sv.extra == f"position {seat}")
    result = _replay(q)
    assert q.answer == next(r.amount for r in result.results if r.seat == seat)
    assert result.total == 0  # every settlement balances, the house included


@pytest.mark.parametrize("game", [g for g in GAMES if "next_dealer" in kinds_for(g)])
@pytest.mark.parametrize("seed", SEEDS)
def test_next_dealer(game, seed):
    q = make_question(game, "next_dealer", seed)
    assert q.answer == (_replay(q).next_dealer or 0)
    assert str(q.answer) in dict(q.choices)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_legal_entry(game, seed):
    q = make_question(game, "legal_entry", seed)
    session = Session.from_events(list(q.events))
    try:
        session.submit(q.entry)
    except RuleError:
        assert q.answer == "refuse"
    else:
        assert q.answer == "accept"


@pytest.mark.parametrize("game", GAMES)
def test_every_kind_builds_and_is_answerable(game):
    for kind in kinds_for(game):
        q = make_question(game, kind, 1)
        assert q.check(q.answer)
        assert q.prompt and q.explanation and q.table.seats
