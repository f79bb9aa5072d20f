"""A whole game of Food for Thought where every board's tokens are read through the synthetic camera.

The game is the two-player replay script whose receipts the engine's own tests work out by hand
(Ann 20, Ben -2).  The host marks both diet boards and the shopping list as watched by the
camera.  After every input the test lays the physical tokens as a careful player would (a hand
reaches in while they move), runs the camera on the frames, and puts the camera's commits on the
table.  The camera must agree with the record after every step, and the game must end with the
right scores.  A second game moves one token differently on the table than the record says: the
camera sees it, the host accepts the camera's view, and the score follows the tokens.
"""
from server.games.food_for_thought.boards import disagreements, implied
from tests.support.food_for_thought import new_table, ok
from tests.support.scripts import script_inputs
from tests.support.vision_scenes import calibrated
from vision import synthetic as syn
from vision.pipeline import Settings

BOARDS = ("shop", "diet-1", "diet-2")


def _script(name):
    lines = script_inputs(name)
    return lines[0]["new_game"], lines[1:]


class Camera:
    """The synthetic table, the pipeline watching it, and the table its commits go to."""

    def __init__(self, table):
        self.pipe, self.scene = calibrated(BOARDS, seed=3, settings=Settings(still_frames=6))
        self.table = table
        self.laid = {b: {} for b in BOARDS}
        self.frame = 0
        self.commits = 0

    def _run(self, tokens, hands, count):
        img, _ = syn.render(syn.with_tokens(self.scene, tokens, self.frame, hands))
        self.frame += 1
        for _ in range(count):
            for inp in self.pipe.process(img):
                assert not hands, "committed while a hand was over the table"
                self.commits += 1
                ok(self.table, inp)

    def lay(self, tokens):
        """A hand moves the tokens from how they lie to ``tokens``; then the table is left still."""
        if tokens == self.laid:
            return
        hand = [syn.Hand(tip=(500, 560), origin=(420, 1300))]
        self._run(self.laid, hand, 1)
        self._run(tokens, hand, 1)
        self.laid = {b: dict(t) for b, t in tokens.items()}
        self._run(self.laid, [], 14)          # enough for a second look at a big change


def _record(table):
    return {b: implied(table.state, b) for b in BOARDS}


def _receipts(table):
    return {r["name"]: r["total"] for r in table.state["receipts"]}


def test_whole_game_through_the_camera_agrees_with_the_record_and_scores_right():
    new_game, inputs = _script("food-for-thought-2p-basic.jsonl")
    table = new_table(new_game["players"], seed=new_game["seed"])
    camera = Camera(table)
    camera._run({b: {} for b in BOARDS}, [], 8)              # the empty table: the first snapshots
    for board in BOARDS:
        ok(table, {"host": {"action": "watch_board", "board": board, "watched": True}})
    camera.lay(_record(table))
    for inp in inputs:
        ok(table, inp)
        camera.lay(_record(table))
        for board in BOARDS:
            assert disagreements(table.state, board) == [], (inp, board)
    assert table.state["over"]
    assert _receipts(table) == {"Ann": 20, "Ben": -2}
    assert camera.commits > 20


def test_the_camera_sees_a_token_moved_differently_and_the_score_follows_it():
    """Round 1: Ann snacks nuts (recorded: nuts from her kitchen into her body).  On the table she puts
    the nuts token in her trash instead.  The camera reports the difference; the host accepts the
    camera's view; at the end she has no nuts in her body (-3 instead of +2) and one more token in
    the trash (-2): 20 - 5 - 2 = 13."""
    new_game, inputs = _script("food-for-thought-2p-basic.jsonl")
    table = new_table(new_game["players"], seed=new_game["seed"])
    camera = Camera(table)
    camera._run({b: {} for b in BOARDS}, [], 8)
    ok(table, {"host": {"action": "watch_board", "board": "diet-1", "watched": True}})
    snack = {"seat": {"seat": 1, "action": "snack", "food": "nuts"}}
    accepted = False
    for inp in inputs:
        ok(table, inp)
        if accepted:
            continue            # the rest of the game: the record decides (no camera needed)
        physical = _record(table)
        if inp == snack:
            body = physical["diet-1"]
            assert body.pop("body.nuts.1") == "nuts"
            trash = len([s for s in body if s.startswith("trash.")])
            body[f"trash.{trash + 1}"] = "nuts"
            camera.lay(physical)
            diff = disagreements(table.state, "diet-1")
            trash_before = [body[f"trash.{n}"] for n in range(1, trash + 1)]
            assert diff == [{"slot": "body.nuts.1", "recorded": "nuts", "seen": None},
                            {"slot": "trash", "recorded": trash_before, "seen": trash_before + ["nuts"]}]
            ok(table, {"host": {"action": "accept_board", "board": "diet-1"}})
            assert disagreements(table.state, "diet-1") == []
            accepted = True
            continue
        camera.lay(physical)
    assert _receipts(table) == {"Ann": 13, "Ben": -2}


def test_the_camera_puts_only_boards_in_play_on_the_table():
    """A two-player game has no diet-3; a camera left on during another game sends nothing."""
    from vision.camera import put_if_in_play

    class Table:
        def __init__(self, state):
            self.state, self.put_inputs = state, []

        def put(self, inp, source):
            self.put_inputs.append((inp, source))

    game, _ = _script("food-for-thought-2p-basic.jsonl")
    ffg = Table(new_table(game["players"]).state)
    for board in ("diet-1", "diet-2", "shop", "diet-3", "diet-4"):
        put_if_in_play(ffg, {"board": {"board": board, "slots": {}}})
    assert [inp["board"]["board"] for inp, _ in ffg.put_inputs] == ["diet-1", "diet-2", "shop"]
    assert {source for _, source in ffg.put_inputs} == {"camera"}

    for state in (None, {"game": "tofu-god"}):
        other = Table(state)
        put_if_in_play(other, {"board": {"board": "diet-1", "slots": {}}})
        assert other.put_inputs == []
