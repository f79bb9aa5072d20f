"""The contract every registered game keeps (issue 12), checked the same way for each of them,
from every phase the replay scripts reach:

* the same seed gives the same state;
* views are JSON, and the TV view never holds a key that only the host's view has;
* for thousands of generated inputs that pass the protocol check, the engine raises nothing but a
  refusal (or a quiet ignore), every refusal code is in the catalogue, and no public refusal
  names a secret (issue 11 item 3);
* a refused input changes nothing, also after the journal is refolded.
"""
from __future__ import annotations

import ast
import copy
import json
import re
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server import games
from server.games import tofu_kingdom
from server.games.base import Quiet, RuleError
from server.journal import Journal
from server.protocol import READERS, ProtocolError, check
from server.refusal import CATALOGUE
from server.table import Table
from tests.support import tiny_game
from tests.support.scripts import SCRIPTS, script_inputs

games.register(tiny_game.GAME)
ROOT = Path(__file__).resolve().parents[1]
TINY = [{"new_game": {"game": "tiny", "players": ["Ann", "Ben", "Cat"], "seed": 3,
                      "options": {"rounds": 2}}},
        {"tap": {"reader": "seat-1", "card": "test/red"}},
        {"tap": {"reader": "seat-2", "card": "test/blue"}},
        {"tap": {"reader": "seat-3", "card": "test/red"}},
        {"button": {"name": "advance"}},
        {"tap": {"reader": "seat-1", "card": "test/blue"}},
        {"tap": {"reader": "seat-2", "card": "test/blue"}},
        {"tap": {"reader": "seat-3", "card": "test/blue"}},
        {"button": {"name": "advance"}}]
#: Starting points per phase: the first few states of each phase in each script.
PER_PHASE = 2


def _nights() -> dict[str, list[list[dict]]]:
    """Every game's replay scripts (the tiny game's night is written here)."""
    nights: dict[str, list[list[dict]]] = {"tiny": [TINY]}
    for path in sorted(SCRIPTS.glob("*.jsonl")):
        inputs = script_inputs(path.name)
        nights.setdefault(inputs[0]["new_game"]["game"], []).append(inputs)
    return nights


NIGHTS = _nights()
GAME_IDS = sorted(g.id for g in games.all_games() if g.id in NIGHTS)


@lru_cache(maxsize=None)
def starts(game_id: str) -> tuple[tuple[dict, ...], ...]:
    """Input prefixes that reach each phase of ``game_id`` (a few per phase and script)."""
    out = []
    for night in NIGHTS[game_id]:
        table, seen = Table(Journal(":memory:")), {}
        for n, inp in enumerate(night):
            assert table.handle(inp).accepted, inp
            phase = table.state["phase"] if table.state else None
            if phase and seen.get(phase, 0) < PER_PHASE:
                seen[phase] = seen.get(phase, 0) + 1
                out.append(tuple(night[:n + 1]))
    return tuple(out)


@lru_cache(maxsize=None)
def start_state(game_id: str, index: int) -> dict:
    table = Table(Journal(":memory:"))
    for inp in starts(game_id)[index]:
        table.handle(inp)
    return table.state


def audiences(state: dict) -> list[str]:
    return ["table", "host"] + [f"seat-{p['seat']}" for p in state["players"]]


def key_paths(value, prefix: str = "") -> set[str]:
    """Every key path of a JSON value (list items as ``[]``)."""
    if isinstance(value, dict):
        return {p for k, v in value.items() for p in {f"{prefix}.{k}"} | key_paths(v, f"{prefix}.{k}")}
    if isinstance(value, list):
        return {p for v in value for p in key_paths(v, f"{prefix}[]")}
    return set()


# ----- secrets: what a public refusal must never name -------------------------------------

def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z][a-z-]*", text.lower()))


