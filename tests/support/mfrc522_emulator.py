"""An emulated MFRC522 at the SPI boundary, so the real ``mfrc522`` package runs on any machine.

Fake ``spidev`` and ``RPi.GPIO`` modules go into ``sys.modules``; each
``/dev/spidevB.D`` of an :class:`Emulator` is an :class:`EmulatedChip` that
answers register reads and writes as the datasheet describes (FIFO, command
register, interrupt request bits, error and collision registers, the timer,
the CRC coprocessor, reset by its RST pin), with :class:`EmulatedTag` cards in
its field that follow the ISO/IEC 14443-3 state machine (IDLE, READY, ACTIVE,
HALT; REQA, WUPA, anticollision and select over 1-3 cascade levels, HLTA).

Time on a bus is virtual: every SPI transfer advances the bus clock by what it
would take on a Pi (a fixed overhead plus 8 bits per byte at the bus speed), a
card answers ``answer_delay_s`` after a frame, and the chip's timer fires after
its programmed period.  So loops that wait on the chip cost the same number of
transfers as on real hardware, whatever the speed of the test machine.

When the driver sleeps (``time.sleep`` in :mod:`hardware.mfrc522_reader`),
the bus clock of the thread's bus moves on by as long: the chip's timer and the
cards keep running while the program waits, as they do on a Pi.

Faults are scriptable, each one the independent emulation behind issue 18 found:

* tags: remove or collide them, garble a tag's BCC, CRC or parity (once, or at
  random with ``noisy``); a tag that needs ``power_up_s`` in the field before it
  answers (ISO 14443-3 allows 5 ms); a tag that only a receiver gain of
  ``min_gain_db`` hears (under thick card stock);
* chips: unplug one (reads float to 0x00, or 0xFF with ``unplug(floating=0xFF)``),
  a MISO line stuck high while the chip runs on (``stick_miso``), a brown-out
  that resets it, SPI transfers that fail, a timer left running
  (``leftover_timer``; like the chip, a running timer is not restarted by the end
  of a transmission, and Transmit starts it too);
* buses: a stall that holds the next transfer up (``SpiBus.stall``);
* a second program on the bus: each ``/dev/spidevB.D`` is a real file in
  ``device_dir``, so ``flock`` on a SpiDev's ``fileno()`` works as on a Pi, across
  processes too, and two programs that do not lock interleave their register
  traffic as they would.

    with Emulator() as emu:
        chip = emu.add_reader(0, 0)
        chip.place(EmulatedTag("04A224C2B31190"))
        ...  # open hardware.mfrc522_reader.Mfrc522Reader(...) as usual
"""
from __future__ import annotations

import os
import random
import sys
import tempfile
import threading
import time
import types
from collections import deque

from hardware import iso14443 as iso

# Registers (datasheet section 9) and their bits.
COMMAND, COMM_IEN, DIV_IEN, COMM_IRQ, DIV_IRQ, ERROR = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06
STATUS2, FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x0E
TX_MODE, RX_MODE, TX_CONTROL = 0x12, 0x13, 0x14
RF_CFG = 0x26
CRC_RESULT_M, CRC_RESULT_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
VERSION = 0x37
IDLE, CALC_CRC, TRANSMIT, RECEIVE, TRANSCEIVE, MF_AUTHENT, SOFT_RESET = 0x0, 0x3, 0x4, 0x8, 0xC, 0xE, 0xF
TX_IRQ, RX_IRQ, IDLE_IRQ, ERR_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x02, 0x01
CRC_IRQ = 0x04
COLL_ERR, CRC_ERR, PARITY_ERR, BUFFER_OVFL = 0x08, 0x04, 0x02, 0x10
FIFO_SIZE = 64

