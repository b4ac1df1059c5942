"""Every golden scenario in tests/scenarios/<game>/ replays to its hand-checked ``expect``."""

import pytest
from conftest import SCENARIOS
from golden import check_golden

FILES = sorted(SCENARIOS.glob("*/*.json"))


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_golden_scenario(path):
    assert check_golden(path) == []
