"""Food for Thought with physical draws: the group shuffles and deals the real cards; tagged cards
tapped on the readers tell the table which were drawn, the camera reads the dining-out tokens laid
out from the bag, and the dice come from exactly one place."""
from hardware.enrolment import card_sets
from hardware.registry import TagRegistry, virtual_uid
from server.games.food_for_thought import physical
from server.journal import Journal
from server.table import Table
from tests.support.food_for_thought import new_table, ok, pick_assistants, player, refused, seat


def _tap(seat_no, kind, cid, reader=None):
    return {"tap": {"reader": reader or f"seat-{seat_no}", "card": physical.card_id(kind, cid)}}


def _main(slots):
    return {"board": {"board": "main", "slots": slots}}


def test_every_tagged_card_can_be_enrolled_and_has_a_virtual_tag(tmp_path):
    """Recipe, activity, assistant and goal cards are the game's cards: enrolment lists them by kind,
    and a simulated reader's virtual tag resolves to the card."""
    sets = {s["id"]: s["cards"] for s in card_sets()}
    for kind in ("recipes", "activities", "assistants", "goals"):
        assert sets[f"food-for-thought/{kind}"], kind
    assert "food-for-thought/recipes/r01" in sets["food-for-thought/recipes"]
    registry = TagRegistry(tmp_path / "tags.sqlite", simulate=True)
    table = Table(Journal(":memory:"), resolve_uid=registry.resolve_uid)
    ok(table, {"new_game": {"game": "food-for-thought", "players": ["Ann", "Ben"], "seed": 1,
                            "options": {"data": "sample", "draws": "physical"}}})
    queue = table.state["assistant_queue"][0]
    ok(table, {"tap": {"reader": f"seat-{queue}", "uid": virtual_uid("food-for-thought/assistants/fitness-coach")}})
    assert player(table, queue)["assistants"] == ["fitness-coach"]


def _physical_table(**options):
    table = new_table(["Ann", "Ben"], draws="physical", **options)
    return table


def test_the_table_learns_the_recipes_drawn_instead_of_choosing_them():
    """rulebook Recipes & Cook: take up to 3 face-up recipes, then cook.  The group deals the deck;
    Ann taps the two she takes, puts one back by tapping it again, and her cook takes the rest."""
    table = _physical_table()
    assert table.view("table")["recipe_book"] == []            # the table chose nothing
    pick_assistants(table)
    ok(table, _tap(1, "recipes", "r03"))
    ok(table, _tap(1, "recipes", "r05"))
    assert table.view("table")["drawn"]["recipes"] == ["r03", "r05"]
    ok(table, _tap(1, "recipes", "r05"))                       # put back
    refused(table, {"seat": {"seat": 1, "action": "snack", "food": "water"}}, "waiting")
    refused(table, _tap(2, "recipes", "r07"), "not_your_turn")
    seat(table, 1, "cook")
    assert player(table, 1)["recipes"] == ["r03"] and table.view("table")["drawn"]["recipes"] == []
    refused(table, _tap(2, "recipes", "r03"), "unavailable")
    refused(table, _tap(1, "recipes", "r03"), "not_your_turn")
    ok(table, _tap(2, "activities", "a02"))
    ok(table, _tap(2, "activities", "a04"))
    refused(table, _tap(2, "activities", "a05"), "breaks_rule")    # rulebook: up to 2 activities
    seat(table, 2, "workout")
    assert player(table, 2)["activities"] == ["a02", "a04"]
    ok(table, _tap(1, "recipes", "r10"))
    ok(table, _tap(1, "recipes", "r11"))
    ok(table, _tap(1, "recipes", "r12"))
    refused(table, _tap(1, "recipes", "r13"), "breaks_rule")      # rulebook: up to 3 recipes
    refused(table, _tap(1, "recipes", "p01"), "unknown_card")   # a Potluck card, module off


def test_a_tap_refuses_when_the_table_deals_and_for_a_card_of_another_game():
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    refused(table, _tap(1, "recipes", "r03"), "option_off")
    refused(table, {"tap": {"reader": "seat-1", "card": "tofu-god/set-1/rat"}}, "not_this_game")
    out = ok(table, {"lift": {"reader": "seat-1", "card": physical.card_id("recipes", "r03")}})
    assert out.quiet