#: Register values after a reset (datasheet section 9.3), where they are not 0.
RESET_VALUES = {COMMAND: 0x20, COMM_IEN: 0x80, COMM_IRQ: 0x14, CONTROL: 0x10, COLL: 0x80,
                0x11: 0x3F, 0x15: 0x00, 0x18: 0x84, 0x19: 0x4D, 0x1F: 0xEB, CRC_RESULT_M: 0xFF,
                CRC_RESULT_L: 0xFF, 0x24: 0x26, 0x26: 0x48, 0x27: 0x88, 0x28: 0x20, 0x29: 0x20,
                TX_CONTROL: 0x80, VERSION: 0x92}

#: RFCfgReg RxGain (bits 6-4) in dB (datasheet table 98).
RX_GAIN_DB = (18, 23, 18, 23, 33, 38, 43, 48)
T_STOP_NOW, T_START_NOW = 0x80, 0x40

TAG_IDLE, TAG_READY, TAG_ACTIVE, TAG_HALT = "idle", "ready", "active", "halt"


class EmulatedTag:
    """A type A card: a UID of 4, 7 or 10 bytes, its ATQA and SAK, and scriptable faults.

    ``fail(kind, times)`` garbles the next ``times`` answers of one kind:
    ``"bcc"`` (anticollision answer), ``"crc"`` (SAK), ``"parity"`` (any
    answer arrives with a parity error) or ``"silent"`` (no answer at all).
    """

    def __init__(self, uid: str | bytes, sak: int | None = None, power_up_s: float = 0.0,
                 min_gain_db: int = 0):
        self.power_up_s, self.min_gain_db = power_up_s, min_gain_db
        self.powered_at = 0.0     # bus time the field reached it
        self.uid = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        self.parts = iso.cascade_parts(self.uid)
        size_bits = {4: 0x00, 7: 0x40, 10: 0x80}[len(self.uid)]
        self.atqa = bytes((0x04 | size_bits, 0x00))
        # MIFARE Classic 1K answers SAK 0x08; NTAG21x 0x00.
        self.sak = (0x08 if len(self.uid) == 4 else 0x00) if sak is None else sak
        self.state, self.level, self.was_halted = TAG_IDLE, 0, False
        self.faults: dict[str, int] = {}
        self.answers = 0
        self.struck = 0          # faults that struck so far
        self._noise: tuple[float, random.Random] | None = None

    @property
    def hex(self) -> str:
        return iso.uid_hex(self.uid)

    def fail(self, kind: str, times: int = 1) -> None:
        self.faults[kind] = self.faults.get(kind, 0) + times

    def noisy(self, rate: float, seed: int = 0) -> None:
        """From now on each kind of fault strikes each answer with probability ``rate``
        (a tag at the edge of the field); 0 makes it clean again."""
        self._noise = (rate, random.Random(seed)) if rate else None

    def _fault(self, kind: str) -> bool:
        if self.faults.get(kind, 0) > 0:
            self.faults[kind] -= 1
        elif self._noise is None or self._noise[1].random() >= self._noise[0]:
            return False
        self.struck += 1
        return True

    def power_up(self, now: float = 0.0) -> None:
        """The field reaches the tag at bus time ``now``: it starts in IDLE once powered up."""
        self.state, self.level, self.was_halted = TAG_IDLE, 0, False
        self.powered_at = now

    def _back_to_rest(self) -> None:
        self.state, self.level = (TAG_HALT if self.was_halted else TAG_IDLE), 0

    def hear(self, frame: bytes, short: bool, now: float = float("inf"),
             gain_db: int = 48) -> tuple[bytes, bool] | None:
        """Answer one frame from the reader: ``(answer, parity_error)`` or None for silence.

        A tag still powering up hears nothing; an answer weaker than the receiver
        can pick up at ``gain_db`` is not heard by the reader.
        """
        if now < self.powered_at + self.power_up_s:
            return None
        answer = self._answer(frame, short)
        if answer is not None and gain_db < self.min_gain_db:
            return None
        if answer is None or self._fault("silent"):
            return None
        self.answers += 1
        return answer, self._fault("parity")

    def _answer(self, frame: bytes, short: bool) -> bytes | None:
        if short:
            cmd = frame[0]
            if cmd == iso.WUPA and self.state in (TAG_IDLE, TAG_HALT) or \
                    cmd == iso.REQA and self.state == TAG_IDLE:
                self.was_halted = self.state == TAG_HALT
                self.state, self.level = TAG_READY, 0
                return self.atqa
            if self.state in (TAG_READY, TAG_ACTIVE):
                self._back_to_rest()
            return None
        if self.state == TAG_READY and len(frame) >= 2 and frame[0] == iso.SELECT_CODES[self.level]:
            part = self.parts[self.level]
            if frame[1] == iso.NVB_ANTICOLLISION and len(frame) == 2:
                check = iso.bcc(part) ^ (0xFF if self._fault("bcc") else 0)
                return part + bytes((check,))
            if frame[1] == iso.NVB_SELECT and len(frame) == 9:
                if iso.crc_a(frame[:7]) != frame[7:9] or frame[2:6] != part or frame[6] != iso.bcc(part):
                    self._back_to_rest()
                    return None
                last = self.level == len(self.parts) - 1
                sak = self.sak if last else iso.SAK_UID_NOT_COMPLETE
                crc = iso.crc_a(bytes((sak,)))
                if self._fault("crc"):
                    crc = bytes(b ^ 0xFF for b in crc)
                if last:
                    self.state = TAG_ACTIVE
                else:
                    self.level += 1
                return bytes((sak,)) + crc
        if self.state == TAG_ACTIVE and len(frame) == 4 and frame[0] == iso.HLTA and frame[1] == 0:
            if iso.crc_a(frame[:2]) == frame[2:4]:
                self.state, self.level, self.was_halted = TAG_HALT, 0, True
            return None
        if self.state in (TAG_READY, TAG_ACTIVE):
            self._back_to_rest()
        return None


