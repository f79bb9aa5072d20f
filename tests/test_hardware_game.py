"""A whole game of Tofu Kingdom played through emulated MFRC522 readers and mock buttons.

The script tests/scripts/tofu-kingdom-3p-seats.jsonl (3 players, a reader per
seat and one in the centre; rulebook outcome: Ann 4, Ben 4, Cat 2, Ann and Ben
share the victory) is acted out physically: each coaster carries an enrolled
tag (4-, 7- and 10-byte UIDs), a ``tap`` line puts it on the emulated reader,
a ``lift`` line takes it off, ``advance`` is a press of the GPIO button, and
the players' phone actions go to the table directly.  A ``lift`` with ``held``
is the Prince's flip: the coaster stays off its reader and the server's
put-back timer (server/put_back.py) reports it once the peek time is up; a
coaster lifted and laid back before that is a peek and changes nothing.  The
real mfrc522 package, our driver, the reader hub, the registry, the timer and
the table do the rest.
"""
import pytest

from hardware.buttons import ButtonPanel
from hardware.hub import ReaderHub
from hardware.mfrc522_reader import Mfrc522Reader
from hardware.registry import TagRegistry
from server.journal import Journal
from server.put_back import PutBackTimers, awaited_by
from server.table import Table
from tests.support.hardware_helpers import wait_for
from tests.support.mfrc522_emulator import EmulatedTag, Emulator
from tests.support.scripts import script_inputs

SCRIPT = "tofu-kingdom-3p-seats.jsonl"
WIRING = {"seat-1": (0, 0), "seat-2": (0, 1), "seat-3": (1, 0), "center": (1, 1)}
UIDS = {"prince": "A1B2C3D4", "princess": "04A224C2B31190", "queen": "04112233445566778899",
        "maid": "04C3D4E5F60718", "guard": "B5C6D7E8", "chef": "04D1E2F3A4B5C6",
        "minister": "04223344556677889900", "spy": "C0FFEE01"}
ADVANCE_PIN = 5
PEEK_SECONDS = 2     # shorter than the game's default, to keep the test quick


def with_peek(inp: dict) -> dict:
    """The script's input with this test's peek time in its ``new_game`` options."""
    if "new_game" not in inp:
        return inp
    body = inp["new_game"]
    return {"new_game": {**body, "options": {**body.get("options", {}), "peek_seconds": PEEK_SECONDS}}}


@pytest.mark.parametrize("noisy", [False, True], ids=["clean", "noisy"])
def test_a_whole_tofu_kingdom_game_through_emulated_readers_ends_with_the_rulebook_scores(tmp_path, pins, noisy):
    """Noisy: every answer of every tag may be garbled (BCC, CRC, parity) or lost, 3 % each,
    and the centre reader drops off the bus for a moment mid-game: the game is the same."""
    expected = Table(Journal(":memory:"))
    inputs = [with_peek(inp) for inp in script_inputs(SCRIPT)]
    expected_accepted = [expected.handle(inp).accepted for inp in inputs]

    registry = TagRegistry.in_data_dir(tmp_path)
    for role, uid in UIDS.items():
        registry.enrol(uid, f"tofu-kingdom/{role}")
    table = Table(Journal(tmp_path / "journal.sqlite"), resolve_uid=registry.resolve_uid)
    table.start()
    outcomes = []

    def deliver(inp, source):
        outcomes.append((inp, table.submit(inp, source)))

    def timer_put(inp, source):
        """The put-back timer's report; one the round no longer waits on (the Prince already
        confirmed the flip on the phone) is quiet, as on the server, and not an outcome here."""
        outcome = table.submit(inp, source)
        if not outcome.quiet:
            outcomes.append((inp, outcome))
    table.listeners.append(PutBackTimers(timer_put, awaited_by(table)))

    with Emulator() as emu:
        chips = {name: emu.add_reader(bus, dev, reset_pin=25) for name, (bus, dev) in WIRING.items()}
        hub = ReaderHub([Mfrc522Reader(name, bus, dev, reset_pin=25) for name, (bus, dev) in WIRING.items()],
                        deliver, lift_after=0.1 if noisy else 0.03, min_round=0.001, retry_first=0.02)
        buttons = ButtonPanel({"advance": ADVANCE_PIN}, deliver, debounce_s=0.0)
        buttons.start()
        hub.start()
        tags = {role: EmulatedTag(uid) for role, uid in UIDS.items()}
        if noisy:
            for seed, tag in enumerate(tags.values()):
                tag.noisy(0.03, seed)
        try:
            for number, inp in enumerate(inputs):
                (kind, body), = inp.items()
                before = len(outcomes)
                if noisy and number == 20:
                    chips["center"].fail_spi(2)
                if kind == "tap":
                    chips[body["reader"]].place(tags[body["card"].split("/")[1]])
                elif kind == "lift" and "held" in body:
                    pass                  # the coaster stays off: the put-back timer reports it
                elif kind == "lift":
                    chips[body["reader"]].remove(tags[body["card"].split("/")[1]])
                elif kind == "button":
                    pins.pin(ADVANCE_PIN).drive_low()
                    pins.pin(ADVANCE_PIN).drive_high()
                else:
                    deliver(inp, "phone")
                wait_for(lambda: len(outcomes) > before, timeout=5 + PEEK_SECONDS)
                got, _ = outcomes[-1]
                assert len(outcomes) == before + 1, f"{inp} caused {outcomes[before:]}"
                assert next(iter(got)) == kind
                if kind == "lift" and "held" in body:
                    assert got[kind] == {"reader": body["reader"], "card": body["card"], "held": PEEK_SECONDS}
                elif kind in ("tap", "lift"):
                    assert got[kind]["uid"] == UIDS[body["card"].split("/")[1]]
        finally:
            hub.stop()
            buttons.stop()
            table.stop()

    if noisy:
        assert sum(tag.struck for tag in tags.values()) > 20      # the noise really struck
    assert [o.accepted for _, o in outcomes] == expected_accepted
    view = table.view("table")
    assert [(p["name"], p["score"]) for p in view["players"]] == [("Ann", 4), ("Ben", 4), ("Cat", 2)]
    assert view["over"] and view["winners"] == ["Ann", "Ben"]
