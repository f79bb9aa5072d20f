"""MFRC522 readers as a player meets them, on an emulated chip running the real ``mfrc522`` package.

The emulator (tests/support/mfrc522_emulator.py) replaces ``spidev`` and
``RPi.GPIO`` only; the library's register code and our driver run unchanged.
What a player would notice: every tag reads as its full UID, a card lying on a
reader is one tap, taking it away is one lift, two cards at once are a problem
(not a random card), and a reader that fails and comes back keeps working.
"""
import random
import subprocess
import sys
import time

import pytest

from hardware import hub as hub_module
from hardware.hub import ReaderHub
from hardware.mfrc522_reader import FULL_READ_EVERY, Mfrc522Reader
from hardware.reader import COLLISION, GARBLED, NO_TAG, TAG, Poll, ReaderBusy, ReaderDown, TagReader
from tests.support.hardware_helpers import Recorder, wait_for
from tests.support.mfrc522_emulator import EmulatedTag, Emulator

MIFARE_4 = "A1B2C3D4"
NTAG_7 = "04A224C2B31190"
TEN = "04112233445566778899"
LIFT_AFTER = 0.12


@pytest.fixture
def emu():
    with Emulator() as emulator:
        yield emulator


def opened(emu, bus=0, device=0, reset_pin=25, **kw) -> Mfrc522Reader:
    reader = Mfrc522Reader(f"seat-{len(emu.chips)}", bus, device, reset_pin=reset_pin, **kw)
    reader.open()
    return reader


# ----- the driver -------------------------------------------------------------
@pytest.mark.parametrize("uid", [MIFARE_4, NTAG_7, TEN])
def test_full_uid_of_4_7_and_10_byte_tags(emu, uid):
    chip = emu.add_reader(0, 0, reset_pin=25)
    reader = opened(emu)
    chip.place(EmulatedTag(uid))
    assert reader.poll() == Poll(TAG, uid=uid)


def test_the_library_alone_reads_a_7_byte_tag_as_cascade_tag_plus_3_bytes(emu):
    """Why the driver exists: mfrc522 0.0.7 stops at cascade level 1 (88 04 A2 24 ...)."""
    import mfrc522

    emu.add_reader(0, 0).place(EmulatedTag(NTAG_7))
    library = mfrc522.MFRC522(bus=0, device=0)
    status, _ = library.MFRC522_Request(library.PICC_REQIDL)
    status, uid = library.MFRC522_Anticoll()
    assert status == library.MI_OK
    assert bytes(uid[:4]).hex().upper() == "8804A224"


def test_a_resting_card_answers_every_poll_not_every_other_one(emu):
    """REQA (the library's way) misses a resting card every other poll; WUPA + HLTA does not."""
    import mfrc522

    chip = emu.add_reader(0, 0, reset_pin=25)
    chip.place(EmulatedTag(NTAG_7))
    library = mfrc522.MFRC522(bus=0, device=0, pin_rst=25, pin_mode=11)   # BCM, as we use
    seen = []
    for _ in range(6):
        status, _ = library.MFRC522_Request(library.PICC_REQIDL)
        if status == library.MI_OK:
            library.MFRC522_Anticoll()
        seen.append(status == library.MI_OK)
    assert seen == [True, False] * 3
    reader = opened(emu)
    assert [reader.poll().uid for _ in range(6)] == [NTAG_7] * 6


def test_an_empty_poll_sleeps_until_the_chips_timer_instead_of_reading_2000_times(emu):
    """Issue 18 item 5: the wait sleeps between reads; 1 ms is ample for a card (~0.3 ms). Issue
    20 (idle CPU): a wake-up is looked at once, a step after the chip's timer is due, and registers
    are written whole, so an empty poll is 8 SPI transfers (9 the first time) and one sleep."""
    import mfrc522

    emu.add_reader(0, 0, reset_pin=25)
    bus = emu.buses[0]
    library = mfrc522.MFRC522(bus=0, device=0, pin_rst=25, pin_mode=11)   # BCM, as we use
    before = bus.transfers
    library.MFRC522_Request(library.PICC_REQIDL)
    library_transfers = bus.transfers - before
    reader = opened(emu)
    before, started = bus.transfers, bus.now
    assert reader.poll().status == NO_TAG
    assert library_transfers > 2000
    assert bus.transfers - before <= 9   # 9 the first time (interrupt enable), then 8; 17 with read-then-mask
    assert 0.001 <= bus.now - started < 0.002       # about one timer period of bus time
    reader.close()
    slow = opened(emu, timeout_s=0.005)
    before, started = bus.transfers, bus.now
    assert slow.poll().status == NO_TAG
    assert bus.transfers - before <= 9 and 0.005 <= bus.now - started < 0.0065   # one look at the timer
    before = bus.transfers
    assert slow.poll().status == NO_TAG and bus.transfers - before == 8


