"""Food for Thought's game data: the schema, loading, validation and where it comes from.

The cards' contents, the diet boards and the shopping list are not in the
rulebook text, so they are data files, one JSON object per line (``.jsonl``;
blank lines and lines starting with ``#`` are ignored).  Each kind of data
is one file with one schema (:data:`SCHEMA`, documented in
docs/food-for-thought.md).  A small invented SAMPLE set ships in
``server/games/data/food_for_thought/``; the owner of the game puts the real
cards in ``<data dir>/food-for-thought/``: once the owner marks a kind complete
(``complete.json`` there lists those kinds), its file replaces the sample file of
the same name as a whole (so sample and real cards never mix, and the first card
entered never replaces a whole deck); every kind still taken from the sample is
reported as sample data.

This module does file I/O; the engine calls :func:`load` once at setup and
keeps what it needs in the game state, so a running game never reads a file.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import abilities, goals, rules

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "data" / "food_for_thought"
#: The owner's folder inside the table's data dir.
OWNER_SUBDIR = "food-for-thought"
#: In the owner's folder: the kinds the owner marked complete, ``{"complete": [kind, ...]}``.
COMPLETE_FILE = "complete.json"

_SLUG = re.compile(r"^[a-z0-9][a-z0-9\-]{0,39}$")
#: Food ids are also the token names in `board` inputs: letters, digits, underscores.
_FOOD_ID = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
WILD = "wild"
#: Activity-only wild spaces: two tokens of one type at once, or one or two of one type.
WILD_PAIR = "wild2"
WILD_ONE_OR_TWO = "wild1or2"
DESTINATIONS = ("body", "kitchen")
MODULES = ("base", "potluck", "freezer")

# ----------------------------------------------------------------------------- schema
# A field spec is (type, required, default).  Types: id, text, int, count (int >= 0),
# bool, food, foods, need, needs, slug, ints, round, dest, module, measure, space, spaces,
# ability (one card ability, checked by abilities.problems), abilities (one per assistant option),
# and the nested ones checked by their own functions (groups, kitchen).
SCHEMA: dict[str, dict] = {
    "foods": {
        "file": "foods.jsonl", "what": "the food token types",
        "fields": {"id": ("food_id", True, None), "name": ("text", True, None),
                   "freezable": ("bool", True, None)}},
    "boards": {
        "file": "boards.jsonl", "what": "diet boards (body food groups and kitchen)",
        "fields": {"id": ("id", True, None), "name": ("text", True, None),
                   "kind": (("standard", "alternate", "solo"), True, None),
                   "groups": ("groups", True, None), "kitchen": ("kitchen", True, None)}},
    "allergies": {
        "file": "allergies.jsonl", "what": "food allergy tiles (module)",
        "fields": {"id": ("id", True, None), "name": ("text", True, None),
                   "replaces": ("slug", True, None), "forbidden": ("foods", True, None),
                   "foods": ("foods", True, None), "zero_vp": ("int", True, None),
                   "spaces": ("ints", True, None)}},
    "recipes": {
        "file": "recipes.jsonl", "what": "recipe cards",
        "fields": {"id": ("id", True, None), "name": ("text", True, None),
                   "needs": ("needs", True, None), "vp": ("count", True, None),
                   "penalty": ("count", True, None), "end_game_vp": ("count", False, 0),
                   "ability": ("text", False, ""), "does": ("ability", False, None),
                   "module": ("module", True, None), "solo": ("bool", True, None)}},
    "activities": {
        "file": "activities.jsonl", "what": "activity cards",
        "fields": {"id": ("id", True, None), "name": ("text", True, None),
                   "icon": ("slug", True, None), "needs": ("needs", True, None),
                   "vp": ("count", True, None), "penalty": ("count", True, None)}},
    "market": {
        "file": "market.jsonl", "what": "farmers market cards",
        "fields": {"id": ("id", True, None), "name": ("text", True, None),
                   "stand": ("slug", True, None), "stand_name": ("text", True, None),
                   "round": ("round", True, None), "foods": ("foods_or_wild", True, None),
                   "to": ("dest", True, None)}},
    "out_of_stock": {
        "file": "out_of_stock.jsonl", "what": "out of stock cards (1-2 players)",
        "fields": {"id": ("id", True, None), "spaces": ("spaces", True, None)}},
    "goals": {
        "file": "goals.jsonl", "what": "goal cards (module)",
        "fields": {"id": ("id", True, None), "name": ("text", True, None),
                   "measure": ("measure", True, None), "value": ("any", False, None),
                   "first": ("count", True, None), "second": ("count", True, None)}},
    "assistants": {
        "file": "assistants.jsonl", "what": "assistant cards",
        "fields": {"id": ("id", True, None), "name": ("text", True, None),
                   "helps": ("text", True, None), "options": ("texts", True, None),
                   "does": ("abilities", False, None), "left_out_with": ("ints", True, None)}},
    "shopping": {
        "file": "shopping.jsonl", "what": "the shopping list grid, one line per space",
        "fields": {"row": ("die", True, None), "col": ("die", True, None),
                   "food": ("food", True, None)}},
    "main_board": {
        "file": "main_board.jsonl", "what": "main board dining out spaces and the bag (one line)",
        "fields": {"pizza_fixed": ("food", True, None), "pizza_spaces": ("count", True, None),
                   "buffet_rows": ("count", True, None), "buffet_row_spaces": ("count", True, None),
                   "bag_per_food": ("count", True, None)}},
}
#: Required fields that carry a rule of the rulebook (left out, they would silently change the
#: game), with what to write: a missing one is refused with this text.
RULE_FIELDS = {
    "foods": {"freezable": 'add "freezable": true to a food the Freezer module lets you freeze and '
                           '"freezable": false to the others'},
    "recipes": {"module": 'add "module": "base" to a recipe of the base deck, "potluck" or "freezer" to '
                          'one of those modules\' cards (which deck it is shuffled into)',
                "solo": 'add "solo": false to a recipe the rulebook marks with an asterisk (left out of '
                        'the solo game) and "solo": true to every other recipe'},
    "assistants": {"left_out_with": 'add "left_out_with": the player counts the card is left out with: '
                                    '[2] for the Life Coach, [1] for the Restaurateur, [] for the others'},
}
#: Load order: foods first (every other kind refers to them).
KINDS = tuple(SCHEMA)
#: How many cards of each kind the published game has (for `data check`).
PUBLISHED_COUNTS = {"foods": 11, "recipes": 72, "activities": 48, "market": 12, "out_of_stock": 12,
                    "goals": 10, "assistants": 6, "allergies": 4}
#: A file may hold at most this many times the published count (more is a mistake, and would
#: only slow the table down: end-of-game scoring searches a player's completed activities).
MAX_OVER_PUBLISHED = 2


class DataError(ValueError):
    """Game data that does not follow the schema; ``problems`` lists every one."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems[:3]) + (f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""))
        self.problems = problems