class SpiBus:
    """One SPI controller: its chips share a virtual clock, advanced by each transfer.

    ``emulation_s`` is the CPU time (``time.thread_time``) this machine spent emulating the
    transfers: on a Pi each is a ``spidev`` system call instead.
    """

    def __init__(self, overhead_s: float):
        self.now = 0.0
        self.overhead_s = overhead_s
        self.transfers = 0
        self.emulation_s = 0.0
        self.lock = threading.Lock()
        self.stall_s = 0.0

    def stall(self, seconds: float) -> None:
        """The next transfer is held up ``seconds`` (another device hogging the bus, a
        program that was not scheduled): it waits that long, on the bus clock too."""
        self.stall_s += seconds

    def _take_stall(self) -> None:
        if self.stall_s:
            seconds, self.stall_s = self.stall_s, 0.0
            time.sleep(seconds)
            self.now += seconds


class EmulatedChip:
    """One MFRC522 behind one chip select."""

    def __init__(self, bus: SpiBus, answer_delay_s: float, floating: int, reset_pin: int | None):
        self.bus = bus
        self.answer_delay_s = answer_delay_s
        self.floating = floating
        self.reset_pin = reset_pin
        self.tags: list[EmulatedTag] = []
        self.plugged = True
        self.miso_stuck: int | None = None
        self.in_reset = False
        self.spi_errors = 0
        self.reads = 0
        self.unanswered_version_reads = 0   # the driver's "is it there?" read while unplugged or in reset
        self._power_on()

    # ----- what a test does to the chip ---------------------------------------
    def place(self, *tags: EmulatedTag) -> None:
        """Put tags in the field (each wakes up in IDLE)."""
        for tag in tags:
            tag.power_up(self.bus.now)
            self.tags.append(tag)

    def remove(self, *tags: EmulatedTag) -> None:
        """Take tags out of the field (all of them when none is named)."""
        for tag in (tags or list(self.tags)):
            self.tags.remove(tag)

    def unplug(self, floating: int | None = None) -> None:
        """The reader loses power or its cable: reads float (to the emulator's level, or
        ``floating``: 0xFF where a pull-up holds MISO high), writes go nowhere."""
        self.plugged = False
        if floating is not None:
            self.floating = floating

    def stick_miso(self, level: int | None) -> None:
        """MISO stuck at ``level`` (0xFF: high) while the chip runs on; None frees it."""
        self.miso_stuck = level

    def leftover_timer(self, fires_in_s: float) -> None:
        """Leave the chip's timer running, due to fire in ``fires_in_s`` of bus time."""
        self.timer_end = self.bus.now + fires_in_s

    def plug(self) -> None:
        """Power comes back: the chip starts from its reset values."""
        self.plugged = True
        self._power_on()

    def brown_out(self) -> None:
        """A dip in the supply: the chip resets itself and forgets its settings."""
        self._power_on()

    def fail_spi(self, times: int) -> None:
        """The next ``times`` transfers raise OSError (EIO), as spidev does on a bus fault."""
        self.spi_errors += times

    # ----- registers ----------------------------------------------------------
    def _power_on(self) -> None:
        self.regs = [0] * 64
        for reg, value in RESET_VALUES.items():
            self.regs[reg] = value
        self.fifo: deque[int] = deque()
        self.timer_end: float | None = None
        self.pending: tuple | None = None
        for tag in self.tags:      # the antenna is off after a reset: the tags lose power
            tag.power_up(float("inf"))

    @property
    def _alive(self) -> bool:
        return self.plugged and not self.in_reset

    def set_reset_line(self, level: int) -> None:
        """The RST pin: low holds the chip powered down, a rising edge resets it."""
        if level and self.in_reset:
            self._power_on()
        self.in_reset = not level

    def transfer(self, data: list[int], speed_hz: int) -> list[int]:
        """One SPI transaction (datasheet 8.1.2): the address byte, then data."""
        bus = self.bus
        bus.now += bus.overhead_s + len(data) * 8 / speed_hz
        bus.transfers += 1
        if self.spi_errors:
            self.spi_errors -= 1
            raise OSError(5, "Input/output error")
        if not self._alive:
            if data[0] & 0x80 and (data[0] >> 1) & 0x3F == VERSION:
                self.unanswered_version_reads += 1
            return [self.floating] * len(data)
        self._advance()
        out = [0] * len(data)
        if data[0] & 0x80:
            for i in range(1, len(data)):
                self.reads += 1
                out[i] = self._read((data[i - 1] >> 1) & 0x3F)
        else:
            addr = (data[0] >> 1) & 0x3F
            for value in data[1:]:
                self._write(addr, value)
        if self.miso_stuck is not None:
            return [self.miso_stuck] * len(data)
        return out

    def _read(self, reg: int) -> int:
        if reg == FIFO_DATA:
            return self.fifo.popleft() if self.fifo else 0
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def _write(self, reg: int, value: int) -> None:
        regs = self.regs
        if reg == FIFO_DATA:
            if len(self.fifo) < FIFO_SIZE:
                self.fifo.append(value)
            else:
                regs[ERROR] |= BUFFER_OVFL
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
                regs[ERROR] &= ~BUFFER_OVFL
        elif reg in (COMM_IRQ, DIV_IRQ):
            if value & 0x80:
                regs[reg] |= value & 0x7F
            else:
                regs[reg] &= ~value & 0x7F
        elif reg == COMMAND:
            self._command(value)
        elif reg == BIT_FRAMING:
            regs[reg] = value & 0x7F
            if value & 0x80 and regs[COMMAND] & 0x0F == TRANSCEIVE:
                self._send(value & 0x07)
        elif reg == TX_CONTROL:
            was_on = regs[reg] & 0x03
            regs[reg] = value
            if value & 0x03 and not was_on:
                for tag in self.tags:
                    tag.power_up(self.bus.now)
        elif reg == CONTROL:
            if value & T_STOP_NOW:
                self.timer_end = None
            elif value & T_START_NOW:
                self._start_timer(restart=True)
        elif reg != VERSION:
            regs[reg] = value

    def _command(self, value: int) -> None:
        command = value & 0x0F
        if command == SOFT_RESET:
            self._power_on()
            return
        self.regs[COMMAND] = value & 0x30 | command
        if command == IDLE:        # the receiver stops; the timer runs on
            self.pending = None
        elif command == CALC_CRC:
            crc = iso.crc_a(bytes(self.fifo))
            self.fifo.clear()
            self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_M] = crc[0], crc[1]
            self.regs[DIV_IRQ] |= CRC_IRQ
        elif command == TRANSMIT:
            self._send(self.regs[BIT_FRAMING] & 0x07, expect_answer=False)
            self.regs[COMMAND] &= 0xF0
            self.regs[COMM_IRQ] |= IDLE_IRQ
        elif command == MF_AUTHENT:    # no crypto here: authentication always fails
            self.fifo.clear()
            self.regs[ERROR] |= 0x01
            self.regs[COMMAND] &= 0xF0
            self.regs[COMM_IRQ] |= IDLE_IRQ | ERR_IRQ

    # ----- the radio ----------------------------------------------------------
    def _send(self, tx_last_bits: int, expect_answer: bool = True) -> None:
        regs = self.regs
        frame = bytes(self.fifo)
        self.fifo.clear()
        regs[ERROR] = 0
        if regs[TX_MODE] & 0x80:
            frame += iso.crc_a(frame)
        short = tx_last_bits == 7 and len(frame) == 1
        field_on = regs[TX_CONTROL] & 0x03
        gain = RX_GAIN_DB[regs[RF_CFG] >> 4 & 0x07]
        heard = [tag.hear(frame, short, self.bus.now, gain) for tag in list(self.tags)] if field_on else []
        answers = [a for a in heard if a is not None]
        regs[COMM_IRQ] |= TX_IRQ
        if regs[T_MODE] & 0x80:    # TAuto: the timer starts when the frame has gone out
            self._start_timer(restart=False)
        if not expect_answer:
            return
        if answers:
            self.pending = (self.bus.now + self.answer_delay_s, *self._mix(answers))

    def _start_timer(self, restart: bool) -> None:
        """Start the timer with its reload value; a running one goes on unless ``restart``."""
        if self.timer_end is not None and not restart:
            return
        regs = self.regs
        prescaler = (regs[T_MODE] & 0x0F) << 8 | regs[T_PRESCALER]
        reload = regs[T_RELOAD_H] << 8 | regs[T_RELOAD_L]
        self.timer_end = self.bus.now + (reload + 1) * (2 * prescaler + 1) / 13.56e6

    def _mix(self, answers: list[tuple[bytes, bool]]) -> tuple[bytes, int]:
        """What the receiver makes of one or more answers at once: data and ErrorReg bits."""
        datas = [a for a, _ in answers]
        errors = PARITY_ERR if any(p for _, p in answers) else 0
        first = datas[0]
        if all(d == first for d in datas):
            return first, errors
        mixed = bytearray(max(len(d) for d in datas))
        for data in datas:
            for i, byte in enumerate(data):
                mixed[i] |= byte
        diff = next(i * 8 + b for i in range(len(mixed)) for b in range(8)
                    if any(((d[i] if i < len(d) else 0) >> b & 1) != (first[i] >> b & 1) for d in datas))
        self.regs[COLL] = (self.regs[COLL] & 0x80) | ((diff + 1) & 0x1F)
        return bytes(mixed), errors | COLL_ERR

    def _advance(self) -> None:
        """Let virtual time act: a card's answer arrives, or the timer runs out."""
        now = self.bus.now
        if self.timer_end is not None and now >= self.timer_end and \
                (self.pending is None or self.timer_end < self.pending[0]):
            self.timer_end = None                     # the timer ran out before the answer came
            self.regs[COMM_IRQ] |= TIMER_IRQ
        if self.pending is not None and now >= self.pending[0]:
            _, data, errors = self.pending
            self.pending, self.timer_end = None, None
            regs = self.regs
            if regs[RX_MODE] & 0x80:
                if len(data) < 3 or iso.crc_a(data[:-2]) != data[-2:]:
                    errors |= CRC_ERR
                data = data[:-2]
            self.fifo.extend(data)
            regs[CONTROL] = regs[CONTROL] & 0xF8
            regs[ERROR] |= errors
            regs[COMM_IRQ] |= RX_IRQ | (ERR_IRQ if errors else 0)


