"""Readings of the main board are checked before the table takes them: dining-out tokens that cannot
be the lay-out the rulebook describes are held (the TV says what the camera could not see; the table
keeps reading until it settles or one person confirms it with one tap); the dice are read from their two
tracks, and one die seen is no roll; a dining-out token read wrongly at lay-out is what the diner's body
shows, confirmed with one tap."""
import copy

from server.games.food_for_thought import inference
from server.games.food_for_thought.boards import implied
from tests.support.food_for_thought import new_table, ok, pick_assistants, player, refused, seat

PIZZA = ["fats", "meat", "water", "grain", "veg", "nuts"]
BUFFET = [["fruit", "dairy", "fruit"], ["poultry", "water", "seafood"]]


def _main(table, slots):
    """The camera's reading of the main board: every dining-out space, the empty ones as null."""
    main = table.state["main"]
    every = {f"pizza.{n}": None for n in range(1, main["pizza_spaces"] + 1)}
    every.update({f"buffet.{r}.{n}": None for r in range(1, main["buffet_rows"] + 1)
                  for n in range(1, main["buffet_row_spaces"] + 1)})
    every.update({f"action.{space}.{n}": None for space in ("shop", "market", "pizza", "buffet") for n in range(1, 4)})
    return ok(table, {"board": {"board": "main", "slots": {**every, **slots}}})


def _laid(pizza=PIZZA, buffet=BUFFET, leave_out=()):
    slots = {f"pizza.{n}": f for n, f in enumerate(pizza, 1)}
    slots.update({f"buffet.{r}.{n}": f for r, row in enumerate(buffet, 1) for n, f in enumerate(row, 1)})
    return {s: t for s, t in slots.items() if s not in leave_out}


def test_a_buffet_token_the_camera_did_not_see_is_not_taken_as_an_empty_space():
    """rulebook set-up: "Randomly fill all Chinese Buffet spaces with food tokens from the bag", and a
    Fats & Oils token on its Pizza To Go space.  The camera misses one fruit of buffet row 1 (read
    empty, or too unsure to say): the record keeps no short row, the TV names the space; the group
    straightens the token, the next reading is whole and is taken."""
    table = new_table(["Ann", "Ben"], draws="physical")
    _main(table, _laid(leave_out=("buffet.1.2",)))
    assert table.state["buffet"] == [[], []] and table.state["pizza"] == []        # nothing taken
    tv = table.view("table")["dining_unsure"]
    assert tv == ["nothing seen on buffet row 1 space 2"]
    _main(table, _laid(pizza=["veg"] + PIZZA[1:]))          # the fixed Fats & Oils is missing: still held
    assert table.state["pizza"] == [] and table.view("table")["dining_unsure"] == [
        "Pizza To Go's first space shows Vegetables, not the Fats & Oils token"]
    _main(table, _laid())
    assert table.state["pizza"] == PIZZA and table.state["buffet"] == BUFFET
    assert table.view("table")["dining_unsure"] is None