@dataclass
class Catalog:
    """Validated game data: records by kind, and where each kind came from."""

    records: dict[str, list[dict]] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)     # kind -> "sample" | "owner"
    paths: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def sample_kinds(self) -> list[str]:
        """Kinds still taken from the invented sample set."""
        return [k for k in KINDS if self.sources.get(k) == "sample"]

    def as_json(self) -> dict:
        """Everything loaded, as JSON (the snapshot a game is set up from; see :func:`from_json`)."""
        return asdict(self)

    @classmethod
    def from_json(cls, snapshot: dict) -> "Catalog":
        """The catalogue :meth:`as_json` gave."""
        return cls(**snapshot)

    def fingerprint(self) -> str:
        """A short digest of the records: it changes whenever any card or board changes."""
        text = json.dumps(self.records, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


# ----------------------------------------------------------------------------- where
_configured_owner_dir: Path | None = None


def configure(data_dir: str | Path | None) -> None:
    """Use ``data_dir``/food-for-thought as the owner's folder (the server calls this at start)."""
    global _configured_owner_dir
    _configured_owner_dir = Path(data_dir) / OWNER_SUBDIR if data_dir is not None else None


def owner_dir() -> Path:
    """The owner's data folder: the configured one, else in the default data dir."""
    if _configured_owner_dir is not None:
        return _configured_owner_dir
    from server.context import default_data_dir
    return default_data_dir() / OWNER_SUBDIR


# ----------------------------------------------------------------------------- checking
class _Problems:
    def __init__(self, where: str):
        self.where = where
        self.items: list[str] = []

    def add(self, message: str) -> None:
        self.items.append(f"{self.where}: {message}")


def _need_ok(value, foods: set, activity: bool) -> str | None:
    if not isinstance(value, str):
        return "must be a string"
    if value == WILD or (activity and value in (WILD_PAIR, WILD_ONE_OR_TWO)):
        return None
    parts = value.split("|")
    bad = [p for p in parts if p not in foods]
    if bad:
        extra = f", {WILD_PAIR}, {WILD_ONE_OR_TWO}" if activity else ""
        return (f"{bad[0]!r} is not a food id (foods: {', '.join(sorted(foods))}; or {WILD}{extra}; "
                "'a|b' for either of two)")
    return None


def _check_value(kind: str, name: str, spec, value, foods: set, out: _Problems) -> None:
    t = spec
    label = f"field {name!r}"
    if isinstance(t, tuple):
        if value not in t:
            out.add(f"{label} must be one of {', '.join(t)}, not {value!r}")
        return
    if t == "any":
        return
    if t == "food_id":
        if not isinstance(value, str) or not _FOOD_ID.match(value):
            out.add(f"{label} must start with a letter and hold only lower-case letters, digits and "
                    f"underscores (it names the token in board inputs), not {value!r}")
    elif t in ("id", "slug"):
        if not isinstance(value, str) or not _SLUG.match(value):
            out.add(f"{label} must be lower-case letters, digits and hyphens (at most 40), not {value!r}")
    elif t in ("text",):
        if not isinstance(value, str) or len(value) > 400:
            out.add(f"{label} must be text of at most 400 characters")
    elif t == "texts":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            out.add(f"{label} must be a list of texts")
    elif t in ("int", "count", "round", "die"):
        if not isinstance(value, int) or isinstance(value, bool):
            out.add(f"{label} must be a whole number, not {value!r}")
        elif t == "count" and value < 0:
            out.add(f"{label} must not be negative")
        elif t == "round" and not 1 <= value <= rules.ROUNDS:
            out.add(f"{label} must be a round from 1 to {rules.ROUNDS}")
        elif t == "die" and not 1 <= value <= rules.DIE_FACES:
            out.add(f"{label} must be a die face from 1 to {rules.DIE_FACES}")
    elif t == "bool":
        if not isinstance(value, bool):
            out.add(f"{label} must be true or false")
    elif t == "ints":
        if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            out.add(f"{label} must be a list of whole numbers")
    elif t == "food":
        if value not in foods:
            out.add(f"{label}: {value!r} is not a food id (foods: {', '.join(sorted(foods))})")
    elif t in ("foods", "foods_or_wild"):
        if not isinstance(value, list) or not value:
            out.add(f"{label} must be a non-empty list of food ids")
            return
        for v in value:
            if v not in foods and not (t == "foods_or_wild" and v == WILD):
                out.add(f"{label}: {v!r} is not a food id (foods: {', '.join(sorted(foods))})")
    elif t == "needs":
        if not isinstance(value, list) or not value:
            out.add(f"{label} must be a non-empty list of food spaces")
            return
        for i, v in enumerate(value):
            why = _need_ok(v, foods, activity=(kind == "activities"))
            if why:
                out.add(f"{label}[{i}] {why}")
    elif t == "dest":
        if value not in DESTINATIONS:
            out.add(f"{label} must be body or kitchen, not {value!r}")
    elif t == "module":
        if value not in MODULES:
            out.add(f"{label} must be one of {', '.join(MODULES)}, not {value!r}")
    elif t == "measure":
        for problem in goals.problems(value):
            out.add(f"{label} {problem}")
    elif t == "ability":
        for problem in abilities.problems(value, foods):
            out.add(f"{label} {problem}")
    elif t == "abilities":
        if not isinstance(value, list):
            out.add(f"{label} must be a list of abilities, one per option")
            return
        for i, ability in enumerate(value):
            for problem in abilities.problems(ability, foods, assistant=True):
                out.add(f"{label}[{i}] {problem}")
    elif t == "spaces":
        if not isinstance(value, list) or not value or not all(
                isinstance(v, str) and re.match(r"^[1-6]\.[1-6]$", v) for v in value):
            out.add(f"{label} must be a list of shopping list spaces \"row.col\" like \"2.5\"")
    elif t == "groups":
        _check_groups(value, foods, out)
    elif t == "kitchen":
        _check_kitchen(value, foods, out)


def _check_groups(groups, foods: set, out: _Problems) -> None:
    if not isinstance(groups, list) or not groups:
        out.add("field 'groups' must be a non-empty list of food groups")
        return
    seen_foods: dict[str, str] = {}
    ids = set()
    for i, g in enumerate(groups):
        where = f"groups[{i}]"
        if not isinstance(g, dict):
            out.add(f"{where} must be an object")
            continue
        unknown = set(g) - {"id", "name", "foods", "zero_vp", "spaces"}
        if unknown:
            out.add(f"{where} has an unknown field {sorted(unknown)[0]!r}")
        for key in ("id", "name", "foods", "zero_vp", "spaces"):
            if key not in g:
                out.add(f"{where} is missing {key!r}")
        if not isinstance(g.get("id"), str) or not _SLUG.match(g.get("id", "")):
            out.add(f"{where}.id must be a lower-case id")
        elif g["id"] in ids:
            out.add(f"{where}.id {g['id']!r} appears twice")
        else:
            ids.add(g["id"])
        if "foods" in g and (not isinstance(g["foods"], list) or not g["foods"]):
            out.add(f"{where}.foods must list at least one food: a group no token can enter scores nothing")
        for f in g.get("foods", []) if isinstance(g.get("foods"), list) else []:
            if f not in foods:
                out.add(f"{where}.foods: {f!r} is not a food id")
            elif f in seen_foods:
                out.add(f"{where}.foods: {f!r} is already in group {seen_foods[f]!r}; a food belongs to one group")
            else:
                seen_foods[f] = g.get("id")
        if not isinstance(g.get("zero_vp", 0), int):
            out.add(f"{where}.zero_vp must be a whole number")
        sp = g.get("spaces")
        if not isinstance(sp, list) or not sp or not all(isinstance(v, int) and not isinstance(v, bool) for v in sp):
            out.add(f"{where}.spaces must be a non-empty list of VP values, one per space in fill order")
    missing = sorted(foods - set(seen_foods))
    if missing:
        out.add(f"groups: no group takes {', '.join(missing)}; every food belongs to one group")


def _check_kitchen(kitchen, foods: set, out: _Problems) -> None:
    if not isinstance(kitchen, dict) or set(kitchen) != {"columns", "entry"}:
        out.add("field 'kitchen' must be an object with columns and entry")
        return
    cols = kitchen["columns"]
    if not isinstance(cols, int) or not 1 <= cols <= 9:
        out.add("kitchen.columns must be a whole number from 1 to 9")
        return
    entry = kitchen["entry"]
    if not isinstance(entry, dict):
        out.add("kitchen.entry must map each food id to its kitchen column")
        return
    for f, c in entry.items():
        if f not in foods:
            out.add(f"kitchen.entry: {f!r} is not a food id")
        elif not isinstance(c, int) or not 1 <= c <= cols:
            out.add(f"kitchen.entry.{f} must be a column from 1 to {cols}")
    missing = sorted(foods - set(entry))
    if missing:
        out.add(f"kitchen.entry has no column for {', '.join(missing)}")


def check_record(kind: str, record, foods: set, where: str) -> list[str]:
    """Problems with one record of ``kind`` (empty when it follows the schema)."""
    out = _Problems(where)
    if not isinstance(record, dict):
        out.add("each line must be one JSON object")
        return out.items
    fields = SCHEMA[kind]["fields"]
    unknown = sorted(set(record) - set(fields))
    if unknown:
        out.add(f"unknown field {unknown[0]!r}; {kind} fields are {', '.join(fields)}")
    for name, (spec, required, default) in fields.items():
        if name not in record:
            if required:
                hint = RULE_FIELDS.get(kind, {}).get(name)
                out.add(f"missing field {name!r} ({hint})" if hint else
                        f"missing field {name!r} ({SCHEMA[kind]['what']})")
            continue
        _check_value(kind, name, spec, record[name], foods, out)
    does = record.get("does")
    if kind == "assistants" and isinstance(does, list) and isinstance(record.get("options"), list) \
            and len(does) != len(record["options"]):
        out.add(f"field 'does' has {len(does)} abilities for {len(record['options'])} options; give one per option")
    return out.items


def _with_defaults(kind: str, record: dict) -> dict:
    out = {}
    for name, (_spec, _required, default) in SCHEMA[kind]["fields"].items():
        out[name] = record.get(name, default if not isinstance(default, list) else list(default))
    return out


def read_file(kind: str, path: Path, foods: set) -> tuple[list[dict], list[str]]:
    """Read and check one data file: (records with defaults filled, problems by line)."""
    records, problems = [], []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [], [f"{path}: cannot read it ({exc})"]
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        where = f"{path} line {number}"
        try:
            record = json.loads(stripped)
        except ValueError as exc:
            problems.append(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})")
            continue
        found = check_record(kind, record, foods, where)
        if found:
            problems.extend(found)
            continue
        record = _with_defaults(kind, record)
        record["_line"] = number
        records.append(record)
    problems.extend(_check_file(kind, path, records))
    for r in records:
        r.pop("_line")
    return records, problems


