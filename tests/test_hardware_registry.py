"""The tag registry, enrolment sittings and the configuration file, as the host uses them."""
import pytest

from hardware import config as hwconfig
from hardware.enrolment import Enrolment, card_set, card_sets
from hardware.registry import RegistryError, TagRegistry, TagTaken, virtual_uid
from server.journal import Journal
from server.table import Table

A, B, C = "04A224C2B31190", "A1B2C3D4", "04112233445566778899"
KINGDOM = ["tofu-kingdom/" + r for r in
           ("prince", "princess", "queen", "maid", "guard", "chef", "minister", "spy")]


@pytest.fixture
def registry(tmp_path):
    reg = TagRegistry.in_data_dir(tmp_path)
    yield reg
    reg.close()


# ----- registry -------------------------------------------------------------------
def test_an_enrolled_tag_resolves_to_its_card_and_survives_a_restart(tmp_path, registry):
    registry.enrol(A, "tofu-god/set-3/elephant")
    again = TagRegistry.in_data_dir(tmp_path)
    assert again.resolve_uid(A) == "tofu-god/set-3/elephant"
    assert again.resolve_uid("04:a2:24:c2:b3:11:90") == "tofu-god/set-3/elephant"
    assert again.resolve_uid(B) is None


def test_an_unknown_tag_is_refused_with_how_to_enrol_it(tmp_path, registry):
    table = Table(Journal(tmp_path / "j.sqlite"), resolve_uid=registry.resolve_uid)
    table.handle({"new_game": {"game": "tiny", "players": ["Anna"], "seed": 1, "options": {}}})
    outcome = table.handle({"tap": {"reader": "seat-1", "uid": B}})
    assert not outcome.accepted and outcome.error.code == "unknown_tag"
    assert "/enrol" in outcome.error.message and "tofu-table enrol" in outcome.error.message


def test_a_tag_of_another_card_moves_only_when_asked(registry):
    registry.enrol(A, "tofu-kingdom/queen")
    with pytest.raises(TagTaken) as taken:
        registry.enrol(A, "tofu-kingdom/maid")
    assert taken.value.card == "tofu-kingdom/queen"
    assert registry.resolve_uid(A) == "tofu-kingdom/queen"
    words = registry.enrol(A, "tofu-kingdom/maid", move=True)
    assert "it was tofu-kingdom/queen" in words
    assert registry.resolve_uid(A) == "tofu-kingdom/maid" and registry.uid_of("tofu-kingdom/queen") is None


def test_a_new_tag_for_a_card_replaces_its_old_tag(registry):
    registry.enrol(A, "tofu-kingdom/spy")
    registry.enrol(B, "tofu-kingdom/spy")
    assert registry.resolve_uid(A) is None and registry.resolve_uid(B) == "tofu-kingdom/spy"


def test_bad_uids_and_unknown_cards_are_refused(registry):
    with pytest.raises(RegistryError, match="not a tag UID"):
        registry.enrol("12345", "tofu-kingdom/spy")
    with pytest.raises(RegistryError, match="not a card of any game"):
        registry.enrol(A, "tofu-kingdom/dragon")


def test_export_then_import_into_a_fresh_install(tmp_path, registry):
    registry.enrol(A, "tofu-kingdom/queen")
    registry.enrol(C, "tofu-god/set-1/rat")
    other = TagRegistry(tmp_path / "other" / "tags.sqlite")
    assert other.import_(registry.export()) == 2
    assert other.resolve_uid(C) == "tofu-god/set-1/rat" and other.resolve_uid(A) == "tofu-kingdom/queen"


def test_a_broken_import_changes_nothing(registry):
    registry.enrol(A, "tofu-kingdom/queen")
    document = {"format": "tofu-table-tags", "version": 1,
                "tags": [{"uid": B, "card": "tofu-kingdom/maid"}, {"uid": "XYZ", "card": "tofu-kingdom/spy"}]}
    with pytest.raises(RegistryError, match="not a tag UID"):
        registry.import_(document)
    with pytest.raises(RegistryError, match="not a Tofu Table tag export"):
        registry.import_('{"tags": []}')
    assert [e["card"] for e in registry.entries()] == ["tofu-kingdom/queen"]


def test_in_simulation_every_card_of_every_game_has_a_virtual_tag(tmp_path):
    sim = TagRegistry(tmp_path / "tags.sqlite", simulate=True)
    cards = [c for s in card_sets() for c in s["cards"]]
    assert {"tofu-god/set-6/tofu", "tofu-kingdom/spy", "test/red"} <= set(cards)
    uids = {virtual_uid(c) for c in cards}
    assert len(uids) == len(cards)
    assert all(sim.resolve_uid(virtual_uid(c)) == c for c in cards)
    assert TagRegistry(tmp_path / "real.sqlite").resolve_uid(virtual_uid("tofu-kingdom/spy")) is None