class Emulator:
    """The emulated hardware of one test: SPI buses with chips, and the GPIO pins.

    Use it as a context manager: inside, ``import spidev``, ``import RPi.GPIO``
    and ``import mfrc522`` give the fakes and the real package running on them,
    and the driver's sleeps move the bus clock on.  ``device_dir`` holds a file
    per chip select for ``flock`` (a fresh temporary folder unless given; give two
    processes the same one to share their locks).
    """

    def __init__(self, overhead_s: float = 25e-6, answer_delay_s: float = 100e-6,
                 floating: int = 0x00, device_dir: str | os.PathLike | None = None):
        self.overhead_s, self.answer_delay_s, self.floating = overhead_s, answer_delay_s, floating
        self._tmp = None if device_dir else tempfile.TemporaryDirectory(prefix="emulated-spidev-")
        self.device_dir = str(device_dir or self._tmp.name)
        os.makedirs(self.device_dir, exist_ok=True)
        self.buses: dict[int, SpiBus] = {}
        self.chips: dict[tuple[int, int], EmulatedChip | None] = {}
        self.gpio_mode: int | None = None
        self.pins: dict[int, int] = {}
        self._saved: dict[str, types.ModuleType | None] = {}

    def add_reader(self, bus: int, device: int, reset_pin: int | None = None) -> EmulatedChip:
        """Wire an MFRC522 to ``/dev/spidev<bus>.<device>`` (and optionally an RST pin)."""
        spi = self.buses.setdefault(bus, SpiBus(self.overhead_s))
        chip = EmulatedChip(spi, self.answer_delay_s, self.floating, reset_pin)
        self.chips[(bus, device)] = chip
        return chip

    def device_file(self, bus: int, device: int) -> str:
        """The file that stands for ``/dev/spidev<bus>.<device>`` (what flock locks)."""
        return os.path.join(self.device_dir, f"spidev{bus}.{device}")

    def add_empty_device(self, bus: int, device: int) -> None:
        """A chip select whose device file exists with nothing wired to it."""
        self.buses.setdefault(bus, SpiBus(self.overhead_s))
        self.chips[(bus, device)] = None

    def set_pin(self, pin: int, level: int) -> None:
        self.pins[pin] = level
        for chip in self.chips.values():
            if chip is not None and chip.reset_pin == pin:
                chip.set_reset_line(level)

    # ----- sys.modules -----------------------------------------------------
    _NAMES = ("spidev", "RPi", "RPi.GPIO")

    def __enter__(self) -> "Emulator":
        global _current
        for name in list(sys.modules):
            if name in self._NAMES or name == "mfrc522" or name.startswith("mfrc522."):
                self._saved[name] = sys.modules.pop(name)
        rpi = types.ModuleType("RPi")
        rpi.GPIO = _GPIO_MODULE
        sys.modules.update({"spidev": _SPIDEV_MODULE, "RPi": rpi, "RPi.GPIO": _GPIO_MODULE})
        import hardware.mfrc522_reader as driver
        self._driver, self._driver_time = driver, driver.time
        driver.time = _DriverTime()
        _current = self
        return self

    def __exit__(self, *exc) -> None:
        global _current
        for name in list(sys.modules):
            if name in self._NAMES or name == "mfrc522" or name.startswith("mfrc522."):
                del sys.modules[name]
        sys.modules.update(self._saved)
        self._driver.time = self._driver_time
        if self._tmp is not None:
            self._tmp.cleanup()
        _current = None