def test_the_emulator_counts_the_cpu_it_spends_emulating_transfers(emu):
    """For bench_table.py's idle CPU without the chip emulation: per bus, the CPU spent emulating
    the transfers, a part of the polling thread's."""
    emu.add_reader(0, 0, reset_pin=25)
    bus = emu.buses[0]
    reader = opened(emu)
    transfers, emulation = bus.transfers, bus.emulation_s
    cpu = time.thread_time()
    for _ in range(50):
        assert reader.poll().status == NO_TAG
    cpu = time.thread_time() - cpu
    transfers = bus.transfers - transfers
    assert transfers >= 50
    assert 0 < bus.emulation_s - emulation <= cpu


def test_two_tags_on_one_reader_are_a_collision_not_one_of_them(emu):
    chip = emu.add_reader(0, 0)
    reader = opened(emu, reset_pin=None)
    chip.place(EmulatedTag(NTAG_7), EmulatedTag("04B7C2D3E4F501"))
    result = reader.poll()
    assert result.status == COLLISION and result.uid is None
    assert "two or more tags" in result.detail


def test_a_collision_at_cascade_level_2_is_found_too(emu):
    """Two stickers from one batch can share their first level (88 04 A2 24)."""
    chip = emu.add_reader(0, 0)
    reader = opened(emu, reset_pin=None)
    chip.place(EmulatedTag("04A22411111111"), EmulatedTag("04A22422222222"))
    assert reader.poll().status == COLLISION


def test_a_card_laid_beside_two_colliding_ones_is_not_read_as_the_only_card(emu):
    """Two colliding cards are sent back to rest, so the next WUPA wakes them with the third
    (left READY, they would ignore it and the third would answer alone: a tap of a card that is
    one of three on the reader)."""
    chip = emu.add_reader(0, 0)
    reader = opened(emu, reset_pin=None)
    chip.place(EmulatedTag(NTAG_7), EmulatedTag("04B7C2D3E4F501"))
    assert reader.poll().status == COLLISION
    chip.place(EmulatedTag(MIFARE_4))
    assert [reader.poll().status for _ in range(3)] == [COLLISION] * 3


def test_a_resting_card_is_read_whole_every_few_polls_and_checked_by_its_atqa_between(emu):
    """Issue 20 (the Pi quota): reading a 7-byte UID is 105 SPI transfers a poll; a card resting
    on the reader is read whole every FULL_READ_EVERY polls, and between, a WUPA answered with the
    same ATQA says it is still there."""
    chip = emu.add_reader(0, 0)
    reader = opened(emu, reset_pin=None)
    chip.place(EmulatedTag(NTAG_7))
    bus = emu.buses[0]
    assert reader.poll() == Poll(TAG, uid=NTAG_7)
    transfers = []
    for _ in range(2 * FULL_READ_EVERY):
        before = bus.transfers
        assert reader.poll() == Poll(TAG, uid=NTAG_7)
        transfers.append(bus.transfers - before)
    full = [n for n in transfers if n > 100]
    assert len(full) == 2                               # every FULL_READ_EVERY-th poll
    assert max(n for n in transfers if n <= 100) <= 27  # WUPA, its ATQA, HLTA
    chip.remove()
    assert reader.poll().status == NO_TAG               # a lift is seen at the next poll


@pytest.mark.parametrize("lifted_for_a_poll", [True, False])
def test_a_card_swapped_for_one_of_the_same_kind_is_read(emu, lifted_for_a_poll):
    """A hand swapping two 7-byte cards (the same ATQA) leaves the reader empty for a poll or more,
    and the next poll reads the new card; even a swap between two polls is read within
    FULL_READ_EVERY polls."""
    chip = emu.add_reader(0, 0)
    reader = opened(emu, reset_pin=None)
    first, second = EmulatedTag(NTAG_7), EmulatedTag("04B11C22A35E80")
    chip.place(first)
    assert [reader.poll().uid for _ in range(2)] == [NTAG_7] * 2     # the second one checked by ATQA
    chip.remove(first)
    if lifted_for_a_poll:
        assert reader.poll().status == NO_TAG
    chip.place(second)
    uids = [reader.poll().uid for _ in range(FULL_READ_EVERY)]
    stale = 0 if lifted_for_a_poll else uids.count(NTAG_7)
    assert stale < FULL_READ_EVERY
    assert uids == [NTAG_7] * stale + [second.hex] * (FULL_READ_EVERY - stale)