# ----- enrolment sittings ----------------------------------------------------------
def test_card_sets_are_one_tofu_god_set_or_the_kingdom_coasters():
    assert card_set("tofu-kingdom")["cards"] == KINGDOM
    god = card_set("tofu-god/set-3")
    assert god["title"] == "Tofu God set 3" and len(god["cards"]) == 10
    assert all(c.startswith("tofu-god/set-3/") for c in god["cards"])
    with pytest.raises(RegistryError, match="choose one of"):
        card_set("tofu-god/set-9")


def test_tapping_in_order_enrols_each_card(registry):
    sitting = Enrolment(registry, "tofu-kingdom")
    uids = [f"0411223344{n:04X}" for n in range(8)]
    for card, uid in zip(KINGDOM, uids):
        assert sitting.current == card
        step = sitting.tap(uid)
        assert step.result == "enrolled" and step.accepted
    assert sitting.done and "last card" in step.message
    assert [registry.resolve_uid(u) for u in uids] == KINGDOM


def test_the_tag_just_enrolled_tapped_again_is_refused_not_moved(registry):
    sitting = Enrolment(registry, "tofu-kingdom")
    sitting.tap(A)
    step = sitting.tap(A)
    assert step.result == "refused" and "now tap tofu-kingdom/princess" in step.message
    assert registry.resolve_uid(A) == "tofu-kingdom/prince"


def test_a_tag_of_another_set_asks_before_moving(registry):
    registry.enrol(A, "tofu-god/set-1/rat")
    sitting = Enrolment(registry, "tofu-kingdom")
    step = sitting.tap(A)
    assert step.result == "ask_move" and "tofu-god/set-1/rat" in step.message
    assert sitting.tap(B).result == "refused"              # answer first
    kept = sitting.answer(False)
    assert kept.result == "kept" and registry.resolve_uid(A) == "tofu-god/set-1/rat"
    assert sitting.tap(A).result == "ask_move"
    moved = sitting.answer(True)
    assert moved.result == "moved" and registry.resolve_uid(A) == "tofu-kingdom/prince"
    assert sitting.current == "tofu-kingdom/princess"


def test_a_card_already_carrying_this_tag_is_confirmed_and_skipped(registry):
    registry.enrol(A, "tofu-kingdom/prince")
    sitting = Enrolment(registry, "tofu-kingdom")
    assert sitting.tap(A).result == "already"
    assert sitting.current == "tofu-kingdom/princess"


# ----- configuration -----------------------------------------------------------------
def config_problems(path) -> list[str]:
    """The problems hwconfig.load lists for ``path`` (which must have some)."""
    with pytest.raises(hwconfig.ConfigError) as err:
        hwconfig.load(path)
    return err.value.problems


def test_the_example_configuration_is_valid():
    cfg = hwconfig.load(hwconfig.EXAMPLE)
    assert [r.name for r in cfg.readers] == ["seat-1", "seat-2", "seat-3"]
    assert cfg.buttons == {"advance": 5, "undo": 6} and cfg.buzzer_pin == 26


def test_no_configuration_file_means_no_devices(tmp_path):
    cfg = hwconfig.load(tmp_path / "config.toml")
    assert cfg.path is None and cfg.readers == [] and cfg.buttons == {}


