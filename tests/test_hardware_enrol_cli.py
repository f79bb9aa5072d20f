"""`tofu-table enrol` in a terminal: list sets, tap (here: type) cards in order, answer
the move question, export and import; and tapping on emulated readers from config.toml."""
import io
import threading

from hardware.registry import TagRegistry
from server.cli import build_parser
from tests.support.hardware_helpers import wait_for
from tests.support.mfrc522_emulator import EmulatedTag, Emulator

A, B = "04A224C2B31190", "A1B2C3D4"


def enrol(data, *argv, typed: str = "") -> tuple[int, str]:
    args = build_parser().parse_args(["enrol", "--data", str(data), *argv])
    out = io.StringIO()
    return args.func(args, stdin=io.StringIO(typed), out=out), out.getvalue()


def test_the_sets_are_listed_with_their_counts(tmp_path):
    status, text = enrol(tmp_path)
    assert status == 0
    assert "tofu-god/set-1" in text and "tofu-kingdom" in text and "0 / 8" in text


def test_typing_uids_enrols_in_order_and_asks_before_moving(tmp_path):
    status, text = enrol(tmp_path, "test", "--type", typed=f"{A}\n{B}\n")
    assert status == 0 and "Tap: test/red" in text and "Next: test/blue" in text
    assert "2 of 2 cards of Tiny Test Game cards have a tag." in text
    status, text = enrol(tmp_path, "tofu-kingdom", "--type", typed=f"{A}\nn\n{A}\ny\n\n")
    assert text.count("Move it? [y/N]") == 2
    assert "stays test/red" in text and "it was test/red" in text
    registry = TagRegistry.in_data_dir(tmp_path)
    assert registry.resolve_uid(A) == "tofu-kingdom/prince" and registry.resolve_uid(B) == "test/blue"


def test_export_list_and_import(tmp_path):
    enrol(tmp_path / "a", "test", "--type", typed=f"{A}\n{B}\n")
    status, text = enrol(tmp_path / "a", "--export", str(tmp_path / "tags.json"))
    assert status == 0 and "Wrote 2 tags" in text
    status, text = enrol(tmp_path / "b", "--import", str(tmp_path / "tags.json"))
    assert status == 0 and "Imported 2 tags" in text
    assert enrol(tmp_path / "b", "--list")[1].split() == [B, "test/blue", A, "test/red"]   # by card id


def test_a_bad_set_or_no_readers_is_explained(tmp_path):
    status, text = enrol(tmp_path, "tofu-god/set-7", "--type")
    assert status == 1 and "There is no card set 'tofu-god/set-7'" in text
    status, text = enrol(tmp_path, "test")
    assert status == 1 and "No readers are configured" in text and "--type" in text


def test_tapping_on_the_configured_readers(tmp_path):
    (tmp_path / "config.toml").write_text('[hub]\nlift_after_ms = 20\n[[readers]]\nname = "seat-1"\n')
    with Emulator() as emu:
        chip = emu.add_reader(0, 0)
        result = {}
        worker = threading.Thread(target=lambda: result.update(zip(("status", "text"), enrol(tmp_path, "test"))))
        worker.start()
        registry = TagRegistry.in_data_dir(tmp_path)
        for uid, card in ((A, "test/red"), (B, "test/blue")):
            tag = EmulatedTag(uid)
            chip.place(tag)
            wait_for(lambda: registry.resolve_uid(uid) == card)
            chip.remove(tag)
        worker.join(5)
    assert result["status"] == 0 and "2 of 2 cards" in result["text"]