def secret_leak(state: dict, message: str) -> str | None:
    """A hidden fact of ``state`` that ``message`` (sent to the TV) gives away, else None."""
    words = _words(message.replace(games.get(state["game"]).name, ""))
    if state["game"] == "tofu-god":
        turn = state["turn"]
        guessing = state["phase"] == "guessing"   # afterwards the guesses are on the TV
        hidden = ({c for c in turn["choices"] if c and c not in turn["revealed"]}
                  | (set(turn["guesses"].values()) if guessing else set()))
        text = message.lower()   # the engine names a card as "the <label>"
        return next((s for s in hidden if f"the {state['labels'][s].lower()}" in text), None)
    if state["game"] == "tofu-kingdom":
        if state["revealed"]:
            return None
        for question in tofu_kingdom.QUESTION_LABELS.values():   # "Where is Princess Tofu?" names no one's
            message = message.replace(question, "")
        flipped = state["flip"]["position"] if state["flip"] else None
        for position, role in state["placed"].items():
            seat = int(position[5:]) if position.startswith("seat-") else None
            where = state["players"][seat - 1]["name"] if seat else "centre"
            if position != flipped and role in message.lower().replace(" ", "") and where in message:
                return f"{role} at {position}"
            if position != flipped and state["coasters"][role]["name"] in message and where in message:
                return f"{role} at {position}"
        return None
    if state["game"] == "tiny":
        if set(tiny_game.COLOURS) <= words:
            return None   # the list of every colour names none in particular
        return next((c for c in state["secrets"].values() if c in words), None)
    return None   # Food for Thought: everything on the table is open information


# ----- generated inputs -------------------------------------------------------------------

def vocabulary(game, state: dict) -> list:
    """Words this game and state use (ids, names, card ids), for inputs that get past the schemas."""
    strings: set[str] = set(game.cards()) | {"center", "table", "best", "worst", "x", ""}

    def walk(v):
        if isinstance(v, str) and len(v) < 40:
            strings.add(v)
        elif isinstance(v, dict):
            for k, w in v.items():
                if len(k) < 40:
                    strings.add(k)
                walk(w)
        elif isinstance(v, list):
            for w in v:
                walk(w)
    walk(game.view(state, "host"))
    return sorted(strings)[:400]


def values(vocab: list) -> st.SearchStrategy:
    scalar = st.one_of(st.sampled_from(vocab), st.integers(-3, 12), st.sampled_from([0, 999, 10**6]),
                       st.none(), st.booleans())
    return st.one_of(scalar, st.lists(scalar, max_size=4),
                     st.lists(st.dictionaries(st.sampled_from(vocab), scalar, max_size=3), max_size=3),
                     st.dictionaries(st.sampled_from(vocab), scalar, max_size=3))


@st.composite
def game_input(draw, game, state: dict) -> dict:
    """One input a page, a reader or the camera could send, aimed at ``game``'s declared moves."""
    vocab = vocabulary(game, state)
    kind = draw(st.sampled_from(["tap", "lift", "button", "board", "host", "seat", "host", "seat"]))
    if kind in ("tap", "lift"):
        cards = game.cards() or vocab
        card = draw(st.one_of(st.sampled_from(cards), st.sampled_from(["x/y", "test/green", "tofu-god/set-9/rat"])))
        return {kind: {"reader": draw(st.sampled_from(READERS)), "card": card}}
    if kind == "board":
        boards = sorted(game.boards(state)) or ["diet-1"]
        slots = draw(st.dictionaries(st.sampled_from(vocab), st.one_of(st.none(), st.sampled_from(vocab)),
                                     max_size=4))
        return {"board": {"board": draw(st.sampled_from(boards + ["main", "diet-9"])), "slots": slots}}
    moves = [m for m in game.moves if m.input == kind]
    names = [m.name for m in moves] + (["bogus"] if kind != "button" else ["pause"])
    name = draw(st.sampled_from(names))
    if kind == "button":
        return {"button": {"name": name}}
    move = next((m for m in moves if m.name == name), None)
    body = {"action": name}
    for arg in (move.args if move else ()):
        if draw(st.integers(0, 9)) > 0:
            wanted = list(arg.choices) + list(range(0, 10)) if arg.kind in ("seat", "choice") else []
            body[arg.name] = draw(st.one_of(st.sampled_from(wanted or vocab), values(vocab)))
    if kind == "seat":
        body["seat"] = draw(st.integers(1, 8))
    return {kind: body}


def _protocol_valid(inp: dict) -> dict | None:
    try:
        return check(inp)
    except ProtocolError:
        return None


# ----- the contract -----------------------------------------------------------------------

