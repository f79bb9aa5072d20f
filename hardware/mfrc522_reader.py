"""MFRC522 readers on the Pi's SPI buses, through the ``mfrc522`` package (0.0.7).

The package's low-level ``MFRC522`` class does the register traffic; a
subclass made when the first reader opens fixes what it gets wrong, without
touching the installed package:

* its wait loop (``if ~(...)``) ignores the chip's timer, so a poll with no
  card spins 2000 SPI reads; here the wait sleeps in short steps between reads
  of the interrupt register and ends when the chip's timer fires (1 ms by
  default: a card answers within about 0.3 ms), with a wall-clock bound in
  case the chip is gone;
* it switches the antenna on and talks at once; here init waits
  ``CARD_POWER_UP_S`` (ISO 14443-3 gives a card 5 ms to power up), sets the
  receiver gain (``RFCfgReg``) and stops the timer after HLTA, which would
  otherwise fire inside the next WUPA;
* it trusts every register value: a data line (MISO) floating high reads 0xFF
  everywhere, which looks like a collision; here an ErrorReg with its reserved
  bit set, or a VersionReg of 0x00/0xFF, means the chip is not answering;
* it reads only cascade level 1, so a 7-byte UID comes back as ``88`` + 3
  bytes; here every level is read (4-, 7- and 10-byte UIDs), each level's BCC
  and each SAK's CRC_A are checked, and a bit collision is reported as a
  collision instead of one random tag;
* it uses REQA, which a card that stays on the reader answers only every
  other poll; here each poll wakes the card with WUPA, so a resting card
  answers every poll.  Every poll a card answered ends with HLTA (a collision
  too: cards left READY would ignore the next WUPA, and a card laid just then
  would answer it alone); a card that rests on the reader has its UID read
  whole every ``FULL_READ_EVERY`` polls, and the polls between only check that
  a card with the same ATQA answers (WUPA and HLTA: 27 SPI transfers, against
  105 for reading a 7-byte UID).

Each reader takes an exclusive ``flock`` on its ``/dev/spidevB.D`` before
touching the chip, so a second program (``tofu-table doctor`` while the table
runs) cannot interleave its register traffic with the table's.

``RPi.GPIO``, ``spidev`` and ``mfrc522`` are imported only when a reader is
opened, so this module imports on any machine.  Pins use BCM numbering, as
gpiozero does.
"""
from __future__ import annotations

import fcntl
import functools
import importlib
import time

from . import iso14443 as iso
from .reader import COLLISION, GARBLED, NOTHING, TAG, Poll, ReaderBusy, ReaderDown, TagReader

COMMAND_IDLE, COMMAND_TRANSMIT, COMMAND_TRANSCEIVE = 0x00, 0x04, 0x0C
POWER_DOWN = 0x10
TIMER_IRQ = 0x01
#: ErrorReg bits that spoil a frame: BufferOvfl, CollErr, ParityErr, ProtocolErr.
FRAME_ERRORS = 0x1B
COLLISION_ERROR = 0x08
#: ErrorReg bit 5 is reserved and reads 0 on a working chip: set, the data line floats high.
ERROR_RESERVED = 0x20
#: ControlReg: stop the timer now.
T_STOP_NOW = 0x80
#: ISO 14443-3: a card may take up to 5 ms after the field comes on before it answers.
CARD_POWER_UP_S = 0.005
#: The wait for the chip sleeps this long between reads of its interrupt register.
WAIT_STEP_S = 0.00025
#: RFCfgReg RxGain values (bits 6-4) by receiver gain in dB.
RX_GAINS = {18: 0b010, 23: 0b011, 33: 0b100, 38: 0b101, 43: 0b110, 48: 0b111}
DEFAULT_RX_GAIN_DB = 48
#: Interrupt enable and wait bits per command: (CommIEnReg, CommIrqReg bits that end the wait).
_IRQS = {0x0E: (0x12, 0x10), COMMAND_TRANSCEIVE: (0x77, 0x30), COMMAND_TRANSMIT: (0x00, 0x50)}
#: VersionReg values of MFRC522 chips and the common clones.
VERSIONS = {0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0", 0x88: "FM17522 clone",
            0xB2: "FM17522 clone", 0x12: "MFRC522 clone"}
