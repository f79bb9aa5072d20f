"""The table's hardware: NFC readers, buttons and lights, real and simulated.

* :mod:`hardware.reader`: the ``TagReader`` interface every reader driver implements;
  drivers in :mod:`hardware.mfrc522_reader` (SPI), :mod:`hardware.usb_reader` (PC/SC) and
  :mod:`hardware.simulated`; ISO 14443-3 framing in :mod:`hardware.iso14443`.
* :mod:`hardware.hub`: polls the readers and turns what they see into ``tap``/``lift`` inputs.
* :mod:`hardware.buttons` and :mod:`hardware.feedback`: gpiozero buttons, LEDs and buzzer.
* :mod:`hardware.registry` (UID -> card) and :mod:`hardware.enrolment` (tagging a set of cards),
  with the /enrol page (:mod:`hardware.enrol_web`) and ``tofu-table enrol`` (:mod:`hardware.enrol_cli`).
* :mod:`hardware.config` (``config.toml``), :mod:`hardware.station` (everything started by
  ``tofu-table serve``), :mod:`hardware.doctor` and :mod:`hardware.reader_web` (simulated readers over HTTP).
"""