@pytest.mark.parametrize("other", ["04B7C2D3E4F501", MIFARE_4])
def test_a_second_card_laid_on_a_resting_one_is_a_collision(emu, other):
    """A card of the same kind answers the WUPA with the same ATQA: the collision is seen at the
    next whole read; a card of another UID size collides in the ATQA, and is seen at once."""
    chip = emu.add_reader(0, 0)
    reader = opened(emu, reset_pin=None)
    chip.place(EmulatedTag(NTAG_7))
    assert [reader.poll().uid for _ in range(2)] == [NTAG_7] * 2
    chip.place(EmulatedTag(other))
    statuses = [reader.poll().status for _ in range(FULL_READ_EVERY)]
    assert COLLISION in statuses and set(statuses) <= {TAG, COLLISION}
    if len(other) != len(NTAG_7):
        assert statuses[0] == COLLISION
    assert statuses[statuses.index(COLLISION):] == [COLLISION] * (len(statuses) - statuses.index(COLLISION))


@pytest.mark.parametrize("fault", ["bcc", "crc", "parity"])
def test_a_garbled_frame_is_retried_and_never_read_as_another_uid(emu, fault):
    chip = emu.add_reader(0, 0)
    reader = opened(emu, reset_pin=None)
    tag = EmulatedTag(NTAG_7)
    chip.place(tag)
    tag.fail(fault, 2)
    assert reader.poll() == Poll(TAG, uid=NTAG_7)     # third attempt of the same poll
    chip.remove(tag)
    assert reader.poll().status == NO_TAG
    chip.place(tag)                                 # laid again: its UID is read whole
    tag.fail(fault, 3)
    assert reader.poll().status == GARBLED          # out of attempts: no UID at all
    assert reader.poll() == Poll(TAG, uid=NTAG_7)    # and the next poll reads it again


def test_random_faults_never_give_a_wrong_uid(emu):
    chip = emu.add_reader(0, 0)
    reader = opened(emu, reset_pin=None)
    rng = random.Random(5)
    tags = [EmulatedTag(u) for u in (MIFARE_4, NTAG_7, TEN)]
    for _ in range(150):
        tag = rng.choice(tags)
        chip.remove()
        chip.place(tag)
        tag.fail(rng.choice(["bcc", "crc", "parity", "silent"]), rng.randint(0, 4))
        result = reader.poll()
        assert result.status in (TAG, GARBLED, NO_TAG)
        if result.status == TAG:
            assert result.uid == tag.hex
        tag.faults.clear()


def test_unplugged_reader_is_down_and_works_again_after_reopening(emu):
    chip = emu.add_reader(0, 0, reset_pin=25)
    reader = opened(emu)
    chip.place(EmulatedTag(MIFARE_4))
    chip.unplug()
    with pytest.raises(ReaderDown, match="stopped answering"):
        reader.poll()
    with pytest.raises(ReaderDown, match="nothing answers"):
        reader.open()
    chip.plug()
    reader.open()
    assert reader.poll().uid == MIFARE_4


def test_a_chip_that_reset_itself_is_noticed_and_set_up_again(emu, hub_on):
    chip = emu.add_reader(0, 0)
    hub, sink = hub_on([Mfrc522Reader("seat-1", 0, 0)], retry_first=0.02)
    wait_for(lambda: hub.health()[0]["status"] == "ok")
    chip.brown_out()                       # its timer is no longer set: polls would never end
    wait_for(lambda: hub.health()[0]["status"] == "down")
    chip.place(EmulatedTag(TEN))
    wait_for(lambda: sink.inputs)
    assert sink.inputs == [{"tap": {"reader": "seat-1", "uid": TEN}}]
    assert hub.health()[0]["status"] == "ok"


