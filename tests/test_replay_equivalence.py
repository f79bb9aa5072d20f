"""Every replay script gives the same outcome per input, the same scores and the same winners
as recorded in tests/scripts/replay-results.json before the engines moved to declared moves
(issue 12: behaviour stays the same; only refusal codes may change)."""
import json

import pytest

from tests.support.replay_results import RESULTS, replay_result
from tests.support.scripts import SCRIPTS

RECORDED = json.loads(RESULTS.read_text(encoding="utf-8"))


def test_every_script_has_a_recorded_result():
    assert sorted(RECORDED) == sorted(p.name for p in SCRIPTS.glob("*.jsonl"))


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_a_script_replays_as_recorded(name):
    assert replay_result(name) == RECORDED[name]