def test_every_mistake_is_listed_in_plain_words(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("""
[hub]
lift_after = 300
[[readers]]
name = "seat-9"
[[readers]]
name = "seat-1"
bus = 0
device = 0
[[readers]]
name = "seat-2"
bus = 0
device = 0
[buttons.pins]
advance = 8
undo = 40
[leds]
seat-5 = 12
[buzzer]
pin = 8
""")
    problems = "\n".join(config_problems(path))
    assert "unknown setting 'lift_after' (did you mean 'lift_after_ms'?)" in problems
    assert "name must be one of seat-1" in problems
    assert "same chip select /dev/spidev0.0" in problems
    assert "[buttons.pins] undo (a BCM GPIO number) must be a whole number from 0 to 27" in problems
    assert "there is no reader called 'seat-5'" in problems
    assert "GPIO8 is used for button advance and buzzer" in problems
    assert "GPIO8 (button advance, buzzer) is SPI0 CE0, which the readers on SPI0 need" in problems


def test_a_file_that_is_not_toml_says_so(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[readers\n")
    with pytest.raises(hwconfig.ConfigError, match="not valid TOML"):
        hwconfig.load(path)


def test_chip_selects_are_those_the_pi_spi_overlays_give_each_bus(tmp_path):
    """Issue 18 item 8: SPI0 has CE0-1 (spi0-2cs), SPI1 and SPI2 CE0-2 (spi1-3cs, spi2-3cs),
    SPI3-6 CE0-1 (spiN-2cs)."""
    path = tmp_path / "config.toml"
    good = [("seat-1", 0, 1), ("seat-2", 1, 2), ("seat-3", 2, 2), ("seat-4", 3, 1), ("seat-5", 6, 1)]
    path.write_text("".join(f'[[readers]]\nname = "{n}"\nbus = {b}\ndevice = {d}\n' for n, b, d in good))
    assert [(r.bus, r.device) for r in hwconfig.load(path).readers] == [(b, d) for _, b, d in good]
    path.write_text('[[readers]]\nname = "seat-1"\nbus = 0\ndevice = 2\n'
                    '[[readers]]\nname = "seat-2"\nbus = 4\ndevice = 2\n')
    assert config_problems(path) == [
        "reader seat-1: device (chip select; SPI0 has CE0-CE1) must be a whole number from 0 to 1, not 2",
        "reader seat-2: device (chip select; SPI4 has CE0-CE1) must be a whole number from 0 to 1, not 2"]


def test_receiver_gain_lift_misses_and_hold_to_undo_are_checked(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[hub]\nlift_misses = 5\n[buttons]\nhold_to_undo_ms = 800\n'
                    '[[readers]]\nname = "seat-1"\nrx_gain_db = 38\n[[readers]]\nname = "seat-2"\ndevice = 1\n')
    cfg = hwconfig.load(path)
    assert cfg.lift_misses == 5 and cfg.hold_to_undo_ms == 800
    assert [r.rx_gain_db for r in cfg.readers] == [38, 48]          # 48 dB unless set
    assert cfg.readers[1].timeout_ms == 1.0
    path.write_text('[hub]\nlift_misses = 0\n[buttons]\nhold_to_undo_ms = 50\n'
                    '[[readers]]\nname = "seat-1"\nrx_gain_db = 40\n')
    problems = "\n".join(config_problems(path))
    assert "[hub] lift_misses must be a whole number from 1 to 50, not 0" in problems
    assert "[buttons] hold_to_undo_ms (0 for off) must be a number from 300 to 10000, not 50" in problems
    assert "reader seat-1: rx_gain_db must be one of 18, 23, 33, 38, 43, 48 (dB), not 40" in problems


def test_the_idle_round_of_the_readers_is_set_in_the_hub_section(tmp_path):
    """Issue 20: [hub] idle_round_ms sets how often an empty bus is polled (18 ms unless set)."""
    from hardware.station import Station

    path = tmp_path / "config.toml"
    path.write_text('[[readers]]\nname = "seat-1"\n')
    assert Station(hwconfig.load(path), lambda inp, source: None).hub.idle_round == 0.018
    path.write_text('[hub]\nidle_round_ms = 50\n[[readers]]\nname = "seat-1"\n')
    assert Station(hwconfig.load(path), lambda inp, source: None).hub.idle_round == 0.05
    path.write_text('[hub]\nidle_round_ms = -5\n')
    assert config_problems(path) == ["[hub] idle_round_ms must be a number from 0 to 1000, not -5"]


def test_the_readers_dozes_are_set_in_the_hub_section_and_the_deeper_comes_after(tmp_path):
    """Issue 20: after [hub] doze_after_s without a tag (5 s unless set), an empty bus is polled
    every doze_round_ms (40 ms unless set), after deep_doze_after_s (30 s) every deep_doze_round_ms
    (100 ms); a deeper doze that would come sooner or poll more often than the first is refused,
    naming both settings."""
    from hardware.station import Station

    def dozes(hub):
        return hub.doze_after, hub.doze_round, hub.deep_doze_after, hub.deep_doze_round
    path = tmp_path / "config.toml"
    path.write_text('[[readers]]\nname = "seat-1"\n')
    assert dozes(Station(hwconfig.load(path), lambda inp, source: None).hub) == (5.0, 0.04, 30.0, 0.1)
    path.write_text('[hub]\ndoze_after_s = 30\ndoze_round_ms = 100\ndeep_doze_after_s = 60\n'
                    'deep_doze_round_ms = 200\n[[readers]]\nname = "seat-1"\n')
    assert dozes(Station(hwconfig.load(path), lambda inp, source: None).hub) == (30.0, 0.1, 60.0, 0.2)
    path.write_text('[hub]\ndoze_round_ms = 2000\n')
    assert config_problems(path) == ["[hub] doze_round_ms must be a number from 0 to 1000, not 2000"]
    path.write_text('[hub]\ndoze_after_s = 20\ndeep_doze_after_s = 10\ndeep_doze_round_ms = 30\n')
    assert config_problems(path) == [
        "[hub] deep_doze_after_s (10) must be at least doze_after_s (20): the deeper doze comes after the first",
        "[hub] deep_doze_round_ms (30) must be at least doze_round_ms (40): the deeper doze polls less often"]
    path.write_text('[hub]\ndeep_doze_after_s = "long"\n')
    assert config_problems(path) == ['[hub] deep_doze_after_s must be a number from 0 to 3600, not \'long\'']