@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_same_seed_gives_the_same_state(game_id):
    for night in NIGHTS[game_id]:
        first, second = Table(Journal(":memory:")), Table(Journal(":memory:"))
        for inp in night:
            first.handle(inp)
            second.handle(inp)
        assert first.state == second.state
        game, new = games.get(game_id), night[0]["new_game"]
        options = game.resolve_options(new.get("options"), len(new["players"]))
        assert game.setup(new["players"], options, 12345) == game.setup(new["players"], options, 12345)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_views_are_json_and_the_tv_never_holds_a_host_only_key(game_id):
    game = games.get(game_id)
    states = [start_state(game_id, i) for i in range(len(starts(game_id)))]
    host_only: set[str] = set()
    for state in states:
        views = {a: game.view(state, a) for a in audiences(state)}
        for audience, view in views.items():
            assert json.loads(json.dumps(view, allow_nan=False)) == view, audience
            assert isinstance(view["prompt"], str) and view["prompt"], audience
        host_only |= key_paths(views["host"]) - key_paths(views["table"])
    assert states, "no starting state"
    for state in states:
        leaked = key_paths(game.view(state, "table")) & host_only
        assert not leaked, (state["phase"], sorted(leaked)[:5])


def _refusal_checks(state: dict, error: RuleError) -> None:
    assert error.code in CATALOGUE, error.code
    public = error.as_dict("table")["message"]
    assert public and public.endswith((".", "!", ")")), public
    assert secret_leak(state, public) is None, (secret_leak(state, public), public)


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=1500, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_the_engine_raises_nothing_but_a_refusal_and_no_public_refusal_names_a_secret(game_id, data):
    game = games.get(game_id)
    index = data.draw(st.integers(0, len(starts(game_id)) - 1), label="start")
    state = start_state(game_id, index)
    inp = _protocol_valid(data.draw(game_input(game, state), label="input"))
    if inp is None:
        return
    try:
        new_state, events = game.apply(copy.deepcopy(state), inp)
    except Quiet:
        return
    except RuleError as error:
        _refusal_checks(state, error)
        return
    json.dumps([new_state, events], allow_nan=False)


#: The journals of :func:`_journalled_table`, removed when the test run ends (one folder a table).
_JOURNALS = tempfile.TemporaryDirectory(prefix="contract-")


@lru_cache(maxsize=None)
def _journalled_table(game_id: str, index: int) -> Table:
    """A table on a real SQLite file that has played ``starts(game_id)[index]``."""
    path = Path(tempfile.mkdtemp(dir=_JOURNALS.name)) / "journal.sqlite"
    table = Table(Journal(path))
    for inp in starts(game_id)[index]:
        table.handle(inp)
    return table


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_refused_input_changes_nothing_also_after_a_refold(game_id, data):
    index = data.draw(st.integers(0, len(starts(game_id)) - 1), label="start")
    table = _journalled_table(game_id, index)
    game = games.get(game_id)
    inp = _protocol_valid(data.draw(game_input(game, table.state), label="input"))
    if inp is None:
        return
    before, rows = copy.deepcopy(table.state), len(table.journal.live())
    outcome = table.handle(inp)
    if outcome.accepted and not outcome.quiet:
        assert table.handle({"host": {"action": "undo"}}).accepted
    elif not outcome.accepted:
        _refusal_checks(before, outcome.error)
    assert table.state == before and len(table.journal.live()) == rows
    table.refold()
    assert table.state == before


# ----- the catalogue --------------------------------------------------------------------------

#: Callables whose first argument is a refusal code.
_REFUSERS = {"RuleError", "Refusal", "ProtocolError", "_refuse_private", "_refuse"}


def _codes_in(path: Path):
    """``(line, code or None)`` for every refusal built in ``path`` (None: not a literal code)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", None))
        if name in _REFUSERS and node.args:
            arg = node.args[0]
        elif name in ("_fail", "json_error") and len(node.args) >= 2:
            arg = node.args[1]
        else:
            continue
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            yield node.lineno, arg.value
        elif isinstance(arg, ast.JoinedStr):
            yield node.lineno, None


def test_every_refusal_code_in_the_code_is_in_the_catalogue():
    """A code built on the fly or missing from server/refusal.py fails here."""
    files = [p for d in ("server", "hardware", "vision") for p in (ROOT / d).rglob("*.py")]
    files += [ROOT / "tests" / "support" / "tiny_game.py"]
    bad = [f"{p.relative_to(ROOT)}:{line}: {code!r}" for p in files for line, code in _codes_in(p)
           if code not in CATALOGUE]
    assert not bad, bad
    assert sum(1 for p in files for _ in _codes_in(p)) > 100, "the scan found the refusals"


def test_every_catalogue_entry_says_when_it_is_used():
    for code, text in CATALOGUE.items():
        assert re.fullmatch(r"[a-z][a-z_]+", code) and text.endswith("."), code