def _check_file(kind: str, path: Path, records: list[dict]) -> list[str]:
    """Whole-file rules: unique ids, not absurdly many lines, one main board line, a full shopping grid."""
    problems = []
    most = PUBLISHED_COUNTS.get(kind, 0) * MAX_OVER_PUBLISHED
    if most and len(records) > most:
        problems.append(f"{path}: {len(records)} {kind} is more than {most} (twice the published game's "
                        f"{PUBLISHED_COUNTS[kind]}); remove the extra lines")
    seen = {}
    for r in records:
        key = r.get("id") if "id" in r else (r.get("row"), r.get("col")) if kind == "shopping" else None
        if key is None:
            continue
        if key in seen:
            problems.append(f"{path} line {r['_line']}: {key!r} already appears on line {seen[key]}")
        else:
            seen[key] = r["_line"]
    if kind == "main_board" and len(records) != 1:
        problems.append(f"{path}: must hold exactly one line, not {len(records)}")
    if kind == "shopping" and records:
        rows = {r["row"] for r in records}
        cols = {r["col"] for r in records}
        if len(records) != len(rows) * len(cols):
            problems.append(f"{path}: the grid is not complete ({len(rows)} rows x {len(cols)} columns "
                            f"need {len(rows) * len(cols)} lines, found {len(records)})")
    return problems


