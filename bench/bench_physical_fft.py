"""Food for Thought physical-first: phone and host inputs per action, and the same scores as the guided mode.

    python3 bench/bench_physical_fft.py [--games 3] [--players 1,2,3,4] [--camera [easy|hard|scenes-LEVEL]]

A scripted group plays whole games at a physical-first table (``mode=physical``, ``draws=physical``,
the Freezer and Food Allergy modules on): it taps the recipe, activity and assistant cards it takes,
the out-of-stock cards it reveals each round (1-2 players) and the 8 market stands it draws (2
players), lays the dining-out tokens out from its own bag (read on the main board), gets its shopping dice
from the one place the game's ``dice`` option names (each option in some games: ``camera``, rolled onto their
two tracks on the main board; ``physical``, the marker put on the shopping space, then the roll tapped on the
shopper's phone, one phone input; ``digital``, the marker put down and the table's roll used), and moves
tokens and action markers on its boards: grocery
shopping (into the kitchen or straight into the freezer; a special order, $5 from the supply, of a food
its recipes need that the list no longer offers, and until the game's first one the scarcest foods are
bought first and any food gone from the list is ordered), farmers market stands (wild foods
included), Pizza To Go and its extra action at the round's end (or the marker taken back), the
Chinese Buffet, snacks, cooking (thawing too), working out, passing, and the clean-up.  Now and then
(about one in two) a cook or work out that completes a card is made the other way the rulebook describes:
its food laid on the card first (the table must wait and list nothing), the card tapped again on the
player's reader (the table completes it), and then the food moved to the body or the supply (the table
sees it and applies nothing more).  The table
only gets what the camera would send (a ``board`` reading of each board that changed, every slot of
it, empty ones as null; the diet board's unused markers and its own action spaces included) and the
reader taps.  The boards a move changed are read one at a time in a shuffled (seeded) order, the diet
board as often before the main board as after it: a camera reads each board when it lies still and
promises no order.  Phone or host inputs are counted per action type: the answers to the table's
questions.

The group also makes the table's hard cases happen, each kind once a game at its first chance: two
buffet rows with the same tokens (the table must ask which row), a kitchen token that fits two of the
player's recipes (it must ask which recipe), a body token that fits two of the player's activities (it
must ask which activity); and wrong moves it must refuse, applying nothing and
listing what to put back until the group puts it right and makes its real move: a snack moving two
tokens, a second snack in one round, a purchase over $6, a marker on a main board space already taken,
a third farmers market visit in a round, a stand's food put where the stand does not send it, a body
token on an activity that does not take it and a kitchen token on a recipe that does not take it.
After each turn the record must be the one the group's move makes (kitchen order aside), and every
game is replayed in the guided mode from the same decisions sent as phone actions: the final scores
must be the same.

With ``--camera`` the readings go through the real camera pipeline instead: the group's tokens,
markers and dice lie on the synthetic table (vision/synthetic.py, with the shipped layouts of the
main board, the shopping list and each player's diet board, whose layout has the board's own action
spaces, the tokens lying on the recipe cards left of it with the unused markers below them and on
the activity cards right of it, and freezer board), a hand reaches over each physical board while
it changes, and only what the pipeline commits reaches the table.  ``--camera scenes-<level>`` draws
the same table with the harder renderer (vision/scenes.py: printed art, a tilted camera through a
lens, the daylight changed since calibration, glare and shadows of the level; the pipeline gets the
renderer's own lens).  The people move the tokens they really hold, not the record's: a second
physical-first table gets every reading as the tokens lie (the group's own record, what the simulated
readings give), and each move, lay-out and clean-up is made on its boards, so a token the camera
misread stays what it is on the table and shows up where it really goes (a dining-out meat read as
fats lands in the diner's protein row).  A game in which the table stops following the group (a move
not applied) is counted as stalled, with why, and its scores are not compared; readings the table
refuses and slots the layouts do not have are counted, and a table whose calibration the camera
refuses is not played.
"""
from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.games.base import RuleError  # noqa: E402
from server.games.food_for_thought import inference, physical, rounds  # noqa: E402
from server.games.food_for_thought.boards import diet_slots, implied  # noqa: E402
from server.journal import Journal  # noqa: E402
from server.table import Table  # noqa: E402
from tests.support.food_for_thought import every_slot  # noqa: E402
from vision import scenes  # noqa: E402
from vision import synthetic as syn  # noqa: E402
from vision.layout import sample_layouts  # noqa: E402
from vision.lens import Lens  # noqa: E402
from vision.pipeline import Pipeline, Settings  # noqa: E402

NAMES = ["Ann", "Ben", "Cat", "Dan"]
#: The ``dice`` option's values, one per game in turn (see :func:`dice_of`).
DICE = ("camera", "physical", "digital")
#: How often a cook or work out that completes a card is made by laying its food on it and tapping it again.
SECOND_TAP = 0.5


def dice_of(players: int, seed: int) -> str:
    """The ``dice`` option of the game of ``players`` and ``seed``: each in turn, so the 3 games of a player
    count and the 4 player counts of one seed use all three."""
    return DICE[(seed + players) % len(DICE)]
#: Slots per main board action space the camera watches.
SPACE_SLOTS = 10


