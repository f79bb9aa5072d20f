"""The harder renderer draws Food for Thought's wooden pieces as what they are, by the game's token types."""
import cv2
import numpy as np

from tests.support.vision_scenes import layouts
from vision import scenes
from vision.tokens import SYNTHETIC_COLOURS


def _drawn(layout, tokens, parallax=(0.0, 0.0)):
    """The board's printed art with ``tokens`` drawn on it at 4 px/mm (the camera above ``parallax``)."""
    board = scenes.Board(layout, 0, 0, tokens=tokens, off_centre_mm=0.0)
    blank = scenes.printed_board(layout, 4.0).copy()
    art = blank.copy()
    scenes._draw_tokens(art, board, 4.0, lambda foot: np.array(parallax), np.array([0.3, 0.3]))
    return blank, art


def test_every_token_type_the_main_and_diet_boards_name_is_drawn_as_itself():
    # Rulebook, components: food tokens, 24 wooden player markers in 4 colours, 2 dice.  None of the
    # types the shipped layouts name may fall back to the renderer's spare colour for unknown names.
    ls = layouts("main", "diet-2")
    known = set(SYNTHETIC_COLOURS) | set(scenes.PLAYER_COLOURS) | {scenes.DIE}
    for layout in ls.values():
        for kind in layout.token_types():
            assert scenes.piece(scenes.Board(layout, 0, 0), kind) in known, (layout.board, kind)
    assert scenes.piece(scenes.Board(ls["diet-2"], 0, 0), "marker") == "marker2"      # the seat's colour
    assert scenes.piece(scenes.Board(ls["main"], 0, 0), "marker") == "marker"
    assert len(set(scenes.PLAYER_COLOURS.values())) == 4


def test_a_die_shows_the_pips_of_its_space_and_stands_taller_than_a_token():
    # Rulebook, grocery shopping: the dice are placed on the matching spaces around the shopping
    # list (one on the row spaces, one on the column spaces), so a die on die.row.<n> shows n.
    main = layouts("main")["main"]
    slot = {s.id: s for s in main.slots}
    for value in (1, 4, 5, 6):
        sid = f"die.row.{value}"
        _, art = _drawn(main, {sid: scenes.DIE})
        x, y, half = slot[sid].x * 4, slot[sid].y * 4, int(scenes.DIE_MM / 2 * 4 * 0.85)
        face = art[int(y) - half:int(y) + half, int(x) - half:int(x) + half]
        dark = (face.max(axis=2) < 90).astype(np.uint8)
        n, _ = cv2.connectedComponents(dark)
        assert n - 1 == value, (sid, n - 1)
    # seen from the side (the camera's nadir far away) its walls reach further than a food token's
    _, die = _drawn(main, {"die.col.2": scenes.DIE}, parallax=(0.5, 0.0))
    blank, food = _drawn(main, {"die.col.2": "meat"}, parallax=(0.5, 0.0))
    changed = lambda img: np.flatnonzero(np.abs(img.astype(int) - blank).sum(axis=(0, 2)) > 30)   # noqa: E731
    assert changed(die).max() - changed(food).max() >= 4 * 4          # 16 mm cube against a 2 mm token: 4 mm+


def test_a_player_marker_is_its_colour_with_a_wall_and_no_printed_icon():
    diet = layouts("diet-3")["diet-3"]
    sid = next(s.id for s in diet.slots if s.id.startswith("markers"))
    s = next(sl for sl in diet.slots if sl.id == sid)
    _, art = _drawn(diet, {sid: "marker"})
    r = int(diet.token_mm / 2 * 4 * 0.5)
    face = art[int(s.y * 4) - r:int(s.y * 4) + r, int(s.x * 4) - r:int(s.x * 4) + r].reshape(-1, 3).astype(float)
    green = np.array(scenes.PLAYER_COLOURS["marker3"], float)
    assert np.linalg.norm(face.mean(axis=0) - green) < 25               # the seat's paint (wood grain aside)
    assert (np.abs(face - face.mean(axis=0)).max(axis=1) > 80).mean() < 0.02   # no white or dark ink printed on it