_current: Emulator | None = None


def _world() -> Emulator:
    if _current is None:
        raise RuntimeError("no Emulator is active")
    return _current


#: The bus each thread last talked to: the one its sleeps move on.
_thread_bus = threading.local()


class _DriverTime:
    """The ``time`` module as the driver sees it inside an Emulator: while the calling
    thread sleeps, its bus's clock moves on by as long (the chip's timer and the cards
    do not stop while the program waits)."""

    def __getattr__(self, name):
        return getattr(time, name)

    @staticmethod
    def sleep(seconds: float) -> None:
        bus = getattr(_thread_bus, "bus", None)
        if bus is not None:
            with bus.lock:
                bus.now += seconds
        time.sleep(seconds)


# ----- the fake spidev module ---------------------------------------------------
class SpiDev:
    """spidev.SpiDev on an emulated bus; ``fileno()`` is a real file, so flock works."""

    def __init__(self, bus: int | None = None, device: int | None = None):
        self.chip: EmulatedChip | None = None
        self.spi: SpiBus | None = None
        self._fd: int | None = None
        self.max_speed_hz, self.mode, self.bits_per_word = 500_000, 0, 8
        if bus is not None:
            self.open(bus, device)

    def open(self, bus: int, device: int) -> None:
        world = _world()
        if (bus, device) not in world.chips:
            raise FileNotFoundError(2, "No such file or directory")
        self._fd = os.open(world.device_file(bus, device), os.O_RDWR | os.O_CREAT, 0o600)
        self.spi, self.chip = world.buses[bus], world.chips[(bus, device)]

    def fileno(self) -> int:
        if self._fd is None:
            raise OSError(9, "Bad file descriptor")
        return self._fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
        self.spi, self.chip, self._fd = None, None, None

    def xfer2(self, data: list[int]) -> list[int]:
        if self.spi is None:
            raise OSError(9, "Bad file descriptor")
        _thread_bus.bus = self.spi
        with self.spi.lock:
            self.spi._take_stall()
            began = time.thread_time()
            try:
                return self._transfer(data)
            finally:
                self.spi.emulation_s += time.thread_time() - began

    def _transfer(self, data: list[int]) -> list[int]:
        if self.chip is None:
            self.spi.now += self.spi.overhead_s + len(data) * 8 / self.max_speed_hz
            self.spi.transfers += 1
            return [_world().floating] * len(data)
        return self.chip.transfer(list(data), self.max_speed_hz)

    xfer = xfer2