class CameraTable:
    """The synthetic table the group's tokens lie on, and the calibrated camera pipeline watching it.

    :meth:`show` is one of the game's boards changed by hand (its slots may lie on more than one
    physical board: a diet board's freezer and thaw spaces are on the freezer board): a hand over each
    physical board that changes, then the picture still until the pipeline commits it."""

    #: Still frames looked at after a change before giving up on a commit.
    PATIENCE = 40

    def __init__(self, players: int, seed: int, level: str = "easy"):
        every = sample_layouts()
        names = ["main", "shop"] + [f"{kind}-{seat}" for seat in range(1, players + 1) for kind in ("diet", "freezer")]
        self.layouts = {name: every[name] for name in names}        # the shipped layouts, as they are
        table = syn.table_scene(self.layouts, seed, tokens={}, hard=level == "hard")   # hard: blur, noise, JPEG
        if level == "easy":
            table.noise = 1.5                                                        # (the live simulation's)
        if level.startswith("scenes-"):        # the harder renderer's table, its boards where the synthetic one lays them
            self.draw, shot = scenes, scenes.shot(self.layouts, level[len("scenes-"):], seed, tokens={})
            boards = [scenes.Board(p.layout, p.x, p.y, p.angle, off_centre_mm=shot.boards[0].off_centre_mm)
                      for p in table.boards]
            camera = scenes._fit_focal(replace(shot.camera, x=table.camera.x, y=table.camera.y), boards)
            self.scene = replace(shot, boards=boards, camera=camera)
            self.pipe = Pipeline(self.layouts, settings=Settings(still_frames=6),
                                 lens=Lens(*self.scene.lens(), size=(camera.width, camera.height)))
            syn.calibrate(self.pipe, self.scene, picture=lambda tokens, n: scenes.render(
                scenes.calibration_shot(self.scene, tokens, n))[0])
        else:
            self.draw, self.scene = syn, table
            self.pipe = Pipeline(self.layouts, settings=Settings(still_frames=6))
            syn.calibrate(self.pipe, self.scene)
        self.laid = {b: {} for b in self.layouts}
        self.frame = 0
        self.frames = 0               # frames the pipeline looked at
        self.beyond: Counter = Counter()   # slots the record fills that no layout shows, by area
        self.misread: Counter = Counter()  # slots the pipeline holds otherwise than they lie after a change

    def boards(self) -> set[str]:
        """The game's boards the camera reads."""
        return {layout.target for layout in self.layouts.values()}

    def _frame(self, hands=()):
        self.frame += 1
        return self.draw.render(self.draw.with_tokens(self.scene, self.laid, self.frame, list(hands)))[0]

    def first_look(self, boards: dict[str, dict]) -> list[dict]:
        """The table as it is before anyone acts: every board laid, the camera's first commits."""
        for board, slots in boards.items():
            self._lay(board, slots)
        img, commits = self._frame(), []
        for _ in range(self.PATIENCE // 2):
            commits += self.pipe.process(img)
        self.frames += self.PATIENCE // 2
        return commits

    def _lay(self, board: str, slots: dict) -> list[str]:
        """Lay the game board's tokens on the physical boards that show its slots; those that changed."""
        changed, shown = [], set()
        for name, layout in self.layouts.items():
            if layout.target == board:
                ids = {s.id for s in layout.slots}
                shown |= ids
                laid = {s: t for s, t in slots.items() if t and s in ids}
                if laid != self.laid[name]:
                    self.laid[name] = laid
                    changed.append(name)
        self.beyond.update(s.rsplit(".", 1)[0] for s, t in slots.items() if t and s not in shown)
        return changed

    def show(self, board: str, slots: dict) -> list[dict]:
        """``board`` now holds ``slots`` (absent or null: empty): the pipeline's commits meanwhile."""
        return [c for name in self._lay(board, slots) for c in self._settle(name)]

    def nudge(self, board: str) -> list[dict]:
        """Someone straightens the tokens on ``board`` (each lies a little otherwise): the commits."""
        commits = []
        for place in self.scene.boards:
            if place.layout.target == board:
                place.seed += 1
                commits += self._settle(place.layout.board)
        return commits

    def _settle(self, name: str) -> list[dict]:
        """A hand over the physical board ``name``, then the picture still until the pipeline commits it."""
        place = next(p for p in self.scene.boards if p.layout.board == name)
        w, h = place.layout.size_mm
        tip = place.pose() @ (w / 2, h / 2, 1)
        hand = self.draw.Hand(tip=(float(tip[0]), float(tip[1])), origin=(float(tip[0]), 1400.0 if tip[1] > 300 else -500.0))
        ids = {s.id for s in place.layout.slots}
        commits = []
        for img in [self._frame([hand])] * 2 + [self._frame()]:
            commits += self.pipe.process(img)
            self.frames += 1
        for _ in range(self.PATIENCE):
            got = self.pipe.process(img)
            self.frames += 1
            commits += got
            if any(ids & set(c["board"]["slots"]) for c in got):
                break
        seen = self.pipe.boards[name].tracker.committed or {}
        lying = {**dict.fromkeys(seen), **self.laid[name]}
        self.misread.update(f"{name.split('-')[0]}: {t} read as {seen.get(s)}" for s, t in lying.items()
                            if seen.get(s) != t)
        return commits


class Group:
    """The people at the table: their decisions, and the inputs each mode gets from them."""

    def __init__(self, players: int, seed: int, camera: str | None = None, dice: str | None = None):
        self.rng = random.Random(seed)
        self.players, self.seed = players, seed
        self.dice = dice or dice_of(players, seed)
        self.table = Table(Journal(":memory:"))
        self.camera = CameraTable(players, seed, camera) if camera else None
        self._must(self.table.handle(self._new_game("physical")))
        # what the group really holds: in camera mode a second physical-first table that gets every reading
        # as the tokens lie (not as the camera reads them); the people's moves are made on its boards
        self.truth = Table(Journal(":memory:")) if camera else self.table
        if camera:
            # (the table's own roll, dice digital, is the TV's: the group's record is told it as a roll entered)
            self._must(self.truth.handle(self._new_game("physical", "physical" if self.dice == "digital" else None)))
        self.refused = Counter()         # camera commits the table refused (camera mode), by message
        self.straightened = 0            # times the people straightened tokens the camera misread (camera mode)
        self.unannounced = 0             # times they straightened their move's pieces as the TV announced nothing
        self.dining_misread = 0          # dining-out lay-outs the record took with other foods than were laid
        if self.camera:
            self._commit(self.camera.first_look({b: implied(self.real, b) for b in self.camera.boards()}))
        self.guided: list[dict] = [self._new_game("guided")]
        self.phone = Counter()           # phone or host inputs of the physical table, by action type
        self.actions = Counter()         # actions taken, by type
        self.cases = Counter()           # ambiguity and illegal moves made and resolved
        self.second_taps = Counter()     # cards completed by a second tap with their food on them, by action type
        self.rolls = 0                   # rolls tapped on the shopper's phone (dice: physical), among the phone inputs
        self.tap_rng = random.Random(f"{seed}:second taps")     # (its own: the group's other choices stay the same)
        self.orders = Counter()          # the orders the boards of a move were read in
        self.flashes = 0                 # legal moves listed to put back until their last board was read
        self.extended = 0                # applied actions a board read later showed more of (taken as one)
        self.table.listeners.append(self._heard)
        self.wrong: Counter = Counter()  # moves recorded otherwise than the group made them, by what differs
        self.wild = 0                    # wild market foods taken (their food is named by the camera alone)
        self.specials = 0                # special orders made (likewise)
        self.bag = [f for f in sorted(self.table.state["foods"]) for _ in range(10)]
        self.rng.shuffle(self.bag)
        self.oos = sorted(self.real["cards"]["out_of_stock"])       # the group's shuffled decks
        self.rng.shuffle(self.oos)
        self.stands = self.rng.sample(sorted(self.real["cards"]["market"]), inference.rules.TWO_PLAYER_MARKET_CARDS)

    def _new_game(self, mode: str, dice: str | None = None) -> dict:
        return {"new_game": {"game": "food-for-thought", "players": NAMES[:self.players], "seed": self.seed,
                             "options": {"data": "sample", "draws": "physical", "mode": mode,
                                         "dice": dice or (self.dice if mode == "physical" else "physical"),
                                         "freezer": True, "food_allergy": True}}}

    @staticmethod
    def _must(outcome):
        assert outcome.accepted, outcome.error.as_dict()
        return outcome

    @property
    def state(self) -> dict:
        """The physical-first table's record (camera mode: as the camera's readings made it)."""
        return self.table.state

    @property
    def real(self) -> dict:
        """The table as the group really holds it (camera mode: the record of the readings as the tokens lie)."""
        return self.truth.state

    # ----- what reaches each table
    def both(self, inp: dict) -> None:
        """An input both modes get the same way (a tap, a main board reading; in camera mode the
        reading reaches the physical table through the camera)."""
        if self.camera and "board" in inp:
            board = inp["board"]
            self._commit(self.camera.show(board["board"], {**self.camera.laid[board["board"]], **board["slots"]}))
        else:
            self._must(self.table.handle(inp))
        if self.truth is not self.table:
            self._must(self.truth.handle(inp))
        self.guided.append(inp)

    def _heard(self, outcome, _inp: dict) -> None:
        """Count the physical-first table's actions worked out again as one with a board read later."""
        self.extended += sum(e["kind"] == "inferred" and "sees more of" in e["text"] for e in outcome.events)

    def _commit(self, commits: list[dict]) -> None:
        """The camera's commits onto the physical table (as the camera plugin puts them: a refused one
        is counted, and the table goes on with what it saw before)."""
        for inp in commits:
            outcome = self.table.handle(inp)
            if not outcome.accepted:
                self.refused[outcome.error.message] += 1

    def phone_input(self, kind: str, inp: dict) -> None:
        """A phone or host input to the physical-first table (a host's also to the group's own record)."""
        self.phone[kind] += 1
        self._must(self.table.handle(inp))
        if self.truth is not self.table and "host" in inp:
            self._must(self.truth.handle(inp))

    def read(self, board: str, slots: dict) -> None:
        """The camera's reading of ``board``: every slot it watches, empty ones as null (in camera
        mode: the board's tokens laid so, and what the pipeline commits; the group's record gets the
        reading as they lie)."""
        if self.camera:
            self._commit(self.camera.show(board, slots))
        state = self.truth.state
        if board == "main":
            every = {f"action.{space}.{n}": None for space in physical.MAIN_SPACES for n in range(1, SPACE_SLOTS + 1)}
        elif board == "shop":
            every = {f"shop.{space}": None for space in state["shopping"]}
        else:
            every = every_slot(state, board)
        held = state["boards"].get(board, {}).get("seen", {})
        body = {**every, **{s: None for s in held}, **slots}
        self._must(self.truth.handle({"board": {"board": board, "slots": body}}))

    def tap_only(self, inp: dict) -> None:
        """A card tap the physical-first tables get and the guided replay does not (a card tapped again)."""
        self._must(self.table.handle(inp))
        if self.truth is not self.table:
            self._must(self.truth.handle(inp))

    def _answer_truth(self, seat: int, body: dict) -> None:
        """Camera mode: the group's own record asks what a simulated reading's table would; it gets the move."""
        asked = self.real.get("question")
        if self.truth is not self.table and asked:
            choice = next(i for i, b in enumerate(asked["bodies"], 1) if _same(b, body))
            self._must(self.truth.handle({"seat": {"seat": seat, "action": "answer", "choice": choice}}))

    def lay_out_round(self) -> None:
        """A round's out-of-stock cards revealed (1-2 players: the top two of the group's deck, tapped) and
        their spaces covered, and the dining-out tokens laid out from the bag."""
        for card in [self.oos.pop() for _ in range(2)] if self.players <= 2 else []:
            self.both({"tap": {"reader": "center", "card": physical.card_id("out_of_stock", card)}})
        self.read("shop", implied(self.real, "shop"))
        main = self.real["main"]
        if self.players == 1:
            return
        twins = self.real["round"] == 2 and self.players >= 3        # two buffet rows alike: a question
        slots = {"pizza.1": main["pizza_fixed"]}
        for n in range(2, main["pizza_spaces"] + 1):
            slots[f"pizza.{n}"] = self.bag.pop()
        first = [self.bag.pop() for _ in range(main["buffet_row_spaces"])]
        for r in range(1, main["buffet_rows"] + 1):
            row = first if (r == 1 or twins) else [self.bag.pop() for _ in range(main["buffet_row_spaces"])]
            slots.update({f"buffet.{r}.{n}": f for n, f in enumerate(row, 1)})
        seen = {s: t for state in (self.state, self.real) for s, t in state["boards"].get("main", {}).get("seen", {}).items()}
        self.both({"board": {"board": "main", "slots": {**{s: None for s in seen if s.startswith(("pizza", "buffet"))},
                                                        **slots}}})
        self._straighten()
        recorded = Counter(self.state["pizza"]) + Counter(f for row in self.state["buffet"] for f in row)
        if not self.state.get("dining_unsure") and recorded != Counter(slots.values()):
            self.dining_misread += 1    # a possible lay-out read wrongly: the record holds other foods than lie there

    # ----- a turn
    def _legal(self, seat: int, body: dict) -> bool:
        trial = copy.deepcopy(self.real)
        try:
            if body.get("tap"):
                physical.tap(trial, {"reader": f"seat-{seat}", "card": body["tap"]})
            inference.play(trial, seat, {k: v for k, v in body.items() if k != "tap"})
        except RuleError:
            return False
        return True

    def options(self, seat: int) -> list[dict]:
        """The moves the group would consider (each legal), the useful ones more than once."""
        s, p, rng = self.real, self.real["seats"][str(seat)], self.rng
        kitchen = [(f, c) for c, col in enumerate(p["kitchen"], 1) for f in col]
        out = []
        fits = self._cook_places(p, kitchen)
        if fits:
            out += [{"action": "cook", "place": fits}] * 3
        twin = None if self.cases["ambiguous Cook"] else self._twin_cook(seat, p, kitchen)
        if twin:                          # a token that fits two of their recipes: the table must ask
            out += [twin] * 8
        if p["freezer"] and len(p["thaw"]) < 2:
            out.append({"action": "cook", "thaw": [rng.choice(p["freezer"])]})
        if len(p["recipes"]) < 2 and physical.takeable(s, "recipes"):
            out.append({"action": "cook", "tap": physical.card_id("recipes", self._pick_recipe(p))})
        if len(p["activities"]) < 2 and physical.takeable(s, "activities"):
            out.append({"action": "workout",
                        "tap": physical.card_id("activities", rng.choice(physical.takeable(s, "activities")))})
        out += [self._workout(seat, p)] * 2
        if not self.cases["ambiguous Work out"]:
            out += [self._twin_workout(seat, p)] * 8    # a body token that fits two of their activities: the table asks
        out.append({"action": "pizza"})
        rows = [r for r, row in enumerate(s["buffet"], 1) if row]
        if rows:
            twins = len({tuple(s["buffet"][r - 1]) for r in rows}) < len(rows)    # the group likes a full buffet
            out += [{"action": "buffet", "row": rng.choice(rows)}] * (4 if twins else 1)
        if kitchen:
            f, c = rng.choice(kitchen)
            out.append({"action": "snack", "food": f, "column": c})
        for card in s["market_up"]:
            out.append(self._market(p, card))
        out += [{"action": "shop"}] * 2
        return [o for o in out if o and (o["action"] == "shop" and actions_space_open(s, seat) or
                                         o["action"] != "shop" and self._legal(seat, o))]

    def _market(self, p: dict, card: str) -> dict:
        stand = self.real["cards"]["market"][card]
        foods = sorted(self.real["foods"])
        wild = [self.rng.choice(foods) for f in stand["foods"] if f == "wild"]
        body = {"action": "market", "card": card, "wild": wild}
        gets = [f for f in stand["foods"] if f != "wild"] + wild
        freezable = [f for f in gets if self.real["foods"][f]["freezable"]]
        if stand["to"] == "kitchen" and freezable and len(p["freezer"]) < 4 and self.real["options"]["freezer"] \
                and self.rng.random() < 0.5:
            body["freeze"] = freezable[:1]
        return body

    def _workout(self, seat: int, p: dict) -> dict | None:
        """Up to three body tokens onto the player's activities, each checked against the rules."""
        place = []
        for g, foods in p["body"].items():
            for n, f in enumerate(foods, 1):
                for aid in p["activities"]:
                    item = {"activity": aid, "food": f, "group": g, "position": n}
                    if f and len(place) < 3 and self._legal(seat, {"action": "workout", "place": place + [item]}):
                        place.append(item)
                        break
        return {"action": "workout", "place": place} if place else None

    def _twin_workout(self, seat: int, p: dict) -> dict | None:
        """A work out of one body token that two of the player's activities could take."""
        for g, foods in p["body"].items():
            for n, f in enumerate(foods, 1):
                items = [{"activity": aid, "food": f, "group": g, "position": n} for aid in p["activities"] if f]
                fits = [item for item in items if self._legal(seat, {"action": "workout", "place": [item]})]
                if len(fits) >= 2:
                    return {"action": "workout", "place": fits[:1]}
        return None

    def _open_needs(self, p: dict, rid: str) -> list[str]:
        needs = self.real["cards"]["recipes"][rid]["needs"]
        return [n for n, got in zip(needs, p["recipe_tokens"][rid]) if got is None]

    def _pick_recipe(self, p: dict) -> str:
        """The recipe card the player takes; until a token has fitted two of someone's recipes, one that
        needs a food their other recipe needs too."""
        pool = physical.takeable(self.real, "recipes")
        held = {n for rid in p["recipes"] for n in self._open_needs(p, rid)}
        shared = [r for r in pool if set(self.real["cards"]["recipes"][r]["needs"]) & (held | {"wild"})]
        return self.rng.choice(shared if held and shared and not self.cases["ambiguous Cook"] else pool)

    def _twin_cook(self, seat: int, p: dict, kitchen: list) -> dict | None:
        """A cook of one kitchen token that two of the player's recipes could take (completing neither)."""
        for f, c in kitchen:
            fits = [rid for rid in p["recipes"] if len(self._open_needs(p, rid)) >= 2
                    and any(n == "wild" or f in n.split("|") for n in self._open_needs(p, rid))]
            if len(fits) < 2:
                continue
            body = {"action": "cook", "place": [{"recipe": fits[0], "food": f, "column": c}]}
            if self._legal(seat, body):
                return body
        return None

    def _cook_places(self, p: dict, kitchen: list) -> list[dict]:
        trial = copy.deepcopy(p)
        places = []
        sources = [(f, {"column": c}) for f, c in kitchen] + [(f, {"from": "thaw"}) for f in p["thaw"]]
        for f, where in sources:
            for rid in trial["recipes"]:
                needs, got = self.real["cards"]["recipes"][rid]["needs"], trial["recipe_tokens"][rid]
                space = next((i for i, n in enumerate(needs) if got[i] is None and (n == "wild" or f in n.split("|"))),
                             None)
                if space is not None and len(places) < 3:
                    got[space] = f
                    places.append({"recipe": rid, "food": f, **where})
                    break
        return places

    def turn(self) -> None:
        seat = self.state["turn"]
        extra = self.state["phase"] == "pizza_extra"
        options = [o for o in self.options(seat) if not (extra and o["action"] == "pizza")]
        if extra and self.rng.random() < 0.5 or not options and extra:
            self.skip_extra(seat)
            return
        last = self.real["seats"][str(seat)]["actions_left"] == 1     # nothing to set aside: an empty cook
        never = not self.actions["pass"] and self.real["round"] == inference.rules.ROUNDS
        tired = not extra and not last and (self.rng.random() < 0.03 or never)   # now and then someone passes
        body = self.rng.choice(options) if options and not tired else {"action": "cook" if last else "pass"}
        kind = "pizza extra" if extra else body["action"]
        left = self.state["seats"][str(seat)]["actions_left"]
        tap = body.pop("tap", None)
        if tap:
            self.both({"tap": {"reader": f"seat-{seat}", "card": tap}})
        if body["action"] == "shop":
            body = self._shopping(seat, None if self.dice == "camera" else self._roll(seat, kind))
        if not extra and self._insisted(seat, body):
            return
        self.actions[kind] += 1
        self.wild += len(body.get("wild", []))
        self.specials += sum("special" in item for item in body.get("items", []))
        expected = copy.deepcopy(self.real)
        inference.play(expected, seat, body)
        misrecorded = set(_differs(self.state, self.real))      # camera mode: what the record already had wrong
        confirm = self._as_laid(body)
        if not extra:
            self._illegal_first(seat, body)
        self._move_tokens(seat, body, kind)
        self._unheard(seat, left)
        if self.state.get("question"):
            self._answer(seat, kind, confirm)
        self._answer_truth(seat, body)
        applied = self.state["turn"] != seat or self.state["phase"] not in ("actions", "pizza_extra") \
            or self.state["seats"][str(seat)]["actions_left"] < left
        if applied:                         # (a move not applied stalls the game: counted as such, not here)
            self._check_record(expected, misrecorded)
        tidying = self.state["phase"] == "round_end"        # its list is the clean-up still to do
        assert (tidying or not self.state["put_back"]) and applied, \
            f"{body} was not applied: {self.state['put_back']}" + (
                f"; dining out not taken: {self.state['dining_unsure']['problems']}" if self.state.get("dining_unsure") else "")
        self.guided += self._guided_inputs(seat, body)

    def _unheard(self, seat: int, left: int) -> None:
        """Camera mode: the boards are still, yet the table has not taken the move and neither asks nor lists
        anything (a piece the camera read unsure, where the table waits for it; for a marker the TV's headline
        says it cannot see where the marker went): the people straighten the pieces of the main board and the
        player's diet board, up to three times, as a group does."""
        for _ in range(3 if self.camera else 0):
            s = self.state
            if s["put_back"] or s.get("question") or s["turn"] != seat or s["phase"] not in ("actions", "pizza_extra") \
                    or s["seats"][str(seat)]["actions_left"] < left:
                return
            self.unannounced += 1
            for board in ("main", self._diet(seat)):
                self._commit(self.camera.nudge(board))

    def _as_laid(self, body: dict) -> dict:
        """``body`` as the group would confirm it: a dining out whose tokens the record holds otherwise than
        they lie (before the move) names the foods that really lie there (the group looks at what it eats)."""
        if body["action"] not in ("pizza", "buffet"):
            return body
        def where(state):
            return state["pizza"] if body["action"] == "pizza" else state["buffet"][body["row"] - 1]
        real = where(self.real)
        return {**body, "laid": real} if sorted(where(self.state)) != sorted(real) else body

    def _answer(self, seat: int, kind: str, body: dict) -> None:
        """The active player answers the table's question with their move.  Camera mode: when no option
        is their move (a diet board token misread), the people straighten the pieces of the main board and
        their diet board and the table asks again, up to three times."""
        for _ in range(3 if self.camera else 0):
            asked = self.state.get("question")
            if not asked or any(_same(b, body) for b in asked["bodies"]):
                break
            self.straightened += 1
            for board in ("main", self._diet(seat)):
                self._commit(self.camera.nudge(board))
        if not self.state.get("question"):
            return                          # read again, the move was applied
        options = self.state["question"]["options"]
        self.cases[("confirmed: a dining-out lay-out the camera misread" if "laid" in body else
                    "confirmed: an extra action that moved nothing") if len(options) == 1 else
                   "ambiguous " + options[0].split(":")[0].split(",")[0]] += 1
        choice = next(i for i, b in enumerate(self.state["question"]["bodies"], 1) if _same(b, body))
        self.phone_input(kind, {"seat": {"seat": seat, "action": "answer", "choice": choice}})

    def _check_record(self, expected: dict, already: set = frozenset()) -> None:
        """Count the move if the table recorded it otherwise than ``expected``, by the parts that differ
        (those in which the record already differed from the table before the move aside)."""
        differs = [k for k in _differs(self.state, expected) if k not in already]
        if differs:
            self.wrong[", ".join(differs)] += 1

    def _insisted(self, seat: int, body: dict) -> bool:
        """Once a game, after a two-token snack was refused and put right, the group insists on another
        (a house rule): the table lists it to put back, and the host accepts the camera's view of the
        player's board (one host input).  The guided replay gets the host's correction of the second
        token, then the snack (the other way round a game's last snack would leave the correction for
        after the receipts)."""
        case = "host accepted: a snack of two tokens"
        p = self.real["seats"][str(seat)]
        if body["action"] != "snack" or self.cases[case] or not self.cases["illegal snack of two tokens"] \
                or sum(map(len, p["kitchen"])) < 2:
            return False
        trial = copy.deepcopy(self.real)
        inference.play(trial, seat, body)
        tp = trial["seats"][str(seat)]
        column = next(c for c, col in enumerate(tp["kitchen"], 1) if col)
        food = tp["kitchen"][column - 1][0]
        second = copy.deepcopy(self.real["seats"][str(seat)])         # the guided record: that token moved first
        for p_ in (tp, second):
            inference.actions.tokens.take_from_kitchen(trial, p_, food, column)
            inference.actions.tokens.to_body(trial, p_, food)
        self._show({b: implied(trial, b) for b in ("main", "shop", self._diet(seat))}, legal=False)
        assert self.state["put_back"] and self.state["turn"] == seat, f"{case}: not listed to put back"
        self.actions["snack"] += 1
        self.phone_input("snack", {"host": {"action": "accept_board", "board": self._diet(seat)}})
        self.cases[case] += 1
        self._check_record(trial)
        before, after = diet_slots(p), diet_slots(second)
        fix = {s: after.get(s) for s in {*before, *after} if before.get(s) != after.get(s)}
        self.guided += [{"host": {"action": "correct_board", "board": self._diet(seat), "slots": fix}}] \
            + self._guided_inputs(seat, body)
        return True

    def skip_extra(self, seat: int) -> None:
        """The Pizza To Go player gives up the extra action: the marker goes back to their board."""
        self.actions["pizza extra"] += 1
        board = f"diet-{seat}"
        self.read(board, {**implied(self.real, board), "markers.1": "marker"})
        assert self.state["phase"] != "pizza_extra", "the marker taken back was not seen as a skip"
        self.guided.append({"seat": {"seat": seat, "action": "skip"}})

    def _roll(self, seat: int, kind: str) -> list[int]:
        """Dice physical or digital: the shopper's marker goes onto the shopping space (the main board and
        their diet board read), then the roll is known: tapped on their phone (one phone input) or rolled
        by the table when it saw the marker land."""
        trial = copy.deepcopy(self.real)
        inference.play(trial, seat, {"action": "shop", "dice": [1, 1], "items": []})
        for board in ("main", self._diet(seat)):
            self.read(board, implied(trial, board))
        physical_dice = self.dice == "physical"
        for _ in range(3 if self.camera else 0):      # the table has not seen the marker land: straightened
            if inference.roll_awaited(self.state, seat) if physical_dice else inference.shopping_dice(self.state, seat):
                break
            self.unannounced += 1
            for board in ("main", self._diet(seat)):
                self._commit(self.camera.nudge(board))
        roll = {"seat": {"seat": seat, "action": "roll"}}
        if physical_dice:
            roll["seat"]["dice"] = sorted([self.rng.randint(1, 6), self.rng.randint(1, 6)])
            self.phone[kind] += 1
            self.rolls += 1
            self.tap_only(roll)
            return roll["seat"]["dice"]
        dice = inference.shopping_dice(self.state, seat)
        assert dice, "the table did not roll when the shopper's marker landed on the shopping space"
        if self.truth is not self.table:              # the group's record learns the roll from the TV
            self._must(self.truth.handle({"seat": {**roll["seat"], "dice": dice}}))
        return dice

    def _shopping(self, seat: int, dice: list[int] | None) -> dict:
        dice = dice or sorted([self.rng.randint(1, 6), self.rng.randint(1, 6)])
        open_ = [sp for sp in sorted(self.real["shopping"]) if sp not in self.real["covered"]]
        sale = [sp for sp in open_ if int(sp[0]) in dice or int(sp[2]) in dice]
        picked = self.rng.sample(sale, min(len(sale), self.rng.randint(1, 3)))
        if not self.specials:              # until a special order is made: the scarcest foods first, so one runs out
            left = Counter(self.real["shopping"][sp] for sp in open_)
            picked = sorted(sale, key=lambda sp: (left[self.real["shopping"][sp]], sp))[:len(picked)]
        items = [{"space": sp} for sp in picked]
        p = self.real["seats"][str(seat)]
        frozen = [self.real["shopping"][i["space"]] for i in items
                  if self.real["foods"][self.real["shopping"][i["space"]]]["freezable"]]
        freeze = frozen[:max(0, 4 - len(p["freezer"]))] if self.rng.random() < 0.5 and self.real["options"]["freezer"] \
            else []
        body = {"action": "shop", "dice": dice, "items": items, **({"freeze": freeze} if freeze else {})}
        return self._special_order(seat, body) or body

    def _special_order(self, seat: int, body: dict) -> dict | None:
        """``body`` with a special order ($5 from the supply) of a food the shopping list no longer offers, as
        many of its purchases kept as the budget allows: a food the player's recipes still need and they hold
        nowhere, or until the game's first special order any such food; None when none is wanted or the rules
        refuse it."""
        s, p = self.real, self.real["seats"][str(seat)]
        offered = {s["shopping"][sp] for sp in s["shopping"] if sp not in s["covered"]}
        held = {f for col in p["kitchen"] for f in col} | set(p["thaw"]) | set(p["freezer"])
        needs = [n.split("|") for rid in p["recipes"] for n in self._open_needs(p, rid) if n != "wild"]
        wanted = sorted({foods[0] for foods in needs if not set(foods) & (offered | held) and foods[0] in s["foods"]})
        if not wanted and not self.specials:       # the group seeks the case once a game: any food gone from the list
            wanted = sorted(set(s["foods"]) - offered)
        for food in wanted[:1]:
            for keep in range(len(body["items"]), -1, -1):
                items = body["items"][:keep]
                bought = [s["shopping"][i["space"]] for i in items]
                freeze = [f for f in body.get("freeze", []) if f in bought]
                order = {**{k: v for k, v in body.items() if k != "freeze"}, "items": items + [{"special": food}],
                         **({"freeze": freeze} if freeze else {})}
                if self._legal(seat, order):
                    return order
        return None

    def _after(self, seat: int, body: dict) -> dict:
        """The group's record after ``body``, played on a copy of it."""
        trial = copy.deepcopy(self.real)
        inference.play(trial, seat, body)
        return trial

    def _boards_after(self, seat: int, body: dict, trial: dict | None = None) -> dict:
        trial = trial or self._after(seat, body)
        return {b: implied(trial, b) for b in ("main", "shop", f"diet-{seat}")}

    def _move_tokens(self, seat: int, body: dict, kind: str) -> None:
        """Tokens and the marker moved; each board whose look changed is read once its hands are off.  Now
        and then a card the move completes gets its food laid on it and is tapped again first."""
        trial = self._after(seat, body)
        boards = self._boards_after(seat, body, trial)
        if body["action"] in ("cook", "workout") and self.tap_rng.random() < SECOND_TAP:
            self._second_tap(seat, body, kind, trial)
        self._show(boards)

    def _second_tap(self, seat: int, body: dict, kind: str, trial: dict) -> None:
        """The move laid out with the completed card's food still on it (the table must wait, listing nothing),
        then the card tapped again on the player's reader: the table completes it (a card tap, no phone input);
        ``trial``: the group's record after the move (:meth:`_after`)."""
        lying = inference.food_on_card(self.real, trial, seat, body)
        if lying is None:
            return
        before, after = self.real["seats"][str(seat)], trial["seats"][str(seat)]
        card_kind, card = next((k, c) for k in ("recipes", "activities") for c in after[f"{k}_done"]
                               if c not in before[f"{k}_done"])
        self._show({**{b: implied(trial, b) for b in ("main", "shop")}, self._diet(seat): lying})
        assert not self.state["put_back"] or self.state["phase"] == "round_end", \
            f"a full card waiting for its tap was listed to put back: {self.state['put_back']}"
        self.tap_only({"tap": {"reader": f"seat-{seat}", "card": physical.card_id(card_kind, card)}})
        assert card in self.state["seats"][str(seat)][f"{card_kind}_done"], f"the second tap did not complete {card}"
        self.second_taps[kind] += 1

    def _show(self, boards: dict, legal: bool = True) -> None:
        """The camera's readings of the boards that look different now, in a shuffled order: each
        board is read when it lies still, and nothing says which one people finish first."""
        changed = [b for b in sorted(boards) if self._looks_different(b, boards[b])]
        self.rng.shuffle(changed)
        self.orders[" ".join(b.split("-")[0] for b in changed)] += 1
        clean = legal and not self.state["put_back"]    # (after a wrong move the list stays until put right)
        for n, board in enumerate(changed, 1):
            self.read(board, boards[board])
            if clean and n < len(changed) and self.state["put_back"] and self.state["phase"] != "round_end":
                self.flashes += 1           # listed to put back while the move's other boards were still unread
                clean = False
        if legal and self.state["phase"] in ("actions", "pizza_extra"):
            self._straighten()

    def _straighten(self) -> None:
        """Camera mode: the TV lists slots of a legal move (the camera misread a token), or the dining-out
        spaces the camera could not read: the people straighten the tokens on each board listed and the
        camera looks again, up to three times."""
        for _ in range(3 if self.camera else 0):
            listed = {d["board"] for d in self.state["put_back"]} & self.camera.boards()
            listed |= {"main"} if self.state.get("dining_unsure") else set()
            if not listed:
                return
            self.straightened += 1
            for board in sorted(listed):
                self._commit(self.camera.nudge(board))

    def _looks_different(self, board: str, slots: dict) -> bool:
        info = self.state["boards"].get(board)
        return info is None or info["seen"] != {s: t for s, t in slots.items() if t is not None}

    def _illegal_first(self, seat: int, body: dict) -> None:
        """Now and then the group first does the move wrong: each kind of wrong move once a game, at
        its first chance, at most one a turn.  The table must apply nothing and list what to put back;
        the group then puts things right and makes its real move (read by ``turn``).  A shopping trip whose
        roll came after the marker went down (dice: physical or digital) has only the purchase to get wrong."""
        makers = (self._two_token_snack, self._second_snack, self._over_budget, self._taken_space,
                  self._third_market_visit, self._market_misplaced, self._workout_misfit, self._cook_misfit)
        if body["action"] == "shop" and self.dice != "camera":
            makers = (self._over_budget,)
        for make in makers:
            wrong = make(seat, body)
            if wrong:
                self._refused(seat, *wrong)
                return

    def _diet(self, seat: int) -> str:
        return f"diet-{seat}"

    def _two_token_snack(self, seat: int, body: dict):
        p = self.real["seats"][str(seat)]
        case = "illegal snack of two tokens"
        if body["action"] != "snack" or self.cases[case] or sum(map(len, p["kitchen"])) < 2:
            return None
        after = self._boards_after(seat, body)[self._diet(seat)]
        wrong = dict(after)
        wrong.pop(next(s for s in after if s.startswith("kitchen.")))     # a second token taken
        return case, {self._diet(seat): wrong}

    def _second_snack(self, seat: int, body: dict):
        p = self.real["seats"][str(seat)]
        case = "illegal second snack"
        if not p["snacks"] or not any(p["kitchen"]) or body["action"] == "snack" or self.cases[case]:
            return None
        trial = copy.deepcopy(self.real)
        trial["seats"][str(seat)]["snacks"] = 0
        col = next(c for c, column in enumerate(p["kitchen"], 1) if column)
        try:                                  # the snack the rules would allow if it were the first
            inference.play(trial, seat, {"action": "snack", "food": p["kitchen"][col - 1][0], "column": col})
        except RuleError:
            return None
        return case, {self._diet(seat): implied(trial, self._diet(seat))}

    def _over_budget(self, seat: int, body: dict):
        case = "illegal purchase over $6"
        if body["action"] != "shop" or self.cases[case]:
            return None
        open_ = [sp for sp in sorted(self.real["shopping"]) if sp not in self.real["covered"]
                 and int(sp[0]) not in body["dice"] and int(sp[2]) not in body["dice"]
                 and {"space": sp} not in body["items"]]
        if len(open_) < 3:
            return None
        over = {**body, "items": body["items"] + [{"space": sp} for sp in open_[:3]], "freeze": []}
        trial = copy.deepcopy(self.real)
        inference.actions._check_turn(trial, seat, "shop")
        return case, self._shop_boards(trial, seat, over)

    def _with_marker(self, seat: int, space: str) -> dict:
        """The main board as recorded, with one more of ``seat``'s markers on ``space``."""
        main = implied(self.real, "main")
        n = sum(1 for slot in main if slot.startswith(f"action.{space}."))
        return {**main, f"action.{space}.{n + 1}": physical.marker(seat)}

    def _marker_down(self, seat: int, diet: dict, space: str | None = None) -> dict:
        """``diet`` with one unused marker gone from the board (onto ``space`` of the board, if given)."""
        p = self.real["seats"][str(seat)]
        out = {s: t for s, t in diet.items() if s != f"markers.{p['actions_left']}"}
        if space:
            out[f"action.{space}.{p['diet_markers'][space] + 1}"] = "marker"
        return out

    def _taken_space(self, seat: int, body: dict):
        """A marker put on a main board space that is already taken (rulebook: an available, empty space)."""
        case = "illegal marker on a taken space"
        if self.cases[case]:
            return None
        s, n = self.real, self.players
        full = [sp for sp, taken in (("shop", len(s["spaces"]["shop"]) >= inference.rules.shop_spaces(n)),
                                     ("pizza", n > 1 and s["spaces"]["pizza"] is not None),
                                     ("buffet", n > 1 and None not in s["spaces"]["buffet"])) if taken]
        if not full:
            return None
        space = full[0]
        diet = self._marker_down(seat, implied(s, self._diet(seat)))
        return case, {"main": self._with_marker(seat, space), self._diet(seat): diet}, \
            lambda listed: any(d["board"] == "main" and d["slot"] == f"action.{space}" for d in listed)

    def _third_market_visit(self, seat: int, body: dict):
        """A third farmers market visit in one round (rulebook: twice per round at most)."""
        p = self.real["seats"][str(seat)]
        case = "illegal third market visit"
        if self.cases[case] or p["market_visits"] < inference.rules.MARKET_VISITS or not self.real["market_up"]:
            return None
        trial = copy.deepcopy(self.real)
        trial["seats"][str(seat)]["market_visits"] = 0
        try:
            inference.play(trial, seat, self._market(p, self.real["market_up"][0]))
        except RuleError:
            return None
        return case, {"main": self._with_marker(seat, "market"), self._diet(seat): implied(trial, self._diet(seat))}

    def _market_misplaced(self, seat: int, body: dict):
        """A stand's food put into the body when the stand sends it to the kitchen, or the other way round."""
        case = "illegal market food put where its stand does not send it"
        if body["action"] != "market" or self.cases[case]:
            return None
        cards = self.real["cards"]["market"]
        stand = cards[body["card"]]
        foods = [f for f in stand["foods"] if f != "wild"] + body["wild"]
        other = "body" if stand["to"] == "kitchen" else "kitchen"
        if any(_explains(cards[c]["foods"], foods) for c in self.real["market_up"] if cards[c]["to"] == other):
            return None                       # another open stand sends these foods there: a legal move
        trial = copy.deepcopy(self.real)
        tp = trial["seats"][str(seat)]
        tp["market_visits"] += 1
        tp["actions_left"] -= 1
        for f in foods:
            (inference.actions.tokens.to_body if other == "body" else inference.actions.tokens.to_kitchen)(trial, tp, f)
        return case, {"main": self._with_marker(seat, "market"), self._diet(seat): implied(trial, self._diet(seat))}

    def _nothing_drawn(self, seat: int) -> bool:
        drawn = self.real["drawn"]
        return drawn["seat"] != seat or not (drawn["recipes"] or drawn["activities"])

    def _misfit(self, seat: int, kind: str, tokens: list, legal) -> dict | None:
        """The diet board after one of ``tokens`` (slot, food) was put on the player's ``kind`` cards
        (recipes, activities) though none of them takes it (``legal(slot, food, card)``), the marker on
        that action's space; None when every token fits some card."""
        p = self.real["seats"][str(seat)]
        cards = p[kind]
        if not cards or not self._nothing_drawn(seat):
            return None
        for slot, food in tokens:
            if not any(legal(slot, food, card) for card in cards):
                diet = implied(self.real, self._diet(seat))
                on = "onrecipe" if kind == "recipes" else "onactivity"
                lying = sum(1 for s in diet if s.startswith(on + "."))
                rest = {s: t for s, t in diet.items() if s != slot}
                if slot.startswith("kitchen."):         # a kitchen column's tokens have no order
                    column = slot.rsplit(".", 1)[0]
                    left = [t for s, t in diet.items() if s.startswith(column + ".") and s != slot]
                    rest = {s: t for s, t in rest.items() if not s.startswith(column + ".")}
                    rest.update({f"{column}.{r}": t for r, t in enumerate(left, 1)})
                rest[f"{on}.{lying + 1}"] = food
                return self._marker_down(seat, rest, "cook" if kind == "recipes" else "workout")
        return None

    def _workout_misfit(self, seat: int, body: dict):
        """A body token put on an activity that does not take it (rulebook Work Out: matching spaces)."""
        case = "illegal work out: a token no activity of theirs takes"
        if self.cases[case]:
            return None
        p = self.real["seats"][str(seat)]
        body_tokens = [(f"body.{g}.{n}", f) for g, foods in p["body"].items() for n, f in enumerate(foods, 1) if f]

        def legal(slot, food, aid):
            _, group, n = slot.split(".")
            return self._legal(seat, {"action": "workout", "place": [
                {"activity": aid, "food": food, "group": group, "position": int(n)}]})
        diet = self._misfit(seat, "activities", body_tokens, legal)
        return (case, {self._diet(seat): diet}) if diet else None

    def _cook_misfit(self, seat: int, body: dict):
        """A kitchen token put on a recipe that does not take it (rulebook Recipes & Cook: matching spaces)."""
        case = "illegal cook: a token no recipe of theirs takes"
        if self.cases[case]:
            return None
        p = self.real["seats"][str(seat)]
        kitchen = [(f"kitchen.{c}.{r}", f) for c, col in enumerate(p["kitchen"], 1) for r, f in enumerate(col, 1)]

        def legal(slot, food, rid):
            return self._legal(seat, {"action": "cook", "place": [{"recipe": rid, "food": food,
                                                                   "column": int(slot.split(".")[1])}]})
        diet = self._misfit(seat, "recipes", kitchen, legal)
        return (case, {self._diet(seat): diet}) if diet else None

    def _refused(self, seat: int, case: str, boards: dict, listed=None) -> None:
        before = copy.deepcopy(self.state["seats"][str(seat)])
        self._show(boards, legal=False)
        self._unheard(seat, before["actions_left"])      # the table waits on a piece it cannot see: straightened
        assert self.state["pending"] is None and self.state["seats"][str(seat)] == before, f"{case} applied"
        assert self.state["put_back"], f"{case}: nothing listed to put back"
        assert listed is None or listed(self.state["put_back"]), f"{case}: {self.state['put_back']}"
        assert not self.state.get("question"), f"{case}: asked {self.state['question']}"
        self.cases[case] += 1

    def _shop_boards(self, trial: dict, seat: int, over: dict) -> dict:
        """The boards of a purchase the rules refuse: the spaces covered and the food in the kitchen."""
        p = trial["seats"][str(seat)]
        p["actions_left"] -= 1
        trial["spaces"]["shop"].append(seat)
        trial["dice"] = over["dice"]
        for item in over["items"]:
            if "space" in item:
                trial["covered"][item["space"]] = "shopping"
            inference.actions.tokens.to_kitchen(trial, p, item.get("special") or trial["shopping"][item["space"]])
        return {b: implied(trial, b) for b in ("main", "shop", f"diet-{seat}")}

    @staticmethod
    def _guided_inputs(seat: int, body: dict) -> list[dict]:
        if body["action"] == "shop":
            return [{"seat": {"seat": seat, "action": "shop", "dice": body["dice"]}},
                    {"seat": {"seat": seat, "action": "buy", "items": body["items"], "freeze": body.get("freeze", [])}}]
        return [{"seat": {"seat": seat, **body}}]

    # ----- rounds and the game
    def assistants(self) -> None:
        while self.state["phase"] == "assistants":
            seat = self.state["assistant_queue"][0]
            me = self.table.view(f"seat-{seat}")["me"]["assistant"]
            for choice in me["choices"][:me["pick"]]:
                self.both({"tap": {"reader": f"seat-{seat}", "card": physical.card_id("assistants", choice["id"])}})

    def play(self, rounds: int | None = None) -> None:
        """The game (or its first ``rounds`` rounds, up to the next round's start)."""
        if not self.camera:                  # the camera's first look: the main board's empty action spaces
            self.read("main", {})
        for card in self.stands if self.players == 2 else []:     # the 8 market stands drawn at set-up
            self.both({"tap": {"reader": "center", "card": physical.card_id("market", card)}})
        self.lay_out_round()
        while not self.state["over"] and self.state["round"] <= (rounds or inference.rules.ROUNDS):
            self.assistants()
            while self.state["phase"] in ("actions", "pizza_extra"):
                self.turn()
            assert self.state["phase"] == "round_end", self.state["phase"]
            self.clean_up()
            final = self.state["phase"] == "cleanup"     # the last round's end waits for end-of-round abilities
            if final:                                    # nobody uses one: the host goes on to the scoring
                self.phone_input("clean-up", {"host": {"action": "continue"}})
            if final or not self.state["over"]:
                self.guided.append({"host": {"action": "continue"}})
            if not self.state["over"] and self.state["round"] <= (rounds or inference.rules.ROUNDS):
                self.lay_out_round()

    def clean_up(self) -> None:
        """The people's clean-up steps (kitchens shifted, shopping tokens off, markers taken back); the
        table starts the next round by itself once the camera has seen every board tidy."""
        trial = copy.deepcopy(self.real)
        rounds.finish_cleanup(trial)
        boards = [f"diet-{p['seat']}" for p in self.real["seats"].values()] + ["shop", "main"]
        for board in boards:
            if self.state["phase"] != "round_end" and self.real["phase"] != "round_end":
                break                                 # the table saw enough to go on
            tidy = implied(trial, board)
            if board == "shop":                       # this round's shopping tokens off, nothing else moved
                tidy = {s: t for s, t in implied(self.real, board).items()
                        if self.real["covered"].get(s[5:]) != "shopping"}
            if board == "main":
                tidy = {s: t for s, t in implied(self.real, board).items() if not s.startswith("action.")}
            if trial["over"] and board.startswith("diet"):
                tidy = {s: t for s, t in tidy.items() if not s.startswith("markers.")}
            self.read(board, tidy)
        if self.state["phase"] == "round_end":
            self._straighten()
        assert self.state["phase"] != "round_end", f"the tidy table was not seen: {self.state['put_back']}"

    def guided_scores(self) -> dict:
        table = Table(Journal(":memory:"))
        for inp in self.guided:
            self._must(table.handle(inp))
        return {p["name"]: p["score"] for p in table.state["players"]}


def _explains(stand: list[str], foods: list[str]) -> bool:
    """Whether a stand showing ``stand`` (wild spaces included) gives exactly ``foods``."""
    fixed = Counter(f for f in stand if f != "wild")
    return len(stand) == len(foods) and not fixed - Counter(foods)


def actions_space_open(state: dict, seat: int) -> bool:
    return inference.actions.space_open(state, seat, "shop") is None


def _record(state: dict) -> dict:
    """What the table records, leaving out its log, what the camera saw and what it asks or lists, and
    the order of the tokens in the areas where it means nothing (a kitchen column, trash, freezer, thaw), the
    action the table keeps in case a later reading shows more of it (the record before it, as readings left it);
    and the options and the generator's draws (camera mode, dice digital: the group's own record is told
    the table's roll as one entered, see :class:`Group`)."""
    out = {k: v for k, v in state.items() if k not in ("log", "boards", "put_back", "question", "dining_unsure", "seats",
                                                     "rolled_for", "roll_wanted", "tap_wanted", "completing", "to_confirm",
                                                     "options", "rng", "last_move")}
    out["seats"] = {s: {**p, "kitchen": [sorted(c) for c in p["kitchen"]],
                        **{a: sorted(p[a]) for a in ("trash", "freezer", "thaw")}} for s, p in state["seats"].items()}
    return out


def _differs(a: dict, b: dict) -> list[str]:
    """The parts of the record (its keys; a player's as ``seat.<key>``) in which two states differ."""
    ra, rb = _record(a), _record(b)
    out = [k for k in sorted(set(ra) | set(rb)) if k != "seats" and ra.get(k) != rb.get(k)]
    for s in sorted(set(ra["seats"]) | set(rb["seats"])):
        pa, pb = ra["seats"].get(s, {}), rb["seats"].get(s, {})
        out += [f"seat.{k}" for k in sorted(set(pa) | set(pb)) if pa.get(k) != pb.get(k) and f"seat.{k}" not in out]
    return out


def _same(a: dict, b: dict) -> bool:
    """Whether two action bodies do the same thing (the order of placements and purchases aside)."""
    key = lambda body: (body["action"], body.get("row"), body.get("card"), body.get("food"),  # noqa: E731
                        sorted((i.get("recipe") or i.get("activity"), i["food"]) for i in body.get("place", [])),
                        sorted(body.get("dice") or []), sorted(map(str, body.get("items", []))),
                        sorted(body.get("laid") or []))
    return key(a) == key(b)


def play_game(players: int, seed: int, camera: str | None = None, rounds: int | None = None,
              dice: str | None = None) -> dict:
    """One whole game (or its first ``rounds``): the physical table's phone inputs, actions, cases, and
    both modes' scores (camera mode: also why the game stalled, if it did, and what the camera did; or
    only ``calibration``, why the camera's calibration refused the table, when it did)."""
    try:
        group = Group(players, seed, camera, dice)
    except LookupError as exc:                          # a token type not seen where the plan lays it
        return {"players": players, "seed": seed, "calibration": str(exc)}
    stalled = None
    try:
        group.play(rounds)
    except (AssertionError, StopIteration) as exc:     # (StopIteration: the right answer not offered)
        if not camera:
            raise
        why = str(exc) or f"the table asked {group.state.get('question')} and no option was the group's move"
        stalled = f"round {group.state['round']}, {group.state['phase']}: {why}"
    physical_scores = {p["name"]: p["score"] for p in group.state["players"]}
    out = {"players": players, "seed": seed, "phone": group.phone, "actions": group.actions,
           "cases": group.cases, "physical": physical_scores, "guided": None if stalled else group.guided_scores(),
           "orders": group.orders, "flashes": group.flashes, "extended": group.extended, "wrong": group.wrong, "stalled": stalled,
           "wild": group.wild, "specials": group.specials, "dice": group.dice, "second_taps": group.second_taps,
           "rolls": group.rolls}
    if camera:
        out.update(frames=group.camera.frames, beyond=group.camera.beyond, refused=group.refused,
                   misread=group.camera.misread, straightened=group.straightened, unannounced=group.unannounced,
                   dining_misread=group.dining_misread)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="games per player count")
    ap.add_argument("--players", default="1,2,3,4")
    ap.add_argument("--camera", nargs="?", const="easy",
                    choices=("easy", "hard", *(f"scenes-{level}" for level in scenes.LEVELS)),
                    help="read the boards through the synthetic camera and the real pipeline instead of sending "
                    "the readings: the live simulation's picture (easy), one with blur, noise, JPEG and "
                    "uneven coloured light (hard), or the harder renderer's (vision/scenes.py) of a level: printed "
                    "art, a tilted camera through a lens, daylight changed since calibration, glare, shadows")
    args = ap.parse_args()
    phone, actions, cases, orders, wrong, per_game = Counter(), Counter(), Counter(), Counter(), 0, []
    flashes, misrecorded, wild, specials, extended = 0, Counter(), 0, 0, 0
    stalls, frames, beyond, misread, straightened, refused = [], 0, Counter(), Counter(), 0, Counter()
    unannounced = 0
    dining_misread = 0
    by_dice, second_taps = defaultdict(Counter), Counter()
    uncalibrated = []
    started = time.perf_counter()
    for n in (int(x) for x in args.players.split(",")):
        for seed in range(1, args.games + 1):
            g = play_game(n, seed, args.camera)
            if "calibration" in g:
                uncalibrated.append(f"{n}p seed {seed}: {g['calibration']}")
                print(f"{n}p seed {seed}: CALIBRATION REFUSED ({g['calibration']})", flush=True)
                continue
            if g["stalled"]:
                stalls.append(f"{n}p seed {seed}: {g['stalled']}")
            frames += g.get("frames", 0)
            beyond.update(g.get("beyond", {}))
            misread.update(g.get("misread", {}))
            refused.update(g.get("refused", {}))
            straightened += g.get("straightened", 0)
            unannounced += g.get("unannounced", 0)
            dining_misread += g.get("dining_misread", 0)
            phone.update(g["phone"])
            actions.update(g["actions"])
            by_dice[g["dice"]].update(games=1, actions=sum(g["actions"].values()), trips=g["actions"]["shop"],
                                      inputs=sum(g["phone"].values()), rolls=g["rolls"])
            second_taps.update(g["second_taps"])
            cases.update(g["cases"])
            orders.update(g["orders"])
            flashes += g["flashes"]
            extended += g["extended"]
            misrecorded.update(g["wrong"])
            wild += g["wild"]
            specials += g["specials"]
            wrong += not g["stalled"] and g["physical"] != g["guided"]
            per_game.append(sum(g["phone"].values()) / max(1, sum(g["actions"].values())))
            print(f"{n}p seed {seed} (dice: {g['dice']}): {sum(g['actions'].values())} actions, "
                  f"{sum(g['phone'].values())} phone/host "
                  f"inputs, scores {g['physical']}" + (f" STALLED ({g['stalled']})" if g["stalled"] else
                                                      "" if g["physical"] == g["guided"] else
                                                      f" GUIDED DIFFERS {g['guided']}"), flush=True)
    by_type = defaultdict(float)
    for kind in set(actions) | set(phone):
        by_type[kind] = phone[kind] / actions[kind] if actions[kind] else float("nan")
    total = sum(phone.values()) / max(1, sum(actions.values()))
    print(f"\nphone/host inputs per action: {total:.3f} overall, median per game "
          f"{statistics.median(per_game or [0]):.3f}")
    for kind in sorted(by_type):
        print(f"  {kind:<12} {phone[kind]:>4} inputs / {actions[kind]:>4} = {by_type[kind]:.3f}")
    print("by dice option (its games' actions, shopping trips as their first action, phone/host inputs, of them rolls "
          "tapped on the phone):" + "".join(f"\n  {d:<8} {c['games']} games, {c['actions']} actions, {c['trips']} trips, "
                                            f"{c['inputs']} inputs ({c['inputs'] / max(1, c['actions']):.3f} an action), "
                                            f"{c['rolls']} rolls" for d, c in sorted(by_dice.items())))
    print("cards completed by a second tap, their food laid on them first (reader taps, not phone inputs): "
          + (", ".join(f"{k} {v} of {actions[k]} actions" for k, v in sorted(second_taps.items())) or "none"))
    print("cases made and resolved: " + ", ".join(f"{k} x{v}" for k, v in sorted(cases.items())))
    kinds = Counter({k: v for k, v in cases.items() if not k.startswith("confirmed")})
    print(f"  {len(kinds)} kinds, {sum(kinds.values())} cases; each turn ended with its move applied and nothing "
          "left to put back")
    several = {o: c for o, c in orders.items() if " " in o}
    diet_first = sum(c for o, c in several.items() if "main" in o and "diet" in o and o.index("diet") < o.index("main"))
    print(f"foods named by the camera's reading alone: {wild} wild market foods, {specials} special orders (a food "
          "the player's recipes need, gone from the whole shopping list)")
    print(f"moves read on more than one board: {sum(several.values())}, in {len(several)} different orders; "
          f"diet board before main board: {diet_first}")
    print(f"moves recorded otherwise than the group made them: {sum(misrecorded.values())}"
          + "".join(f"\n  differing in {k} x{v}" for k, v in misrecorded.most_common()))
    print(f"legal moves listed to put back until their last board was read: {flashes}")
    print(f"applied moves a board read later showed more of, worked out again as one move: {extended}")
    print(f"games whose final scores differ from the guided replay: {wrong} of {len(per_game) - len(stalls)} "
          "played to the end")
    if args.camera:
        print(f"camera: {frames} frames through the pipeline; {len(stalls)} of {len(per_game)} games stalled "
              f"(scores not compared); {time.perf_counter() - started:.0f} s in all")
        print(f"  tables whose calibration the camera refused (not played): {len(uncalibrated)}"
              + "".join(f"\n    {line}" for line in uncalibrated))
        for line in stalls:
            print("  " + line)
        print(f"  times the TV listed a legal move's tokens and the people straightened them: {straightened}")
        print(f"  times the table waited on a piece it could not see and the people straightened the pieces: {unannounced}")
        print(f"  dining-out lay-outs recorded with other foods than were laid (the diner's body then shows the "
              f"real ones): {dining_misread}")
        print(f"  camera readings the table refused: {sum(refused.values())}"
              + "".join(f"\n    {k} x{v}" for k, v in refused.most_common()))
        print(f"  slots the pipeline held otherwise than they lay after a change: {sum(misread.values())}"
              + "".join(f"\n    {k} x{v}" for k, v in misread.most_common()))
        if beyond:
            print("  slots the record filled that no layout shows: " + ", ".join(f"{a} x{c}" for a, c in
                                                                             sorted(beyond.items())))


if __name__ == "__main__":
    main()