#: The chip's timer counts at 13.56 MHz / (2 * 169 + 1) = 40 kHz: 25 microseconds a tick.
TIMER_PRESCALER = 169
TIMER_TICK_S = (2 * TIMER_PRESCALER + 1) / 13.56e6
#: TModeReg: TAuto (the timer starts when a frame has been sent) and the prescaler's high bits.
T_MODE = 0x80 | (TIMER_PRESCALER >> 8)
#: A card resting on a reader has its whole UID read every this many polls; the polls between
#: only check that a card with the same ATQA still answers (at 55 polls a second, 91 ms apart).
FULL_READ_EVERY = 5


class ChipSilent(Exception):
    """No interrupt, not even the timer's, or values no chip gives: the chip is not there
    (or not set up)."""


@functools.lru_cache(maxsize=None)
def chip_class(base: type) -> type:
    """The library's ``MFRC522`` class with a sleeping wait bounded by the chip's timer."""

    class Chip(base):
        """One MFRC522 on one chip select; only register traffic, no tag logic."""

        def __init__(self, spidev, gpio, bus: int, device: int, speed_hz: int,
                     reset_pin: int | None, timeout_s: float, rx_gain_db: int):
            # The library's __init__ always claims a reset pin (22 when none is
            # given) and adds a log handler per reader; this one does neither.
            self.spi = spidev.SpiDev()
            self.spi.open(bus, device)
            self.gpio, self.reset_pin, self.timeout_s = gpio, reset_pin, timeout_s
            self.rx_gain_db = rx_gain_db
            self.last_error = 0
            self.cut_short = False   # the last exchange ended on a timer it had not started
            self.framing = 0x00      # BitFramingReg for the next transceive (bits of its last byte)
            self._irq_enable = None  # the CommIEnReg value last written
            try:     # closing the device on failure also lets go of the lock
                fcntl.flock(self.spi.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                self.spi.max_speed_hz = speed_hz
                if reset_pin is not None:
                    # Straight to high: readers sharing the line must not be reset by this one.
                    gpio.setup(reset_pin, gpio.OUT, initial=gpio.HIGH)
                self.MFRC522_Init()
            except BaseException:
                self.spi.close()
                raise

        def MFRC522_Init(self):
            self.MFRC522_Reset()
            self._irq_enable = None
            deadline = time.monotonic() + 0.05
            while self.Read_MFRC522(self.CommandReg) & POWER_DOWN and time.monotonic() < deadline:
                time.sleep(WAIT_STEP_S)
            ticks = max(1, round(self.timeout_s / TIMER_TICK_S)) - 1
            self.Write_MFRC522(self.TModeReg, T_MODE)
            self.Write_MFRC522(self.TPrescalerReg, TIMER_PRESCALER & 0xFF)
            self.Write_MFRC522(self.TReloadRegH, ticks >> 8)
            self.Write_MFRC522(self.TReloadRegL, ticks & 0xFF)
            self.Write_MFRC522(self.TxAutoReg, 0x40)     # 100 % ASK, as type A needs
            self.Write_MFRC522(self.ModeReg, 0x3D)       # CRC preset 0x6363
            self.Write_MFRC522(self.RFCfgReg, RX_GAINS[self.rx_gain_db] << 4)
            self.AntennaOn()
            time.sleep(CARD_POWER_UP_S)                 # a card in the field powers up

        def stop_timer(self):
            self.Write_MFRC522(self.ControlReg, T_STOP_NOW)

        def MFRC522_ToCard(self, command, sendData):
            """The library's exchange, sleeping between reads and ending on the chip's timer.

            Returns the library's ``(status, data, bits)``; ``last_error`` keeps
            the ErrorReg value and ``cut_short`` says the wait ended on a timer
            that fired before this exchange's own could have (one left running);
            raises ChipSilent when no interrupt comes in time and the chip is gone
            or has lost its settings, or when the chip reads as no chip can.
            """
            self.cut_short = False
            irq_enable, wait_irq = _IRQS.get(command, (0x00, 0x10))
            # Registers are written whole where the datasheet allows, not read first and
            # masked as the library does (with the wait below, an empty poll is 8 SPI transfers, not 17).
            if irq_enable != self._irq_enable:
                self.Write_MFRC522(self.CommIEnReg, irq_enable | 0x80)
                self._irq_enable = irq_enable
            self.Write_MFRC522(self.CommIrqReg, 0x7F)     # Set1 = 0: clears every pending interrupt
            self.Write_MFRC522(self.FIFOLevelReg, 0x80)   # FlushBuffer (the other bits are read-only)
            self.Write_MFRC522(self.CommandReg, COMMAND_IDLE)
            for byte in sendData:
                self.Write_MFRC522(self.FIFODataReg, byte)
            self.Write_MFRC522(self.CommandReg, command)
            if command == COMMAND_TRANSCEIVE:
                self.Write_MFRC522(self.BitFramingReg, self.framing | 0x80)   # StartSend
            sent = time.monotonic()
            deadline = sent + 4 * self.timeout_s + 0.02
            # A wake-up (7 bits) is answered within a few hundred microseconds or not at all: it is
            # looked at once, a step after the chip's timer is due, so an empty reader costs one
            # sleep and one read (a card's answer waits for that look: a millisecond at most).
            # Longer exchanges, with a card there, are looked at every step (a reader sharing the
            # bus must not wait on them).
            waits = iter((self.timeout_s + WAIT_STEP_S,) if command == COMMAND_TRANSCEIVE and
                         self.framing == 0x07 else ())
            while True:
                time.sleep(next(waits, WAIT_STEP_S))
                irq = self.Read_MFRC522(self.CommIrqReg)
                if irq & wait_irq:
                    break
                if irq & TIMER_IRQ and command != COMMAND_TRANSMIT:
                    self.cut_short = time.monotonic() - sent < self.timeout_s
                    self.Write_MFRC522(self.BitFramingReg, self.framing)
                    self.last_error = 0
                    return self.MI_NOTAGERR, [], 0
                if time.monotonic() > deadline:
                    # Either this thread was held up (the timer fired meanwhile) or
                    # the chip is gone or lost its settings (a brown-out resets it).
                    if self.Read_MFRC522(self.VersionReg) in (0x00, 0xFF) or \
                            self.Read_MFRC522(self.TModeReg) != T_MODE:
                        raise ChipSilent()
                    self.Write_MFRC522(self.BitFramingReg, self.framing)
                    self.last_error = 0
                    return self.MI_NOTAGERR, [], 0
            self.Write_MFRC522(self.BitFramingReg, self.framing)
            self.last_error = self.Read_MFRC522(self.ErrorReg)
            if self.last_error & ERROR_RESERVED:
                raise ChipSilent("its data line reads high: check MISO and 3.3 V")
            if self.last_error & FRAME_ERRORS:
                return self.MI_ERR, [], 0
            if command != COMMAND_TRANSCEIVE:
                return self.MI_OK, [], 0
            count = self.Read_MFRC522(self.FIFOLevelReg)
            last_bits = self.Read_MFRC522(self.ControlReg) & 0x07
            bits = (count - 1) * 8 + last_bits if last_bits else count * 8
            data = [self.Read_MFRC522(self.FIFODataReg) for _ in range(min(count, self.MAX_LEN))]
            return self.MI_OK, data, bits

    return Chip


class Mfrc522Reader(TagReader):
    """An MFRC522 on SPI bus ``bus``, chip select ``device`` (``/dev/spidev<bus>.<device>``).

    ``reset_pin`` (BCM) is the chip's RST line, or None when RST is tied to
    3.3 V.  ``timeout_s`` is how long the chip's timer waits for a card.
    ``attempts`` is how often a garbled read (CRC, BCC, parity) is retried
    within one poll.  ``rx_gain_db`` is the receiver gain (18, 23, 33, 38, 43
    or 48 dB; the chip starts at 33).
    """

    kind = "mfrc522"

    def __init__(self, name: str, bus: int = 0, device: int = 0, reset_pin: int | None = None,
                 speed_hz: int = 1_000_000, timeout_s: float = 0.001, attempts: int = 3,
                 rx_gain_db: int = DEFAULT_RX_GAIN_DB):
        super().__init__(name)
        if rx_gain_db not in RX_GAINS:
            raise ValueError(f"rx_gain_db must be one of {', '.join(map(str, RX_GAINS))}, not {rx_gain_db!r}")
        self.bus, self.device, self.reset_pin = bus, device, reset_pin
        self.speed_hz, self.timeout_s, self.attempts = speed_hz, timeout_s, attempts
        self.rx_gain_db = rx_gain_db
        self.chip = None
        self.version = None
        self._card_awake = False   # a card answered and was not sent to HALT yet
        self._resting = None       # (ATQA, the poll that read its UID) of the card on the reader
        self._confirmed = 0        # polls since that UID was read, each a matching ATQA

    @property
    def group(self) -> str:
        return f"spi{self.bus}"

    @property
    def path(self) -> str:
        """The device file of this reader's chip select."""
        return f"/dev/spidev{self.bus}.{self.device}"

    def describe(self) -> str:
        reset = f", reset on GPIO{self.reset_pin}" if self.reset_pin is not None else ""
        found = f" ({self.version})" if self.version else ""
        return f"MFRC522 on {self.path}{reset}{found}"

    # ----- opening ---------------------------------------------------------
    def open(self) -> None:
        try:
            gpio = importlib.import_module("RPi.GPIO")
            spidev = importlib.import_module("spidev")
            library = importlib.import_module("mfrc522.MFRC522")
        except (ImportError, RuntimeError) as exc:
            raise ReaderDown(f"the MFRC522 libraries do not load here ({exc}); on the Pi "
                             "install the `pi` extra (mfrc522, and rpi-lgpio on a Pi 5)") from exc
        if self.reset_pin is not None:
            mode = gpio.getmode()
            if mode is None:
                gpio.setmode(gpio.BCM)
            elif mode != gpio.BCM:
                raise ReaderDown("RPi.GPIO was set to BOARD pin numbers by other code; "
                                 "Tofu Table uses BCM numbers")
        self.close()
        path = self.path
        try:
            self.chip = chip_class(library.MFRC522)(spidev, gpio, self.bus, self.device, self.speed_hz,
                                                   self.reset_pin, self.timeout_s, self.rx_gain_db)
            version = self.chip.Read_MFRC522(self.chip.VersionReg)
        except BlockingIOError as exc:
            self.close()
            raise ReaderBusy(f"{path} is in use by another program (the running table, or a "
                             "second tofu-table command)") from exc
        except FileNotFoundError as exc:
            self.close()
            raise ReaderDown(f"{path} does not exist: enable SPI (raspi-config, or "
                             f"dtparam=spi=on / dtoverlay=spi1-3cs in config.txt)") from exc
        except PermissionError as exc:
            self.close()
            raise ReaderDown(f"no permission to open {path}: add the user to the spi and gpio "
                             "groups") from exc
        except (OSError, ChipSilent) as exc:
            self.close()
            raise ReaderDown(f"the MFRC522 on {path} does not answer ({exc or 'no interrupt'})") from exc
        if version in (0x00, 0xFF):
            self.close()
            raise ReaderDown(f"nothing answers on {path} (version register reads 0x{version:02X}): "
                             "check the wiring, 3.3 V and the chip-select line")
        self.version = VERSIONS.get(version, f"unknown chip version 0x{version:02X}")

    def close(self) -> None:
        self._resting = None           # a card may be swapped while the reader is closed
        if self.chip is not None:
            try:
                self.chip.spi.close()
            except OSError:
                pass
            self.chip = None

    # ----- polling ---------------------------------------------------------
    def poll(self) -> Poll:
        if self.chip is None:
            raise ReaderDown("the reader is not open")
        try:
            for _ in range(self.attempts):
                result = self._read_uid()
                if result.status != GARBLED:
                    return result
            self._check_alive()
            return result
        except ChipSilent as exc:
            why = f" ({exc})" if str(exc) else ""
            raise ReaderDown(f"the MFRC522 on {self.path} stopped answering{why}") from None
        except OSError as exc:
            raise ReaderDown(f"SPI error on {self.path}: {exc}") from exc

    def _check_alive(self) -> None:
        version = self.chip.Read_MFRC522(self.chip.VersionReg)
        if version in (0x00, 0xFF):
            raise ChipSilent()

    def _transceive(self, frame: list[int], framing: int = 0x00):
        chip = self.chip
        chip.framing = framing
        return chip.MFRC522_ToCard(COMMAND_TRANSCEIVE, frame)

    def _read_uid(self) -> Poll:
        """WUPA; then, unless the answer confirms the card whose UID was just read, anticollision
        and select at each cascade level, then HLTA.

        A card that answered the last poll with its UID and now answers the WUPA
        with the same ATQA is taken to be that card for up to ``FULL_READ_EVERY``
        polls (a hand swaps cards far slower; a card of another size collides in
        the ATQA, and any other answer reads the UID again), and sent back to rest
        with HLTA, so that a second card laid beside it answers the next WUPA with
        it, not in turns.
        """
        resting, self._resting = self._resting, None
        status, atqa, bits = self._wake()
        chip = self.chip
        if status == chip.MI_NOTAGERR:
            return NOTHING
        if status != chip.MI_OK and not chip.last_error & COLLISION_ERROR:
            result = Poll(GARBLED, detail="the card's answer to WUPA was garbled")
        elif status == chip.MI_OK and bits != 16:
            result = Poll(GARBLED, detail=f"the card's answer to WUPA had {bits} bits, not 16")
        elif status == chip.MI_OK and resting and resting[0] == atqa and self._confirmed < FULL_READ_EVERY - 1:
            self._halt()
            self._resting, self._confirmed = resting, self._confirmed + 1
            return resting[1]
        else:
            result = self._select()
        if result.status == TAG:
            self._resting, self._confirmed = (atqa, result), 0
        else:
            # Cards woken and left READY would ignore the next WUPA and let a card laid just now
            # answer it alone, read as the only card on the reader; at rest, all answer together.
            self._halt()
        return result

    def _wake(self):
        """WUPA, as the chip's ``(status, data, bits)``.

        A card that did not get to HLTA is still READY and ignores the first
        WUPA (it only falls back to IDLE or HALT), so then a silent WUPA is
        repeated once.  A WUPA cut short by a timer left running is sent again,
        and the card may have heard it (so it counts as awake).
        """
        chip = self.chip
        status, atqa, bits = self._transceive([iso.WUPA], framing=0x07)
        if status == chip.MI_NOTAGERR and chip.cut_short:
            self._card_awake = True
            status, atqa, bits = self._transceive([iso.WUPA], framing=0x07)
        if status == chip.MI_NOTAGERR and self._card_awake:
            status, atqa, bits = self._transceive([iso.WUPA], framing=0x07)
        self._card_awake = status != chip.MI_NOTAGERR
        return status, atqa, bits

    def _select(self) -> Poll:
        """Anticollision and select at each cascade level of the card a WUPA woke, then HLTA."""
        chip = self.chip
        uid = []
        for level, sel in enumerate(iso.SELECT_CODES, start=1):
            status, part, _ = self._transceive([sel, iso.NVB_ANTICOLLISION])
            if chip.last_error & COLLISION_ERROR:
                self._check_alive()
                return Poll(COLLISION, detail="two or more tags are on the reader at once")
            if status == chip.MI_NOTAGERR:
                return Poll(GARBLED, detail=f"the tag went quiet at cascade level {level}")
            if status != chip.MI_OK or len(part) != 5:
                return Poll(GARBLED, detail=f"garbled UID at cascade level {level}")
            if iso.bcc(part[:4]) != part[4]:
                return Poll(GARBLED, detail=f"BCC check failed at cascade level {level}")
            frame = [sel, iso.NVB_SELECT, *part]
            status, answer, bits = self._transceive(frame + list(iso.crc_a(frame)))
            if status != chip.MI_OK or bits != 24 or bytes(answer[1:3]) != iso.crc_a(answer[:1]):
                return Poll(GARBLED, detail=f"the SAK at cascade level {level} failed its CRC")
            if answer[0] & iso.SAK_UID_NOT_COMPLETE:
                if part[0] != iso.CASCADE_TAG:
                    return Poll(GARBLED, detail="the SAK asks for another level without a cascade tag")
                uid += part[1:4]
            else:
                uid += part[:4]
                break
        else:
            return Poll(GARBLED, detail="the tag asked for a fourth cascade level")
        self._halt()
        return Poll(TAG, uid=iso.uid_hex(bytes(uid)))

    def _halt(self) -> None:
        """HLTA: a selected card goes to HALT; a card only woken (READY) takes it as a wrong
        command and falls back to HALT or IDLE.  Either way the next WUPA wakes every card in the
        field at once, so two cards answer together and collide."""
        halt = [iso.HLTA, 0x00]
        self.chip.MFRC522_ToCard(COMMAND_TRANSMIT, halt + list(iso.crc_a(halt)))
        self.chip.stop_timer()         # Transmit started it too: it must not fire inside the next WUPA
        self._card_awake = False