def test_opening_a_reader_does_not_reset_another_on_the_same_reset_line(emu):
    first = emu.add_reader(0, 0, reset_pin=25)
    emu.add_reader(0, 1, reset_pin=25)   # a second reader on the same reset line
    reader = opened(emu, 0, 0)
    first.place(EmulatedTag(NTAG_7))
    assert reader.poll().uid == NTAG_7
    opened(emu, 0, 1)
    assert reader.poll().uid == NTAG_7       # the first chip kept its settings


def test_an_spi_error_marks_the_reader_down(emu):
    chip = emu.add_reader(0, 0)
    reader = opened(emu, reset_pin=None)
    chip.fail_spi(1)
    with pytest.raises(ReaderDown, match="SPI error"):
        reader.poll()


def test_missing_spi_device_says_how_to_enable_spi(emu):
    reader = Mfrc522Reader("seat-1", 1, 2)
    with pytest.raises(ReaderDown, match=r"/dev/spidev1\.2 does not exist: enable SPI"):
        reader.open()


def test_nothing_wired_to_a_chip_select_is_reported_plainly(emu):
    emu.add_empty_device(0, 1)
    with pytest.raises(ReaderDown, match="check the wiring"):
        Mfrc522Reader("seat-1", 0, 1).open()


def test_hardware_modules_import_without_pi_libraries():
    code = ("import sys, hardware.mfrc522_reader, hardware.usb_reader, hardware.station, hardware.hub;"
            "bad = [m for m in ('RPi', 'RPi.GPIO', 'spidev', 'mfrc522', 'smartcard') if m in sys.modules];"
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


# ----- the hub on emulated readers ---------------------------------------------
@pytest.fixture
def hub_on(emu):
    hubs = []

    def make(readers, **kw):
        sink = Recorder()
        kw.setdefault("lift_after", LIFT_AFTER)
        kw.setdefault("min_round", 0.002)
        hub = ReaderHub(readers, sink, **kw)
        hub.start()
        hubs.append(hub)
        return hub, sink
    yield make
    for hub in hubs:
        hub.stop()


class ManualClock:
    """The hub's clock, moved by the test: lift timing without depending on machine load."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class TickingClock:
    """A clock that moves 1 ms every time the hub reads it (a few times per poll)."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        self.now += 0.001
        return self.now


def polled(hub, name, more=20):
    """Wait until the hub has polled reader ``name`` ``more`` more times."""
    start = hub.polls()[name]
    wait_for(lambda: hub.polls()[name] >= start + more)


def test_a_card_lying_on_the_reader_is_one_tap_and_taking_it_away_one_lift(emu, hub_on):
    chip, clock = emu.add_reader(0, 0), ManualClock()
    hub, sink = hub_on([Mfrc522Reader("seat-2", 0, 0)], clock=clock)
    tag = EmulatedTag(NTAG_7)
    chip.place(tag)
    wait_for(lambda: sink.inputs)
    clock.now += 10                               # it lies there for a long time
    polled(hub, "seat-2")
    assert sink.inputs == [{"tap": {"reader": "seat-2", "uid": NTAG_7}}]
    assert sink.items[0][1] == "reader:seat-2"
    chip.remove(tag)
    polled(hub, "seat-2")
    clock.now += LIFT_AFTER - 0.01               # gone, but not for long enough yet
    polled(hub, "seat-2")
    assert len(sink.inputs) == 1
    clock.now += 0.02
    wait_for(lambda: len(sink.inputs) == 2)
    assert sink.inputs[1] == {"lift": {"reader": "seat-2", "uid": NTAG_7}}
    clock.now += 10
    polled(hub, "seat-2")
    assert len(sink.inputs) == 2


class Flickering(TagReader):
    """A reader that misses a resting card every other poll (what REQA does), then loses it."""

    kind = "test"

    def __init__(self, name):
        super().__init__(name)
        self.count = 0
        self.present = True

    def poll(self):
        self.count += 1
        return Poll(TAG, uid=NTAG_7) if self.present and self.count % 2 else Poll(NO_TAG)


def test_single_missed_polls_do_not_make_lift_and_tap_pairs(hub_on):
    reader = Flickering("seat-1")
    hub, sink = hub_on([reader], clock=TickingClock())
    wait_for(lambda: reader.count > 400)          # far longer than the lift time in clock ticks
    assert sink.kinds() == ["tap"]
    reader.present = False
    wait_for(lambda: len(sink.inputs) == 2)
    assert sink.kinds() == ["tap", "lift"]


def test_swapping_cards_quickly_is_a_lift_then_a_tap(emu, hub_on):
    chip = emu.add_reader(0, 0)
    hub, sink = hub_on([Mfrc522Reader("seat-1", 0, 0)], lift_after=5.0)
    first, second = EmulatedTag(MIFARE_4), EmulatedTag(TEN)
    chip.place(first)
    wait_for(lambda: sink.inputs)
    chip.remove(first)
    chip.place(second)
    wait_for(lambda: len(sink.inputs) == 3)
    assert sink.inputs == [{"tap": {"reader": "seat-1", "uid": MIFARE_4}},
                           {"lift": {"reader": "seat-1", "uid": MIFARE_4}},
                           {"tap": {"reader": "seat-1", "uid": TEN}}]


def test_a_collision_is_a_health_problem_and_sends_nothing(emu, hub_on):
    chip = emu.add_reader(0, 0)
    hub, sink = hub_on([Mfrc522Reader("seat-3", 0, 0)])
    chip.place(EmulatedTag(NTAG_7), EmulatedTag(MIFARE_4))
    health = wait_for(lambda: [h for h in hub.health() if h["status"] == "collision"])
    assert "take all but one tag off seat-3" in health[0]["detail"]
    assert sink.inputs == []
    chip.remove()
    chip.place(EmulatedTag(MIFARE_4))
    wait_for(lambda: sink.inputs)
    assert hub.health()[0]["status"] == "ok"


def test_a_reader_that_fails_is_down_retried_and_comes_back_while_others_work(emu, hub_on):
    failing, steady = emu.add_reader(0, 0), emu.add_reader(0, 1)
    hub, sink = hub_on([Mfrc522Reader("seat-1", 0, 0), Mfrc522Reader("seat-2", 0, 1)],
                       retry_first=0.05, retry_max=0.2)
    wait_for(lambda: all(h["status"] == "ok" for h in hub.health()))
    failing.unplug()
    down = wait_for(lambda: [h for h in hub.health() if h["status"] == "down"])
    assert down[0]["name"] == "seat-1" and "stopped answering" in down[0]["detail"]
    steady.place(EmulatedTag(NTAG_7))
    wait_for(lambda: sink.inputs)
    assert sink.inputs == [{"tap": {"reader": "seat-2", "uid": NTAG_7}}]
    failing.plug()
    failing.place(EmulatedTag(MIFARE_4))
    wait_for(lambda: len(sink.inputs) == 2, timeout=3)
    assert sink.inputs[1] == {"tap": {"reader": "seat-1", "uid": MIFARE_4}}
    assert [h["status"] for h in hub.health()] == ["ok", "ok"]


def test_spi_errors_during_play_are_survived(emu, hub_on):
    chip = emu.add_reader(0, 0)
    hub, sink = hub_on([Mfrc522Reader("seat-1", 0, 0)], retry_first=0.02)
    tag = EmulatedTag(NTAG_7)
    chip.place(tag)
    wait_for(lambda: sink.inputs)
    chip.fail_spi(3)
    wait_for(lambda: hub.health()[0]["status"] == "down")
    wait_for(lambda: hub.health()[0]["status"] == "ok")
    polls = hub.polls()["seat-1"]
    wait_for(lambda: hub.polls()["seat-1"] > polls + 20)
    assert sink.kinds() == ["tap"]      # the card never left: no lift, no second tap


# ----- issue 18: faults that must never become a wrong tap, lift or message -------------
def test_a_data_line_stuck_high_is_the_reader_down_never_two_tags(emu):
    """Item 1: every register reading 0xFF (ErrorReg's collision bit included) is no chip."""
    chip = emu.add_reader(0, 0)
    reader = opened(emu, reset_pin=None)
    chip.place(EmulatedTag(NTAG_7))
    assert reader.poll().uid == NTAG_7
    chip.stick_miso(0xFF)
    with pytest.raises(ReaderDown, match="stopped answering") as down:
        reader.poll()
    assert "tags" not in str(down.value)
    with pytest.raises(ReaderDown, match="version register reads 0xFF"):
        reader.open()
    chip.stick_miso(None)
    reader.open()
    assert reader.poll().uid == NTAG_7


@pytest.mark.parametrize("card_stays", [True, False])
def test_an_unplugged_reader_floating_high_is_down_and_its_card_is_judged_when_it_is_back(
        emu, hub_on, card_stays):
    """Item 1: health says down (not "take all but one tag off"); while down nothing is sent;
    back with the same card is no new tap, back without it is one lift."""
    chip = emu.add_reader(0, 0)
    hub, sink = hub_on([Mfrc522Reader("seat-2", 0, 0)], retry_first=0.02, retry_max=0.05)
    tag = EmulatedTag(NTAG_7)
    chip.place(tag)
    wait_for(lambda: sink.inputs, what="the tap")
    chip.unplug(floating=0xFF)
    down = wait_for(lambda: [h for h in hub.health() if h["status"] == "down"], what="down")
    assert "take all but one" not in down[0]["detail"]
    wait_for(lambda: hub.stats()["seat-2"]["counts"].get("down", 0) >= 3, what="retries")
    assert sink.kinds() == ["tap"]                 # no lift for a card nobody can see
    if not card_stays:
        chip.remove(tag)
    chip.plug()
    wait_for(lambda: hub.health()[0]["status"] == "ok", what="back up")
    polled(hub, "seat-2", 30)
    assert sink.kinds() == (["tap"] if card_stays else ["tap", "lift"])


def test_a_card_that_takes_5_ms_to_power_up_answers_the_first_poll(emu):
    """Item 2: ISO 14443-3 gives a card 5 ms after the field comes on; init waits for it."""
    chip = emu.add_reader(0, 0, reset_pin=25)
    chip.place(EmulatedTag(MIFARE_4, power_up_s=0.005))
    reader = opened(emu)
    assert reader.poll() == Poll(TAG, uid=MIFARE_4)


def test_a_brown_out_under_a_slow_card_sends_no_lift_and_no_second_tap(emu, hub_on):
    """Items 2 and 3: the chip resets, the reader is reopened, the card powers up again."""
    chip = emu.add_reader(0, 0)
    hub, sink = hub_on([Mfrc522Reader("seat-1", 0, 0)], retry_first=0.02)
    chip.place(EmulatedTag(NTAG_7, power_up_s=0.005))
    wait_for(lambda: sink.inputs, what="the tap")
    for _ in range(3):
        downs = hub.stats()["seat-1"]["counts"].get("down", 0)
        chip.brown_out()
        wait_for(lambda: hub.stats()["seat-1"]["counts"].get("down", 0) > downs, what="down")
        wait_for(lambda: hub.health()[0]["status"] == "ok", what="back up")
        polled(hub, "seat-1", 10)
    assert sink.kinds() == ["tap"]


def test_a_stalled_poll_loop_then_one_missed_answer_is_no_lift(emu, hub_on):
    """Item 3: longer than lift_after without a poll, then one poll that misses the card."""
    chip = emu.add_reader(0, 0)
    hub, sink = hub_on([Mfrc522Reader("seat-1", 0, 0)])
    tag = EmulatedTag(MIFARE_4)
    chip.place(tag)
    wait_for(lambda: sink.inputs, what="the tap")
    for _ in range(3):
        tag.fail("silent", 1)
        emu.buses[0].stall(LIFT_AFTER * 2)
        wait_for(lambda: not tag.faults["silent"], what="the missed answer")
        polled(hub, "seat-1", 10)
    assert sink.kinds() == ["tap"]
    chip.remove(tag)
    wait_for(lambda: len(sink.inputs) == 2, what="the lift")
    assert sink.kinds() == ["tap", "lift"]


class Timed(TagReader):
    """A reader that notes when it is polled and shows ``uid`` while it is set."""

    kind = "test"

    def __init__(self, name):
        super().__init__(name)
        self.times: list[float] = []
        self.uid: str | None = None

    def poll(self):
        self.times.append(time.monotonic())
        return Poll(TAG, uid=self.uid) if self.uid else Poll(NO_TAG)


def test_a_reader_keeps_only_its_latest_lift_times_so_a_long_night_does_not_grow_the_server(hub_on, monkeypatch):
    """Issue 20: every lift's time was kept in a list for as long as the table ran."""
    monkeypatch.setattr(hub_module, "LIFTS_KEPT", 2)
    reader = Timed("seat-1")
    hub, sink = hub_on([reader])
    for lifts in (1, 2, 3):
        reader.uid = NTAG_7
        wait_for(lambda: len(sink.inputs) == 2 * lifts - 1, what="the tap")
        reader.uid = None
        wait_for(lambda: len(sink.inputs) == 2 * lifts, what="the lift")
    assert sink.kinds() == ["tap", "lift"] * 3
    assert len(hub.stats()["seat-1"]["lift_delays"]) == 2


def test_an_empty_table_is_polled_at_the_idle_pace_and_a_card_brings_the_full_pace_back(hub_on):
    """Issue 20: no card on any reader, rounds of idle_round; a card is still one tap, polled at
    min_round while it lies there, and its lift comes after lift_after as before."""
    idle = 0.3
    reader = Timed("seat-1")
    hub, sink = hub_on([reader], idle_round=idle)        # min_round 2 ms
    wait_for(lambda: len(reader.times) >= 4, what="four idle polls")
    assert (reader.times[3] - reader.times[0]) / 3 >= idle * 0.8       # on a 2 ms pace: 0.002
    reader.uid = NTAG_7
    wait_for(lambda: sink.inputs, what="the tap")
    polls = len(reader.times)
    # 20 idle rounds would take 6 s
    wait_for(lambda: len(reader.times) >= polls + 20, timeout=3, what="20 polls at the full pace")
    reader.uid = None
    wait_for(lambda: len(sink.inputs) == 2, what="the lift")
    assert sink.kinds() == ["tap", "lift"]
    assert LIFT_AFTER <= hub.stats()["seat-1"]["lift_delays"][0] < idle
    polls = len(reader.times)
    wait_for(lambda: len(reader.times) >= polls + 4, what="four polls after the lift")
    assert (reader.times[polls + 3] - reader.times[polls]) / 3 >= idle * 0.8


def test_a_table_nobody_plays_at_dozes_and_a_card_wakes_it(hub_on):
    """Issue 20: once no card has lain on a group's readers for doze_after, its rounds are
    doze_round long (an idle table's polling CPU about halved); a card is still one tap and brings
    the full pace back, and after its lift the idle pace holds for doze_after again."""
    doze_after, doze = 0.5, 0.2
    reader = Timed("seat-1")
    hub, sink = hub_on([reader], idle_round=0.01, doze_after=doze_after, doze_round=doze)
    wait_for(lambda: reader.times and reader.times[-1] - reader.times[0] >= doze_after + 4 * doze,
             timeout=10, what="dozing for four rounds")
    start = reader.times[0]
    early = [t for t in reader.times if t - start < doze_after - 0.05]
    late = [t for t in reader.times if t - start > doze_after + 0.05]
    assert len(early) >= 10, "the idle pace (10 ms) before doze_after"        # 1 round in 0.5 s when dozing
    # (rounds keep to their schedule: one that woke late is followed by a shorter one)
    assert len(late) >= 3 and (late[-1] - late[0]) / (len(late) - 1) >= doze * 0.8, "then doze_round"
    reader.uid = NTAG_7
    wait_for(lambda: sink.inputs, what="the tap")
    reader.uid = None
    wait_for(lambda: len(sink.inputs) == 2, what="the lift")
    lifted = time.monotonic()
    wait_for(lambda: reader.times[-1] - lifted >= doze_after / 2, timeout=5, what="polls after the lift")
    assert len([t for t in reader.times if lifted <= t < lifted + doze_after / 2]) >= 5, \
        "awake again after a card: the idle pace, not the doze, until doze_after passes"
    assert sink.kinds() == ["tap", "lift"]


class Scripted(TagReader):
    """A reader that plays a list of poll results (ReaderDown instances are raised), then
    repeats the last one."""

    kind = "test"

    def __init__(self, name, script):
        super().__init__(name)
        self.script, self.count = list(script), 0

    def poll(self):
        self.count += 1
        step = self.script.pop(0) if len(self.script) > 1 else self.script[0]
        if isinstance(step, ReaderDown):
            raise step
        return step


def test_the_first_empty_poll_after_a_reader_is_reopened_is_ignored(hub_on):
    """Item 3: even with lift_misses = 1 and lift_after long gone, the first poll after a
    reopen cannot lift the card (it may be powering up)."""
    clock = ManualClock()
    tag = Poll(TAG, uid=NTAG_7)
    reader = Scripted("seat-1", [tag, tag, ReaderDown("brown-out"), Poll(NO_TAG), tag])
    hub, sink = hub_on([reader], clock=clock, lift_misses=1, retry_first=0.0)
    wait_for(lambda: reader.count >= 10, what="ten polls")
    assert sink.kinds() == ["tap"]


def test_a_lift_needs_several_empty_polls_in_a_row_as_well_as_the_time(emu):
    """Item 3: with the clock always past lift_after, two empty polls between reads of the
    card are no lift; the third empty poll in a row is."""
    tag, empty = Poll(TAG, uid=NTAG_7), Poll(NO_TAG)
    reader = Scripted("seat-1", [tag, empty, empty, tag, empty, empty, empty])
    at_poll = []
    sink = Recorder(forward=lambda inp, source: at_poll.append(reader.count))

    class Leaping:        # each reading of the clock is a second later: lift_after is always over
        now = 0.0

        def __call__(self):
            self.now += 1.0
            return self.now
    hub = ReaderHub([reader], sink, lift_after=LIFT_AFTER, lift_misses=3, min_round=0.002, clock=Leaping())
    hub.start()
    try:
        wait_for(lambda: len(sink.inputs) == 2, what="the lift")
    finally:
        hub.stop()
    assert sink.kinds() == ["tap", "lift"] and at_poll == [1, 7]


def test_no_timer_is_left_running_to_cut_the_next_wupa_short(emu):
    """Item 6: HLTA goes out with Transmit, which starts the timer; a running timer is not
    restarted by the next frame, so it would end the next WUPA's wait before a slow card
    answers. The driver stops it after HLTA."""
    chip = emu.add_reader(0, 0)
    chip.answer_delay_s = 0.0018          # a slow card, inside the 2 ms timeout
    reader = opened(emu, reset_pin=None, timeout_s=0.002)
    chip.place(EmulatedTag(NTAG_7))
    assert [reader.poll().uid for _ in range(10)] == [NTAG_7] * 10
    assert chip.timer_end is None


def test_a_wupa_cut_short_by_a_leftover_timer_is_sent_again(emu):
    """Item 6: whatever left the timer running, the poll still reads the card."""
    chip = emu.add_reader(0, 0)
    chip.answer_delay_s = 0.0006
    reader = opened(emu, reset_pin=None, timeout_s=0.01)
    chip.place(EmulatedTag(MIFARE_4))
    chip.leftover_timer(0.00005)
    assert reader.poll() == Poll(TAG, uid=MIFARE_4)


def test_receiver_gain_decides_whether_a_tag_under_thick_card_is_heard(emu):
    """Item 7: RFCfgReg is set from rx_gain_db (the chip's own 33 dB misses this tag)."""
    chip = emu.add_reader(0, 0)
    chip.place(EmulatedTag(MIFARE_4, min_gain_db=43))
    quiet = opened(emu, reset_pin=None, rx_gain_db=33)
    assert quiet.poll().status == NO_TAG
    quiet.close()
    assert opened(emu, reset_pin=None).poll().uid == MIFARE_4          # default 48 dB
    with pytest.raises(ValueError, match="rx_gain_db must be one of 18, 23, 33, 38, 43, 48"):
        Mfrc522Reader("seat-1", rx_gain_db=40)


def test_a_second_program_cannot_open_a_reader_in_use(emu):
    """Item 4: an exclusive flock on the chip select; the lock goes with the reader."""
    chip = emu.add_reader(0, 0)
    chip.place(EmulatedTag(NTAG_7))
    first = opened(emu, reset_pin=None)
    second = Mfrc522Reader("seat-1", 0, 0)
    with pytest.raises(ReaderBusy, match=r"/dev/spidev0\.0 is in use by another program"):
        second.open()
    assert first.poll().uid == NTAG_7              # and the holder was not reset or disturbed
    first.close()
    second.open()
    assert second.poll().uid == NTAG_7


def test_the_lock_is_held_across_processes(emu, tmp_path):
    emu_dir = emu.device_dir
    chip = emu.add_reader(0, 0)
    chip.place(EmulatedTag(NTAG_7))
    first = opened(emu, reset_pin=None)
    code = ("import sys; from tests.support.mfrc522_emulator import Emulator;"
            "from hardware.mfrc522_reader import FULL_READ_EVERY, Mfrc522Reader; from hardware.reader import ReaderBusy\n"
            f"with Emulator(device_dir={emu_dir!r}) as emu:\n"
            "    emu.add_reader(0, 0)\n"
            "    try:\n        Mfrc522Reader('seat-1', 0, 0).open()\n"
            "    except ReaderBusy as exc:\n        print(exc); sys.exit(3)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "in use by another program" in done.stdout
    first.close()