def test_more_of_a_food_than_the_bag_still_holds_is_a_misreading_to_check():
    """rulebook set-up: 10 of each food go into the bag; clean-up step 5: the tokens left on Pizza To Go
    and the Chinese Buffet go to the supply (not back into the bag) and new ones come from the bag.  Round
    1 lays out 5 meat; in round 2 the camera reads 6 meat, but the bag had only 5 left: the table does
    not take it (a token read as meat is something else); the players cannot dine out on it; the
    player whose turn it is confirms it with one tap (the group looked: it is so) and dining out opens."""
    table = new_table(["Ann", "Ben"], draws="physical")
    meaty = ["fats", "meat", "meat", "meat", "meat", "meat"]
    _main(table, _laid(pizza=meaty))
    assert table.state["pizza"] == meaty
    pick_assistants(table)
    while table.state["phase"] == "actions":
        seat(table, table.state["turn"], "pass")
    ok(table, {"host": {"action": "continue"}})
    assert table.state["round"] == 2 and table.state["bag_used"]["meat"] == 5
    _main(table, {f"pizza.{n}": None for n in range(1, 7)})           # last round's tokens to the supply
    six = ["fats", "meat", "meat", "meat", "meat", "meat"]
    _main(table, _laid(pizza=six, buffet=[["meat", "dairy", "veg"], BUFFET[1]]))
    assert table.state["pizza"] == [] and "6 Meat tokens, but the bag holds 5 more" in table.view("table")["dining_unsure"][0]
    pick_assistants(table)
    turn = table.state["turn"]
    refused(table, {"seat": {"seat": turn, "action": "pizza"}}, "waiting")
    refused(table, {"seat": {"seat": 3 - turn, "action": "dining_as_seen"}}, "not_your_turn")
    assert "dining_as_seen" in table.view(f"seat-{turn}")["me"]["can"]
    seat(table, turn, "dining_as_seen")
    assert table.state["pizza"] == six and table.view("table")["dining_unsure"] is None
    refused(table, {"host": {"action": "dining_as_seen"}}, "already_done")
    seat(table, turn, "pizza")
    assert player(table, turn)["body"]["protein"].count("meat") == 5


def test_physical_first_a_marker_on_the_buffet_waits_until_the_tokens_are_settled():
    """rulebook Chinese Buffet: the player takes all the tokens of one row into their body.  Played
    physical-first, the camera misread the lay-out (a fruit unseen): Ann puts her marker on the buffet
    and eats row 1; the table applies nothing and keeps asking about the tokens rather than record a
    two-token row; the host's one tap takes the reading the camera made while the row lay untouched,
    and the table then shows the move as no legal action (three tokens reached her body, two were
    recorded): nothing is scored that the group never confirmed."""
    table = new_table(["Ann", "Ben"], draws="physical", mode="physical")
    _main(table, _laid(leave_out=("buffet.1.2",)))
    pick_assistants(table)
    turn = table.state["turn"]
    trial = copy.deepcopy(table.state)
    trial["buffet"], trial["dining_unsure"] = copy.deepcopy(BUFFET), None
    inference.play(trial, turn, {"action": "buffet", "row": 1})
    diet = f"diet-{turn}"
    before = implied(table.state, diet)
    after = implied(trial, diet)
    _main(table, {**_laid(buffet=[[], BUFFET[1]]), "action.buffet.1": f"marker{turn}"})
    ok(table, {"board": {"board": diet, "slots": {**{s: None for s in before}, **after}}})
    assert player(table, turn)["actions_left"] == 4 and not any(player(table, turn)["body"].values())
    assert table.view("table")["dining_unsure"] and table.state["put_back"] == []
    ok(table, {"host": {"action": "dining_as_seen"}})
    assert table.state["buffet"][0] == ["fruit", "fruit"]
    assert player(table, turn)["actions_left"] == 4 and not any(player(table, turn)["body"].values())
    assert table.state["put_back"]                   # the TV lists the difference; the host decides


def _shop(table, dice, items, main):
    """Ann's marker on a shopping space and the foods of ``items`` (rolled ``dice``) in her kitchen and
    covered on the list, the main board read as ``main``; returns her seat."""
    table.state["covered"] = {}
    turn = table.state["turn"]
    trial = copy.deepcopy(table.state)
    inference.play(trial, turn, {"action": "shop", "dice": dice, "items": [{"space": s} for s in items]})
    ok(table, {"board": {"board": "main", "slots": {**main, "action.shop.1": f"marker{turn}"}}})
    for board in (f"diet-{turn}", "shop"):
        before = implied(table.state, board)
        ok(table, {"board": {"board": board, "slots": {**{s: None for s in before}, **implied(trial, board)}}})
    return turn


