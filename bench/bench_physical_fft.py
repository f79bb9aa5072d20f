"""Food for Thought physical-first: phone and host inputs per action, and the same scores as the guided mode.

    python3 bench/bench_physical_fft.py [--games 3] [--players 1,2,3,4]

A scripted group plays whole games at a physical-first table (``mode=physical``, ``draws=physical``):
it taps the recipe and assistant cards it takes, lays the dining-out tokens out from its own bag
(read on the main board), rolls dice onto the main board, and moves tokens and action markers on
its boards; the table only gets what the camera would send (``board`` readings of the boards that
changed, every slot, empty ones as null) and the reader taps.  Phone or host inputs are counted:
answers to the table's questions, what the table does not work out yet (the Pizza To Go extra
action), and the host's clean-up confirmation.

The group also makes the table's hard cases happen: two buffet rows with the same tokens (the
table must ask which row), a snack moving two tokens and a purchase over $6 (the table must list
what to put back, then apply the corrected move).  Every game is then replayed in the guided mode
from the same decisions sent as phone actions, and the final scores must be the same.
"""
from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.games.food_for_thought import inference, physical  # noqa: E402
from server.games.food_for_thought.boards import implied  # noqa: E402
from server.journal import Journal  # noqa: E402
from server.table import Table  # noqa: E402

NAMES = ["Ann", "Ben", "Cat", "Dan"]


