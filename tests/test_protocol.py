"""The table protocol: one JSON object per input, checked the same way everywhere."""
import pytest

from server.protocol import ProtocolError, check


@pytest.mark.parametrize("inp", [
    {"new_game": {"game": "tofu-god", "players": ["Anna", "Ben"], "seed": 7, "options": {}}},
    {"tap": {"reader": "seat-2", "card": "tofu-god/set-2/elephant"}},
    {"tap": {"reader": "center", "uid": "04A224C2B31190"}},
    {"lift": {"reader": "table", "uid": "04A224C2"}},
    {"button": {"name": "advance"}},
    {"board": {"board": "diet-1", "slots": {"body.dairy.3": "dairy", "kitchen.2.1": None}}},
    {"host": {"action": "undo"}},
    {"host": {"action": "set_score", "seat": 2, "score": 5, "why": "miscounted"}},
    {"seat": {"seat": 2, "action": "ask", "target": 3}},
])
def test_every_example_of_the_design_brief_is_accepted_as_is(inp):
    assert check(inp) == inp


def test_a_uid_is_accepted_as_reader_tools_print_it():
    """Readers and phone apps print UIDs with colons, spaces or lower case."""
    assert check({"tap": {"reader": "seat-1", "uid": "04:a2:24:c2:b3:11:90"}}) == {
        "tap": {"reader": "seat-1", "uid": "04A224C2B31190"}}
    assert check({"lift": {"reader": "seat-1", "uid": "de ad be ef"}})["lift"]["uid"] == "DEADBEEF"


def test_new_game_fills_seed_and_options_and_trims_names():
    assert check({"new_game": {"game": "tiny", "players": [" Anna ", "Ben"]}}) == {
        "new_game": {"game": "tiny", "players": ["Anna", "Ben"], "seed": 0, "options": {}}}


def refusal(inp) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        check(inp)
    return caught.value


@pytest.mark.parametrize("inp, code, words", [
    ([], "bad_input", "exactly one of"),
    ({}, "bad_input", "exactly one of"),
    ({"tap": {"reader": "seat-1", "card": "a/b"}, "lift": {"reader": "seat-1", "card": "a/b"}},
     "bad_input", "exactly one of"),
    ({"shake": {}}, "unknown_kind", "Unknown input kind 'shake'"),
    ({"tap": "seat-1"}, "bad_input", "tap must be an object"),
    ({"tap": {"reader": "seat-1", "card": "a/b", "force": 1}}, "bad_input", "unknown field 'force'"),
    ({"tap": {"card": "a/b"}}, "bad_input", "missing 'reader'"),
    ({"tap": {"reader": "seat-9", "card": "a/b"}}, "unknown_reader", "no reader 'seat-9'"),
    ({"tap": {"reader": "seat-1"}}, "bad_input", "exactly one of card"),
    ({"tap": {"reader": "seat-1", "card": "a/b", "uid": "DEADBEEF"}}, "bad_input", "exactly one of card"),
    ({"tap": {"reader": "seat-1", "uid": "DEADBEE"}}, "bad_input", "4, 7 or 10 bytes"),
    ({"tap": {"reader": "seat-1", "uid": 3735928559}}, "bad_input", "4, 7 or 10 bytes"),
    ({"tap": {"reader": "seat-1", "card": "Elephant"}}, "bad_input", "not well formed"),
    ({"button": {"name": ""}}, "bad_input", "non-empty string"),
    ({"button": {"name": "x" * 65}}, "bad_input", "at most 64"),
    ({"new_game": {"game": "tiny", "players": []}}, "bad_input", "1 to 8 names"),
    ({"new_game": {"game": "tiny", "players": ["P%d" % n for n in range(9)]}}, "bad_input", "1 to 8"),
    ({"new_game": {"game": "tiny", "players": ["Anna", " "]}}, "bad_input", "must not be blank"),
    ({"new_game": {"game": "tiny", "players": ["Anna", "ANNA"]}}, "bad_input", "same name"),
    ({"new_game": {"game": "tiny", "players": ["Anna"], "seed": -1}}, "bad_input", "whole number"),
    ({"new_game": {"game": "tiny", "players": ["Anna"], "seed": True}}, "bad_input", "whole number"),
    ({"new_game": {"game": "tiny", "players": ["Anna"], "options": []}}, "bad_input", "must be an object"),
    ({"board": {"board": "diet-1", "slots": {"Body": "dairy"}}}, "bad_input", "slot id"),
    ({"board": {"board": "diet-1", "slots": {str(n): None for n in range(513)}}}, "bad_input", "512"),
    ({"host": {}}, "bad_input", "host.action"),
    ({"host": {"action": "set_score", "score": float("nan")}}, "bad_input", "not finite"),
    ({"host": {"action": "x", "deep": [[[[[[[[1]]]]]]]]}}, "bad_input", "nested too deeply"),
    ({"host": {"action": "x", "data": {1: 2}}}, "bad_input", "not a string"),
    ({"host": {"action": "x", "data": b"raw"}}, "bad_input", "not JSON"),
    ({"seat": {"action": "ask"}}, "bad_input", "seat number from 1 to 8"),
    ({"seat": {"seat": 9, "action": "ask"}}, "bad_input", "seat number from 1 to 8"),
])
def test_a_malformed_input_is_refused_saying_what_is_wrong(inp, code, words):
    error = refusal(inp)
    assert error.code == code
    assert words in error.message
    assert error.as_dict() == {"code": code, "message": error.message}


def test_check_does_not_change_what_it_was_given():
    inp = {"tap": {"reader": "seat-1", "uid": "de:ad:be:ef"}}
    check(inp)
    assert inp == {"tap": {"reader": "seat-1", "uid": "de:ad:be:ef"}}