def test_assistants_are_picked_by_tapping_them():
    """rulebook: the last player picks first, in reverse turn order; nobody keeps last round's."""
    table = _physical_table()
    first, second = table.state["assistant_queue"]
    refused(table, _tap(second, "assistants", "life-coach"), "not_your_turn")
    ok(table, _tap(first, "assistants", "personal-shopper"))
    refused(table, _tap(second, "assistants", "personal-shopper"), "unavailable")
    ok(table, _tap(None, "assistants", "restaurateur", reader="center"))   # the shared reader: whoever picks
    assert player(table, second)["assistants"] == ["restaurateur"] and table.state["phase"] == "actions"


def test_solo_picks_two_assistants_with_two_taps():
    """rulebook solo round 1: select any two assistant cards."""
    table = new_table(["Sol"], draws="physical")
    ok(table, _tap(1, "assistants", "fitness-coach"))
    assert table.state["phase"] == "assistants"
    ok(table, _tap(1, "assistants", "personal-shopper"))
    assert player(table, 1)["assistants"] == ["fitness-coach", "personal-shopper"]
    assert table.state["phase"] == "actions"


def test_goal_cards_laid_out_are_tapped():
    """rulebook Goals module: two goal cards at random; the group draws them and taps them."""
    table = _physical_table(goals=True)
    assert table.state["goals"] == []
    ok(table, _tap(None, "goals", "g01", reader="center"))
    ok(table, _tap(None, "goals", "g03", reader="center"))
    refused(table, _tap(None, "goals", "g02", reader="center"), "already_done")
    assert table.state["goals"] == ["g01", "g03"]


def test_the_camera_reads_the_dining_out_tokens_laid_out_from_the_bag():
    """rulebook setup 5 and clean-up 5: a Fats & Oils on Pizza To Go, the other spaces and the buffet
    from the bag.  The group lays them out; the camera's reading is what Pizza To Go gives."""
    table = _physical_table()
    assert table.state["pizza"] == [] and table.state["bag"] == []
    pizza = ["fats", "meat", "water", "grain", "veg", "nuts"]
    ok(table, _main({**{f"pizza.{n}": f for n, f in enumerate(pizza, 1)}, "buffet.1.1": "veg", "buffet.1.2": "dairy",
                     "buffet.1.3": "fruit", "buffet.2.1": "fats", "buffet.2.2": "water", "buffet.2.3": "seafood"}))
    assert table.state["pizza"] == pizza and table.state["buffet"][0] == ["veg", "dairy", "fruit"]
    pick_assistants(table)
    seat(table, 1, "pizza")
    assert player(table, 1)["body"]["protein"] == ["meat"] and table.state["pizza"] == []
    # once the round's actions began, a reading of the brochure changes nothing
    ok(table, _main({"pizza.1": None, "pizza.2": None, "pizza.3": None}))
    assert table.state["buffet"][0] == ["veg", "dairy", "fruit"]
    refused(table, _main({"pizza.1": "cake"}), "unknown_card")
    refused(table, _main({"pizza.99": "fats"}), "unknown_card")
    refused(table, {"host": {"action": "correct_board", "board": "main", "slots": {"pizza.1": "fats"}}}, "breaks_rule")


def test_dice_read_by_the_camera_never_from_the_phone_too():
    """rulebook Grocery Shopping: roll both dice and put them on their spaces; the row and column of
    either die are on sale.  With camera dice the phone cannot enter a roll; a die's space on its track (one
    die on the row spaces, one on the column spaces) is its value, so a double is two dice seen."""
    table = new_table(["Ann", "Ben"], dice="camera")
    pick_assistants(table)
    refused(table, {"seat": {"seat": 1, "action": "shop", "dice": [2, 5]}}, "option_off")
    seat(table, 1, "shop")
    assert table.view("seat-1")["me"]["can"] == []
    refused(table, {"seat": {"seat": 1, "action": "buy", "items": []}}, "waiting")
    ok(table, _main({"die.row.5": "die"}))                    # one die on its track: not a roll yet
    assert table.state["dice"] is None and table.view("seat-1")["me"]["can"] == []
    ok(table, _main({"die.row.5": "die", "die.col.2": "die"}))
    assert table.state["dice"] == [2, 5] and table.view("seat-1")["me"]["can"] == ["buy"]
    assert ok(table, _main({"die.row.5": "die", "die.col.2": "die"})).quiet
    seat(table, 1, "buy", items=[])
    seat(table, 2, "shop")
    ok(table, _main({"die.row.5": None, "die.col.2": None, "die.row.3": "die", "die.col.3": "die"}))   # a double
    assert table.state["dice"] == [3, 3]