class Group:
    """The people at the table: their decisions, and the inputs each mode gets from them."""

    def __init__(self, players: int, seed: int):
        self.rng = random.Random(seed)
        self.players, self.seed = players, seed
        self.table = Table(Journal(":memory:"))
        self._must(self.table.handle(self._new_game("physical")))
        self.guided: list[dict] = [self._new_game("guided")]
        self.phone = Counter()           # phone or host inputs of the physical table, by action type
        self.actions = Counter()         # actions taken, by type
        self.cases = Counter()           # ambiguity and illegal moves made and resolved
        self.bag = [f for f in sorted(self.table.state["foods"]) for _ in range(10)]
        self.rng.shuffle(self.bag)

    def _new_game(self, mode: str) -> dict:
        return {"new_game": {"game": "food-for-thought", "players": NAMES[:self.players], "seed": self.seed,
                             "options": {"data": "sample", "draws": "physical", "dice": "physical", "mode": mode}}}

    @staticmethod
    def _must(outcome):
        assert outcome.accepted, outcome.error.as_dict()
        return outcome

    @property
    def state(self) -> dict:
        return self.table.state

    # ----- what reaches each table
    def both(self, inp: dict) -> None:
        """An input both modes get the same way (a tap, a main board reading)."""
        self._must(self.table.handle(inp))
        self.guided.append(inp)

    def phone_input(self, kind: str, inp: dict) -> None:
        self.phone[kind] += 1
        self._must(self.table.handle(inp))

    def read(self, board: str, slots: dict) -> None:
        """The camera's reading of ``board``: every slot it has seen, empty ones as null."""
        held = {**implied(self.state, board), **self.state["boards"].get(board, {}).get("seen", {})}
        if board == "main":                   # the camera watches every action space of the main board
            held.update({f"action.{space}.{n}": None for space in physical.MAIN_SPACES for n in range(1, 9)})
        body = {**{s: None for s in held}, **slots}
        self._must(self.table.handle({"board": {"board": board, "slots": body}}))

    def lay_out_dining(self) -> None:
        main = self.state["main"]
        if self.players == 1:
            return
        twins = self.state["round"] == 2 and self.players >= 3        # two buffet rows alike: a question
        slots = {"pizza.1": main["pizza_fixed"]}
        for n in range(2, main["pizza_spaces"] + 1):
            slots[f"pizza.{n}"] = self.bag.pop()
        first = [self.bag.pop() for _ in range(main["buffet_row_spaces"])]
        for r in range(1, main["buffet_rows"] + 1):
            row = first if (r == 1 or twins) else [self.bag.pop() for _ in range(main["buffet_row_spaces"])]
            slots.update({f"buffet.{r}.{n}": f for n, f in enumerate(row, 1)})
        seen = self.state["boards"].get("main", {}).get("seen", {})
        self.both({"board": {"board": "main", "slots": {**{s: None for s in seen if s.startswith(("pizza", "buffet"))},
                                                        **slots}}})

    # ----- a turn
    def choose(self, seat: int) -> dict:
        s, p = self.state, self.state["seats"][str(seat)]
        kitchen = [(f, c) for c, col in enumerate(p["kitchen"], 1) for f in col]
        options = []
        fits = self._cook_places(p, kitchen)
        if fits:
            options += [{"action": "cook", "place": fits}] * 3
        if len(p["recipes"]) < 2:
            options.append({"action": "cook", "take_tap": True})
        if s["pizza"] and s["spaces"]["pizza"] is None and self.players > 1:
            options.append({"action": "pizza"})
        rows = [r for r, row in enumerate(s["buffet"], 1) if row]
        if rows and None in s["spaces"]["buffet"]:
            options.append({"action": "buffet", "row": self.rng.choice(rows)})
        if kitchen and p["snacks"] == 0:
            f, c = self.rng.choice(kitchen)
            options.append({"action": "snack", "food": f, "column": c})
        if len(s["spaces"]["shop"]) < {1: 3, 2: 3, 3: 4, 4: 5}[self.players]:
            options += [{"action": "shop"}] * 2
        return self.rng.choice(options) if options else {"action": "pass"}

    def _cook_places(self, p: dict, kitchen: list) -> list[dict]:
        trial = copy.deepcopy(p)
        places = []
        for f, c in kitchen:
            for rid in trial["recipes"]:
                needs, got = self.state["cards"]["recipes"][rid]["needs"], trial["recipe_tokens"][rid]
                space = next((i for i, n in enumerate(needs) if got[i] is None and (n == "wild" or f in n.split("|"))),
                             None)
                if space is not None and len(places) < 3:
                    got[space] = f
                    places.append({"recipe": rid, "food": f, "column": c})
                    break
        return places

    def turn(self) -> None:
        seat = self.state["turn"]
        body = self.choose(seat)
        kind = body["action"]
        if body.pop("take_tap", False):
            free = physical.takeable(self.state, "recipes")
            self.both({"tap": {"reader": f"seat-{seat}", "card": physical.card_id("recipes", self.rng.choice(free))}})
        if kind == "shop":
            body = self._shopping(seat)
        self.actions[kind] += 1
        self._illegal_first(seat, body)
        self._move_tokens(seat, body)
        if self.state.get("question"):
            options = self.state["question"]["options"]
            self.cases["ambiguous " + options[0].split(",")[0]] += 1
            choice = next(i for i, b in enumerate(self.state["question"]["bodies"], 1) if _same(b, body))
            self.phone_input(kind, {"seat": {"seat": seat, "action": "answer", "choice": choice}})
        self.guided += self._guided_inputs(seat, body)

    def _shopping(self, seat: int) -> dict:
        dice = sorted([self.rng.randint(1, 6), self.rng.randint(1, 6)])
        open_ = [sp for sp in sorted(self.state["shopping"]) if sp not in self.state["covered"]]
        sale = [sp for sp in open_ if int(sp[0]) in dice or int(sp[2]) in dice]
        items = [{"space": sp} for sp in self.rng.sample(sale, min(len(sale), self.rng.randint(1, 3)))]
        return {"action": "shop", "dice": dice, "items": items}

    def _boards_after(self, seat: int, body: dict) -> dict:
        trial = copy.deepcopy(self.state)
        inference.play(trial, seat, body)
        return {b: implied(trial, b) for b in ("main", "shop", f"diet-{seat}")}

    def _move_tokens(self, seat: int, body: dict) -> None:
        after = self._boards_after(seat, body)
        for board in ("main", "shop", f"diet-{seat}"):
            if after[board] != implied(self.state, board) or board.startswith("diet"):
                self.read(board, after[board])

    def _illegal_first(self, seat: int, body: dict) -> None:
        """Now and then the group first does the move wrong; the table must apply nothing."""
        p = self.state["seats"][str(seat)]
        before = copy.deepcopy(self.state["seats"][str(seat)])
        if body["action"] == "snack" and not self.cases["illegal snack of two tokens"]:
            kitchen = [f for col in p["kitchen"] for f in col]
            if len(kitchen) >= 2:
                after = self._boards_after(seat, body)["diet-" + str(seat)]
                wrong = dict(after)
                wrong.pop(next(s for s in after if s.startswith("kitchen.")))     # a second token taken
                self.read(f"diet-{seat}", wrong)
                assert self.state["put_back"] and self.state["seats"][str(seat)] == before, "illegal snack applied"
                self.cases["illegal snack of two tokens"] += 1
        if body["action"] == "shop" and not self.cases["illegal purchase over $6"]:
            open_ = [sp for sp in sorted(self.state["shopping"]) if sp not in self.state["covered"]
                     and int(sp[0]) not in body["dice"] and int(sp[2]) not in body["dice"]
                     and {"space": sp} not in body["items"]]
            if len(open_) >= 3:
                over = {**body, "items": body["items"] + [{"space": sp} for sp in open_[:3]]}
                trial = copy.deepcopy(self.state)
                inference.actions._check_turn(trial, seat, "shop")
                boards = self._shop_boards(trial, seat, over)
                for board in ("main", "shop", f"diet-{seat}"):
                    self.read(board, boards[board])
                assert self.state["pending"] is None and self.state["seats"][str(seat)] == before
                assert self.state["put_back"], "a purchase over $6 was not listed to put back"
                self.cases["illegal purchase over $6"] += 1

    def _shop_boards(self, trial: dict, seat: int, over: dict) -> dict:
        """The boards of a purchase the rules refuse: the spaces covered and the food in the kitchen."""
        p = trial["seats"][str(seat)]
        p["actions_left"] -= 1
        trial["spaces"]["shop"].append(seat)
        trial["dice"] = over["dice"]
        for item in over["items"]:
            trial["covered"][item["space"]] = "shopping"
            inference.actions.tokens.to_kitchen(trial, p, trial["shopping"][item["space"]])
        return {b: implied(trial, b) for b in ("main", "shop", f"diet-{seat}")}

    @staticmethod
    def _guided_inputs(seat: int, body: dict) -> list[dict]:
        if body["action"] == "shop":
            return [{"seat": {"seat": seat, "action": "shop", "dice": body["dice"]}},
                    {"seat": {"seat": seat, "action": "buy", "items": body["items"]}}]
        return [{"seat": {"seat": seat, **body}}]

    # ----- rounds and the game
    def assistants(self) -> None:
        while self.state["phase"] == "assistants":
            seat = self.state["assistant_queue"][0]
            me = self.table.view(f"seat-{seat}")["me"]["assistant"]
            for choice in me["choices"][:me["pick"]]:
                self.both({"tap": {"reader": f"seat-{seat}", "card": physical.card_id("assistants", choice["id"])}})

    def play(self) -> None:
        self.lay_out_dining()
        while not self.state["over"]:
            self.assistants()
            while self.state["phase"] in ("actions", "pizza_extra"):
                if self.state["phase"] == "pizza_extra":
                    skip = {"seat": {"seat": self.state["turn"], "action": "skip"}}
                    self.actions["pizza extra"] += 1
                    self.phone_input("pizza extra", skip)
                    self.guided.append(skip)
                else:
                    self.turn()
            if self.state["phase"] == "round_end":
                self.phone_input("clean-up", {"host": {"action": "continue"}})
                if not self.state["over"]:            # the guided table ended the game by itself
                    self.guided.append({"host": {"action": "continue"}})
                    self.clean_up()
                    self.lay_out_dining()

    def clean_up(self) -> None:
        """The people's clean-up steps: kitchens shifted, shopping tokens off, markers taken back."""
        for board in ["main", "shop"] + [f"diet-{p['seat']}" for p in self.state["seats"].values()]:
            self.read(board, implied(self.state, board))

    def guided_scores(self) -> dict:
        table = Table(Journal(":memory:"))
        for inp in self.guided:
            self._must(table.handle(inp))
        return {p["name"]: p["score"] for p in table.state["players"]}