def test_one_die_seen_is_not_a_roll_the_table_prices_a_purchase_on():
    """rulebook Grocery Shopping: roll both dice and place them on the matching spaces around the Shopping
    List (one die on the row spaces, one on the column spaces); the row and column of either die are on
    sale ($1), other spaces $3.  Ann rolls 2 and 5 and buys row 2 and column 5 foods; the camera misses the
    die on the row track (read empty).  The table prices nothing on one die: it lists the row track as the
    place to put a die and applies nothing; once the die is seen the purchase is applied with no tap."""
    table = new_table(["Ann", "Ben"], mode="physical")
    pick_assistants(table)
    turn = _shop(table, [2, 5], ["2.1", "1.5"], {"die.col.5": "die", "die.row.2": None})
    assert table.state["question"] is None and player(table, turn)["actions_left"] == 4
    assert table.state["put_back"] == [{"board": "main", "slot": "die.row", "recorded": ["die"], "seen": []}]
    ok(table, {"board": {"board": "main", "slots": {"die.col.5": "die", "die.row.2": "die"}}})   # the die straightened
    assert table.state["question"] is None and player(table, turn)["actions_left"] == 3
    assert table.state["dice"] == [2, 5] and {"2.1", "1.5"} <= set(table.state["covered"])


def test_a_double_is_two_dice_seen_and_needs_no_tap():
    """rulebook Grocery Shopping: one die on the row spaces and one on the column spaces, so a double 4
    lies on row 4 and column 4: two dice the camera sees.  Ann's purchase of two row-4 foods at $1 each
    is applied with no question, priced on the double."""
    table = new_table(["Ann", "Ben"], mode="physical")
    pick_assistants(table)
    turn = _shop(table, [4, 4], ["4.1", "4.2"], {"die.row.4": "die", "die.col.4": "die"})
    assert table.state["question"] is None and table.state["put_back"] == []
    assert player(table, turn)["actions_left"] == 3 and table.state["dice"] == [4, 4]
    assert any("($2 of $6)" in line for line in table.state["log"][-3:]), table.state["log"][-3:]


def _dine_on_row_1(table, really):
    """Ann's marker on the buffet and the real tokens of row 1 (``really``) in her body, as the camera
    reads both boards; returns her seat."""
    turn = table.state["turn"]
    trial = copy.deepcopy(table.state)
    trial["buffet"][0] = list(really)
    inference.play(trial, turn, {"action": "buffet", "row": 1})
    diet = f"diet-{turn}"
    _main(table, {**_laid(buffet=[[], BUFFET[1]]), "action.buffet.1": f"marker{turn}"})
    before = implied(table.state, diet)
    ok(table, {"board": {"board": diet, "slots": {**{s: None for s in before}, **implied(trial, diet)}}})
    return turn


def test_a_dining_out_token_read_wrongly_when_laid_out_is_what_the_diners_body_shows():
    """rulebook Chinese Buffet: the player takes all the tokens of one row into their body.  The camera
    read row 1 as fruit, dairy, fruit when it was laid out, but the second fruit is a vegetable (a
    possible lay-out, so it was taken).  Ann eats the row: her body shows the vegetable, not a second
    fruit.  The table does not score the fruit the record holds, nor stall on a move no rule explains:
    it asks Ann to confirm what she ate (one tap), then records the row as it lay and says so on the TV."""
    table = new_table(["Ann", "Ben"], draws="physical", mode="physical")
    _main(table, _laid())
    pick_assistants(table)
    turn = _dine_on_row_1(table, ["fruit", "dairy", "veg"])
    asked = table.state["question"]
    assert asked and asked["options"] == ["Chinese Buffet, row 1 (it held Fruit, Dairy, Vegetables)"], asked
    assert player(table, turn)["actions_left"] == 4 and not any(player(table, turn)["body"].values())
    assert table.state["put_back"] == []
    seat(table, turn, "answer", choice=1)
    body = player(table, turn)["body"]
    assert sorted(body["produce"]) == ["fruit", "veg"] and player(table, turn)["actions_left"] == 3
    assert table.state["laid_out"]["veg"] == 2 and table.state["laid_out"]["fruit"] == 1   # (a veg on the pizza)
    assert any(line.startswith("Buffet row 1 held Fruit, Dairy, Vegetables: the camera had read Fruit, Dairy, Fruit")
               for line in table.state["log"][-4:]), table.state["log"][-4:]