_SPIDEV_MODULE = types.ModuleType("spidev")
_SPIDEV_MODULE.SpiDev = SpiDev


# ----- the fake RPi.GPIO module -------------------------------------------------
def _gpio_module() -> types.ModuleType:
    gpio = types.ModuleType("RPi.GPIO")
    gpio.BOARD, gpio.BCM, gpio.OUT, gpio.IN, gpio.HIGH, gpio.LOW = 10, 11, 0, 1, 1, 0
    gpio.PUD_OFF, gpio.PUD_DOWN, gpio.PUD_UP = 20, 21, 22
    gpio.VERSION = "emulated"

    def getmode():
        return _world().gpio_mode

    def setmode(mode):
        world = _world()
        if world.gpio_mode is not None and world.gpio_mode != mode:
            raise ValueError("A different mode has already been set!")
        world.gpio_mode = mode

    def setup(channel, direction, pull_up_down=20, initial=-1):
        if _world().gpio_mode is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) "
                               "or GPIO.setmode(GPIO.BCM)")
        if direction == gpio.OUT:
            _world().set_pin(channel, 1 if initial == 1 else _world().pins.get(channel, 0))

    def output(channel, value):
        _world().set_pin(channel, 1 if value else 0)

    def input(channel):
        return _world().pins.get(channel, 0)

    def cleanup(channel=None):
        world = _world()
        for pin in ([channel] if channel is not None else list(world.pins)):
            world.pins.pop(pin, None)
        if channel is None:
            world.gpio_mode = None

    for fn in (getmode, setmode, setup, output, input, cleanup):
        setattr(gpio, fn.__name__, fn)
    gpio.setwarnings = lambda flag: None
    return gpio


_GPIO_MODULE = _gpio_module()