def _cross_check(cat: Catalog) -> None:
    """Rules spanning files: allergy tiles replace a group on every board, etc."""
    groups = {g["id"] for b in cat.records.get("boards", []) for g in b["groups"]}
    for tile in cat.records.get("allergies", []):
        if tile["replaces"] not in groups:
            cat.problems.append(f"{cat.paths['allergies']}: tile {tile['id']!r} replaces {tile['replaces']!r}, "
                                "which is no food group on the diet boards")
    board_kinds = {b["kind"] for b in cat.records.get("boards", [])}
    if cat.records.get("boards") and "standard" not in board_kinds:
        cat.problems.append(f"{cat.paths.get('boards', 'boards.jsonl')}: needs one board of kind \"standard\"")


def load(owner: Path | None = None, sample_only: bool = False) -> Catalog:
    """Load every kind: the owner's file where one exists (unless ``sample_only``), else the sample.

    Never raises for bad data: problems are collected in ``Catalog.problems``.
    """
    owner = owner_dir() if owner is None else Path(owner)
    cat = Catalog()
    foods: set = set()
    complete, problem = (set(), None) if sample_only else complete_kinds(owner)
    if problem:
        cat.problems.append(problem)
    for kind in KINDS:
        name = SCHEMA[kind]["file"]
        path = owner / name
        source = "owner"
        if not sample_only and path.is_file() and kind not in complete:
            entered, problems = read_file(kind, path, foods)
            cat.problems.extend(problems)
            cat.notes.append(f"{name}: {len(entered)} entered, not marked complete, so games still use the "
                             f"sample {kind}; mark it complete when every card is in "
                             f"(`tofu-table data complete {kind}` or the host's entry form)")
        if sample_only or not path.is_file() or kind not in complete:
            path, source = SAMPLE_DIR / name, "sample"
        records, problems = read_file(kind, path, foods)
        if problems and source == "sample" and cat.sources.get("foods") == "owner":
            problems = [f"{path}: this sample file does not fit your foods.jsonl ({len(problems)} problem(s), "
                        f"first: {problems[0].split(': ', 1)[1]}); put your own {name} in {owner}"]
        cat.records[kind], cat.sources[kind], cat.paths[kind] = records, source, str(path)
        cat.problems.extend(problems)
        if kind == "foods":
            foods = {f["id"] for f in records}
        published = PUBLISHED_COUNTS.get(kind)
        if published and source == "owner" and len(records) < published:
            cat.notes.append(f"{name}: {len(records)} of the published game's {published} entered so far")
    _cross_check(cat)
    unknown = sorted(p.name for p in owner.glob("*") if p.is_file() and p.name not in
                     {s["file"] for s in SCHEMA.values()} | {COMPLETE_FILE}) if owner.is_dir() and not sample_only else []
    for name in unknown:
        cat.notes.append(f"{owner / name}: not a Food for Thought data file; it is ignored")
    return cat