def _same(a: dict, b: dict) -> bool:
    """Whether two action bodies do the same thing (the order of a cook's placements aside)."""
    key = lambda body: (body["action"], body.get("row"), body.get("card"), body.get("food"),  # noqa: E731
                        sorted((i["recipe"], i["food"]) for i in body.get("place", [])))
    return key(a) == key(b)


def play_game(players: int, seed: int) -> dict:
    """One whole game: the physical table's phone inputs, actions, cases, and both modes' scores."""
    group = Group(players, seed)
    group.play()
    physical_scores = {p["name"]: p["score"] for p in group.state["players"]}
    return {"players": players, "seed": seed, "phone": group.phone, "actions": group.actions,
            "cases": group.cases, "physical": physical_scores, "guided": group.guided_scores()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="games per player count")
    ap.add_argument("--players", default="1,2,3,4")
    args = ap.parse_args()
    phone, actions, cases, wrong, per_game = Counter(), Counter(), Counter(), 0, []
    for n in (int(x) for x in args.players.split(",")):
        for seed in range(1, args.games + 1):
            g = play_game(n, seed)
            phone.update(g["phone"])
            actions.update(g["actions"])
            cases.update(g["cases"])
            wrong += g["physical"] != g["guided"]
            per_game.append(sum(g["phone"].values()) / max(1, sum(g["actions"].values())))
            print(f"{n}p seed {seed}: {sum(g['actions'].values())} actions, {sum(g['phone'].values())} phone/host "
                  f"inputs, scores {g['physical']}" + ("" if g["physical"] == g["guided"] else
                                                      f" GUIDED DIFFERS {g['guided']}"))
    by_type = defaultdict(float)
    for kind in set(actions) | set(phone):
        by_type[kind] = phone[kind] / actions[kind] if actions[kind] else float("nan")
    total = sum(phone.values()) / sum(actions.values())
    print(f"\nphone/host inputs per action: {total:.3f} overall, median per game {statistics.median(per_game):.3f}")
    for kind in sorted(by_type):
        print(f"  {kind:<12} {phone[kind]:>4} inputs / {actions[kind]:>4} = {by_type[kind]:.3f}")
    print("cases made and resolved: " + ", ".join(f"{k} x{v}" for k, v in sorted(cases.items())))
    print(f"games whose final scores differ from the guided replay: {wrong} of {len(per_game)}")


if __name__ == "__main__":
    main()
