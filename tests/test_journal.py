"""The journal: the SQLite file that is the table's source of truth."""
import shutil
import sqlite3
import time
import uuid

import pytest

from server import journal as journal_module
from server.journal import Journal, JournalError
from tests.support.sqlite_memory import sqlite_memory_used

GAME_A = {"new_game": {"game": "tiny", "players": ["Anna"], "seed": 0, "options": {}}}
GAME_B = {"new_game": {"game": "tiny", "players": ["Ben"], "seed": 0, "options": {}}}
RED = {"tap": {"reader": "seat-1", "card": "test/red"}}
BLUE = {"tap": {"reader": "seat-1", "card": "test/blue"}}


@pytest.fixture
def path(tmp_path):
    return tmp_path / "data" / "journal.sqlite"


@pytest.fixture
def journal(path):
    j = Journal(path)
    yield j
    j.close()


def test_the_file_is_sqlite_in_wal_mode_with_full_sync(journal, path):
    assert path.exists()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2   # FULL


def test_appended_inputs_survive_closing_and_reopening_in_order(journal, path):
    ids = [journal.append(inp, source="test", at=1000.0 + n) for n, inp in enumerate([GAME_A, RED, BLUE])]
    assert ids == sorted(ids) and len(set(ids)) == 3
    journal.close()
    again = Journal(path)
    assert again.live() == list(zip(ids, [GAME_A, RED, BLUE]))
    newest = again.recent()["inputs"][0]
    assert newest == {"id": ids[2], "at": 1002.0, "source": "test", "input": BLUE, "undone": False}
    again.close()


def test_another_process_sees_each_row_as_soon_as_append_returns(journal, path):
    """Committed before anyone is told: a separate connection reads it at once."""
    reader = sqlite3.connect(path)
    for n, inp in enumerate([GAME_A, RED, BLUE], 1):
        journal.append(inp)
        assert reader.execute("SELECT count(*) FROM inputs").fetchone()[0] == n


def rows_in_the_file_alone(path, scratch) -> int:
    """Inputs the database file holds without its WAL (what a checkpoint copied back); 0 before the
    first checkpoint (the file then lacks even the tables) or when caught in the middle of one."""
    shutil.copyfile(path, scratch)
    db = sqlite3.connect(scratch)
    try:
        return db.execute("SELECT count(*) FROM inputs").fetchone()[0]
    except sqlite3.DatabaseError:
        return 0
    finally:
        db.close()


def test_the_wal_is_copied_back_once_the_journal_is_quiet_not_inside_a_commit(journal, path, tmp_path, monkeypatch):
    """Issue 20: SQLite's own checkpoint ran inside whichever commit filled the WAL, one input in about
    330 waiting for it; the journal's thread does it once no row came for CHECKPOINT_QUIET_S."""
    monkeypatch.setattr(journal_module, "CHECKPOINT_QUIET_S", 1.0)
    assert journal._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    for _ in range(20):
        journal.append(RED)
    scratch = tmp_path / "alone.sqlite"
    assert rows_in_the_file_alone(path, scratch) == 0      # durable in the WAL, not yet copied back
    deadline = time.monotonic() + 20
    while rows_in_the_file_alone(path, scratch) < 20:
        assert time.monotonic() < deadline, "the WAL was not checkpointed once the journal was quiet"
        time.sleep(0.05)


def test_a_long_night_of_inputs_does_not_grow_the_journals_memory(journal):
    """Issue 20: the journal's page cache is full after a few hundred inputs, so thousands more do
    not grow the server (SQLite's default 2 MiB cache grew it about 130 bytes an input; 256 KiB
    still 157 KiB over these 3,000)."""
    if sqlite_memory_used() is None:
        pytest.skip("SQLite's library cannot be opened by name here")
    journal._db.execute("PRAGMA synchronous=OFF")    # the memory is the point, not the disk
    for _ in range(300):
        journal.append(RED, "http", key=uuid.uuid4().hex)
    warm = sqlite_memory_used()
    if not warm:       # a second copy of the library, not the one the sqlite3 module uses: it holds nothing
        pytest.skip("the SQLite library opened by name is not the one the journal uses here")
    for _ in range(3000):
        journal.append(RED, "http", key=uuid.uuid4().hex)
    assert sqlite_memory_used() - warm < 32 << 10


def test_undo_marks_the_newest_live_input_and_returns_it(journal):
    journal.append(GAME_A)
    journal.append(RED)
    journal.append(BLUE)
    assert journal.undo_last() == BLUE
    assert journal.undo_last() == RED
    assert [inp for _, inp in journal.live()] == [GAME_A]
    assert [(r["input"], r["undone"]) for r in journal.recent()["inputs"]] == [
        (BLUE, True), (RED, True), (GAME_A, False)]
    assert journal.count() == 3


def test_undo_of_an_empty_journal_says_so(journal):
    assert journal.undo_last() is None