def test_a_diners_body_showing_food_the_bag_no_longer_held_is_listed_to_put_back():
    """rulebook set-up: the bag holds 10 of each food.  Round 1's lay-out took 5 meat, then all 5 of the
    bag's other meat are laid out in round 2 (as the camera read them); a diner's body then shows a 6th meat
    from a row the camera read as fruit, dairy, fruit: no lay-out could have held it, so the table does not
    rewrite the row; it lists what to put back."""
    table = new_table(["Ann", "Ben"], draws="physical", mode="physical")
    table.state["bag_used"] = {"meat": 5}
    _main(table, _laid(pizza=["fats", "meat", "meat", "meat", "meat", "meat"]))
    pick_assistants(table)
    turn = _dine_on_row_1(table, ["fruit", "dairy", "meat"])
    assert table.state["question"] is None and table.state["put_back"]
    assert player(table, turn)["actions_left"] == 4 and table.state["buffet"][0] == BUFFET[0]


def test_a_pizza_to_go_token_read_wrongly_is_corrected_from_the_body_and_keeps_its_fats():
    """rulebook Pizza To Go: the diner takes all the brochure's tokens into their body; set-up: its first
    space holds a Fats & Oils from the supply.  The camera read the brochure's vegetable as a fruit; Ann
    dines there and her body shows the vegetable: she confirms (one tap) and the record's brochure held
    the fats and the vegetable, as it lay."""
    table = new_table(["Ann", "Ben"], draws="physical", mode="physical")
    _main(table, _laid(pizza=["fats", "meat", "water", "grain", "fruit", "nuts"]))
    pick_assistants(table)
    turn = table.state["turn"]
    trial = copy.deepcopy(table.state)
    trial["pizza"] = list(PIZZA)
    inference.play(trial, turn, {"action": "pizza"})
    diet = f"diet-{turn}"
    _main(table, {**_laid(pizza=[]), "action.pizza.1": f"marker{turn}"})
    before = implied(table.state, diet)
    ok(table, {"board": {"board": diet, "slots": {**{s: None for s in before}, **implied(trial, diet)}}})
    assert table.state["question"]["bodies"] == [{"action": "pizza", "laid": PIZZA}]
    seat(table, turn, "answer", choice=1)
    assert player(table, turn)["body"] == trial["seats"][str(turn)]["body"] and table.state["pizza"] == []


def test_a_token_read_where_it_cannot_lie_leaves_out_that_space_only():
    """rulebook set-up: a Fats & Oils token on its Pizza To Go space.  The camera takes it for Ben's yellow
    marker (a player's marker stands only on an action space): that space alone is left out, as if the
    camera were unsure of it, so the rest of the main board is still read (the dice) and the TV names the
    space it waits for; read rightly, the lay-out is taken.  A token the game does not know is refused."""
    table = new_table(["Ann", "Ben"], draws="physical")
    _main(table, {**_laid(pizza=["marker2"] + PIZZA[1:]), "die.row.3": "die", "die.col.4": "die"})
    assert table.state["boards"]["main"]["seen"]["die.row.3"] == "die"          # the rest of the board is read
    assert "pizza.1" not in table.state["boards"]["main"]["seen"] and table.state["pizza"] == []
    assert table.view("table")["dining_unsure"] == ["Pizza To Go's first space shows nothing, not the Fats & Oils token"]
    refused(table, {"board": {"board": "main", "slots": {"pizza.1": "banana"}}}, "unknown_card")
    _main(table, {**_laid(), "die.row.3": "die", "die.col.4": "die"})
    assert table.state["pizza"] == PIZZA and table.state["buffet"] == BUFFET