def _write_whole(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a power cut leaves the old file or the new one."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def complete_kinds(owner: Path) -> tuple[set, str | None]:
    """The kinds the owner marked complete, and a problem with the file (None when fine)."""
    path = owner / COMPLETE_FILE
    if not path.is_file():
        return set(), None
    try:
        kinds = json.loads(path.read_text(encoding="utf-8"))["complete"]
        if not isinstance(kinds, list) or not set(kinds) <= set(KINDS):
            raise ValueError
    except (OSError, ValueError, KeyError, TypeError):
        return set(), (f"{path}: must be {{\"complete\": [kinds]}} with kinds from {', '.join(KINDS)}; "
                       "fix it or delete it (then mark each complete kind again)")
    return set(kinds), None


def mark_complete(kind: str, complete: bool = True, owner: Path | None = None) -> set:
    """Mark the owner's ``kind`` complete (its file replaces the sample) or not; returns the complete kinds.

    Raises DataError when the kind is unknown, or when marking complete a kind with no
    owner's file or whose file has problems (a game would refuse to start on it).
    """
    if kind not in SCHEMA:
        raise DataError([f"unknown kind {kind!r}; kinds are {', '.join(KINDS)}"])
    owner = owner_dir() if owner is None else Path(owner)
    kinds, problem = complete_kinds(owner)
    if problem:
        raise DataError([problem])
    if complete:
        path = owner / SCHEMA[kind]["file"]
        if not path.is_file():
            raise DataError([f"{path}: no {kind} entered yet; enter them before marking the kind complete"])
        foods = {f["id"] for f in load(owner).records["foods"]} if kind != "foods" else set()
        problems = read_file(kind, path, foods)[1]
        if problems:
            raise DataError(problems)
        kinds.add(kind)
    else:
        kinds.discard(kind)
    owner.mkdir(parents=True, exist_ok=True)
    _write_whole(owner / COMPLETE_FILE, json.dumps({"complete": sorted(kinds, key=KINDS.index)}))
    return kinds


#: What an export file says it is (checked on import).
EXPORT_FORMAT = "tofu-table food-for-thought data"


def export_all(owner: Path | None = None) -> dict:
    """Every file of the owner's folder and the kinds marked complete, as one JSON-ready object."""
    owner = owner_dir() if owner is None else Path(owner)
    files = {SCHEMA[k]["file"]: (owner / SCHEMA[k]["file"]).read_text(encoding="utf-8")
             for k in KINDS if (owner / SCHEMA[k]["file"]).is_file()}
    complete, problem = complete_kinds(owner)
    if problem:
        raise DataError([problem])
    return {"format": EXPORT_FORMAT, "version": 1, "complete": sorted(complete, key=KINDS.index), "files": files}


def import_all(bundle, owner: Path | None = None) -> list[str]:
    """Replace the owner's folder's data files with an :func:`export_all` bundle; returns the files written.

    The bundle is checked whole first (in a scratch folder, as a game would load it): on any
    problem nothing is written and DataError lists them.  Files of kinds the bundle lacks are
    removed, so the folder ends up exactly as exported.
    """
    names = {SCHEMA[k]["file"] for k in KINDS}
    if not isinstance(bundle, dict) or bundle.get("format") != EXPORT_FORMAT or bundle.get("version") != 1:
        raise DataError([f"not a Food for Thought data export (it must say \"format\": \"{EXPORT_FORMAT}\", "
                         "\"version\": 1); make one with `tofu-table data export FILE`"])
    files, complete = bundle.get("files"), bundle.get("complete")
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise DataError(["\"files\" must map each data file's name to its text"])
    unknown = sorted(set(files) - names)
    if unknown:
        raise DataError([f"{unknown[0]!r} is not a Food for Thought data file ({', '.join(sorted(names))})"])
    if not isinstance(complete, list) or not set(complete) <= {k for k in KINDS if SCHEMA[k]["file"] in files}:
        raise DataError(["\"complete\" must list kinds whose files the export holds"])
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        for name, text in files.items():
            (scratch / name).write_text(text, encoding="utf-8")
        (scratch / COMPLETE_FILE).write_text(json.dumps({"complete": complete}), encoding="utf-8")
        problems = [p.replace(f"{scratch}/", "in the export: ") for p in load(scratch).problems]
    if problems:
        raise DataError(problems)
    owner = owner_dir() if owner is None else Path(owner)
    owner.mkdir(parents=True, exist_ok=True)
    for name, text in list(files.items()) + [(COMPLETE_FILE, json.dumps({"complete": complete}))]:
        _write_whole(owner / name, text)
    for name in sorted(names - set(files)):
        (owner / name).unlink(missing_ok=True)
    return sorted(files)


def record_problems(kind: str, record, owner: Path | None = None) -> list[str]:
    """What stops ``record`` from being added to the owner's file of ``kind`` (empty: nothing).

    The schema's checks, and the file's: an id already taken, a shopping space or main board
    already entered.  Reads the owner's folder, writes nothing.
    """
    if kind not in SCHEMA:
        return [f"unknown kind {kind!r}; kinds are {', '.join(KINDS)}"]
    owner = owner_dir() if owner is None else Path(owner)
    current = load(owner)
    foods = {f["id"] for f in current.records["foods"]}
    path = owner / SCHEMA[kind]["file"]
    problems = check_record(kind, record, foods, f"new {kind[:-1] if kind.endswith('s') else kind}")
    existing = read_file(kind, path, foods)[0] if path.is_file() else []
    if not problems and "id" in record and any(r["id"] == record["id"] for r in existing):
        problems.append(f"{path}: there is already an entry with id {record['id']!r}")
    if not problems and kind == "shopping" and any((r["row"], r["col"]) == (record["row"], record["col"])
                                                   for r in existing):
        problems.append(f"{path}: space {record['row']}.{record['col']} is already entered")
    if not problems and kind == "main_board" and existing:
        problems.append(f"{path}: the main board is one line and it is already entered; edit the file to change it")
    return problems


def append_record(kind: str, record: dict, owner: Path | None = None) -> Path:
    """Check one record and add it as a new line to the owner's file of ``kind``.

    The first card entered of a kind starts the owner's file; games keep using the
    sample of that kind until the owner marks it complete.  Raises DataError when the record is bad
    (see :func:`record_problems`).
    """
    problems = record_problems(kind, record, owner)
    if problems:
        raise DataError(problems)
    owner = owner_dir() if owner is None else Path(owner)
    path = owner / SCHEMA[kind]["file"]
    owner.mkdir(parents=True, exist_ok=True)
    line = json.dumps(record, ensure_ascii=False)
    with open(path, "a", encoding="utf-8") as f:
        if path.stat().st_size and not path.read_text(encoding="utf-8").endswith("\n"):
            f.write("\n")
        f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())
    return path