def test_only_the_newest_live_game_matters_to_the_state(journal):
    a = journal.append(GAME_A)
    journal.append(RED)
    b = journal.append(GAME_B)
    blue = journal.append(BLUE)
    assert journal.live_since_last_game() == [(b, GAME_B), (blue, BLUE)]
    journal.undo_last()
    journal.undo_last()   # the second game is undone: the first one is back
    assert [i for i, _ in journal.live_since_last_game()] == [a, a + 1]


def test_refusals_are_kept_apart_with_what_and_why(journal):
    journal.append(GAME_A)
    journal.refuse({"button": {"name": "advance"}}, "not_everyone", "Not everyone has chosen.", "http")
    journal.refuse(b"\xff not json", "bad_json", "The body is not JSON.")   # whatever was sent
    assert journal.count() == 1 and len(journal.live()) == 1
    newest, oldest = journal.recent()["refusals"]
    assert (oldest["input"], oldest["code"], oldest["message"], oldest["source"]) == (
        '{"button":{"name":"advance"}}', "not_everyone", "Not everyone has chosen.", "http")
    assert newest["code"] == "bad_json" and "not json" in newest["input"]


def test_recent_gives_the_newest_first_up_to_the_limit(journal):
    for n in range(10):
        journal.append(RED if n % 2 else BLUE)
    recent = journal.recent(limit=3)["inputs"]
    assert [r["id"] for r in recent] == [10, 9, 8]


def test_settings_are_kept_in_meta(journal, path):
    assert journal.meta("registry") is None
    journal.set_meta("registry", "v1")
    journal.set_meta("registry", "v2")
    journal.close()
    assert Journal(path).meta("registry") == "v2"


def test_a_write_to_a_read_only_journal_raises_journal_error_naming_the_file(journal, path, monkeypatch):
    journal.append(GAME_A)
    def read_only():   # the folder stays read-only: opening the journal again does not help
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None,
                               check_same_thread=False)
    monkeypatch.setattr(journal, "_db", read_only())
    monkeypatch.setattr(journal, "_connect", read_only)
    with pytest.raises(JournalError, match=str(path)):
        journal.append(RED)
    with pytest.raises(JournalError):
        journal.undo_last()
    assert journal.live() == [(1, GAME_A)]


def test_refusals_are_a_capped_list_with_counts_per_reason_and_source(journal, path, monkeypatch):
    """Issue 11, item 8: a flood of refused requests cannot fill the disk."""
    monkeypatch.setattr(journal_module, "REFUSALS_KEPT", 50)
    for n in range(400):
        journal.refuse({"host": {"action": "x", "text": "y" * 60_000}}, "host_token_needed",
                       "The host token is needed.", "http" if n % 4 else "socket")
    recent = journal.recent(limit=1000)
    assert len(recent["refusals"]) == 50
    assert all(len(r["input"]) <= journal_module.REFUSED_INPUT_CHARS for r in recent["refusals"])
    counts = {(c["code"], c["source"]): c["count"] for c in recent["refusal_counts"]}
    assert counts == {("host_token_needed", "http"): 300, ("host_token_needed", "socket"): 100}
    journal.close()
    assert path.stat().st_size < 1_000_000


def test_a_new_journal_records_its_schema_version(journal, path):
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (
            str(journal_module.SCHEMA_VERSION),)


def test_a_journal_from_before_the_schema_version_is_migrated_and_keeps_its_inputs(path):
    """A journal written before `meta` held a version (inputs, refusals and meta only) opens,
    gets the tables added since and the current version, and replays the same inputs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as db:
        db.executescript("""
            CREATE TABLE inputs (id INTEGER PRIMARY KEY, at REAL NOT NULL, source TEXT NOT NULL,
                                 input TEXT NOT NULL, undone REAL);
            CREATE TABLE refusals (id INTEGER PRIMARY KEY, at REAL NOT NULL, source TEXT NOT NULL,
                                   input TEXT NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL);
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO inputs (at, source, input) VALUES (1.0, 'http', '{"button":{"name":"advance"}}');
        """)
    old = Journal(path)
    assert old.live() == [(1, {"button": {"name": "advance"}})]
    assert old.meta("schema_version") == str(journal_module.SCHEMA_VERSION)
    with sqlite3.connect(path) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"input_keys", "refusal_counts"} <= tables
    old.refuse({"button": {"name": "advance"}}, "waiting", "Not everyone has chosen.", "http", detail="Ann has not.")
    assert old.recent()["refusals"][0]["detail"] == "Ann has not."   # the column added to the old table
    old.close()


def test_a_journal_from_a_newer_table_is_refused_on_open_naming_both_versions(journal, path):
    journal.set_meta("schema_version", str(journal_module.SCHEMA_VERSION + 1))
    journal.close()
    with pytest.raises(JournalError) as caught:
        Journal(path)
    message = str(caught.value)
    assert f"version {journal_module.SCHEMA_VERSION + 1}" in message and "newer" in message
    assert f"up to {journal_module.SCHEMA_VERSION}" in message
