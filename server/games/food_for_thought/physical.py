"""Physical draws: the table learns which cards the group really drew, and what the dice and
the bag really gave.

With the ``draws`` option ``physical`` the group shuffles and deals the real decks, and
the engine no longer chooses any card:

- recipe, activity, assistant and goal cards carry NFC tags (card ids
  ``food-for-thought/<kind>/<id>``, listed by :func:`cards` so they can be enrolled and,
  in simulation, get a virtual tag);
- a recipe or activity card taken is tapped on the player's reader during their turn;
  it is held as *drawn* until the player's Recipes & Cook (or Activities & Work Out)
  action takes it, and tapping it again before that puts it back;
- an assistant card is tapped by the player whose pick it is; goal cards are tapped on
  any reader when they are laid out;
- the out-of-stock cards (1-2 players) revealed at a round's start are tapped on any reader
  before its first action; the table covers their spaces on the record and the camera sees
  the shopping tokens put there; a 2-player game's 8 farmers market cards are tapped at set-up
  (3-4 players and solo use every stand: no draw);
- the Pizza To Go and Chinese Buffet tokens laid out from the bag are read by the camera
  from the ``main`` board (``pizza.<n>``, ``buffet.<row>.<n>``) whenever dining out is
  being laid out (before the first action of a round); a reading that cannot be a lay-out
  (see :func:`dining_problems`) is held until a later one can, or until the host or the
  player whose turn it is confirms it (one tap), and nobody dines out meanwhile.

Dice (the ``dice`` option) come from exactly one place: ``digital`` (the table rolls),
``physical`` (the active player enters the roll with one tap on their phone) or
``camera`` (rulebook, Grocery Shopping: the dice are placed on the matching spaces around the
Shopping List, one on the row spaces and one on the column spaces; the ``main`` board's two tracks
``die.row.<value>`` and ``die.col.<value>``: a die's position is its value, so a double is two
dice seen, one on each track).
"""
from __future__ import annotations

from collections import Counter

from ..base import Quiet, RuleError, event
from . import rules
from .tokens import food_name

#: Tagged card kinds: the card id's middle part -> the game's card data kind.
TAGGED = {"recipes": "recipes", "activities": "activities", "assistants": "assistants", "goals": "goals",
          "market": "market", "out_of_stock": "out_of_stock"}
#: How many face-up cards one action may take, by kind.
TAKE_LIMIT = {"recipes": rules.RECIPES_PER_TAKE, "activities": rules.ACTIVITIES_PER_TAKE}
#: The action that takes drawn cards of each kind.
TAKEN_BY = {"recipes": "cook", "activities": "workout"}


def card_id(kind: str, cid: str) -> str:
    """The tag's card id of card ``cid`` of ``kind`` (recipes, activities, assistants, goals)."""
    return f"{rules.GAME_ID}/{kind}/{cid}"


def cards() -> list[str]:
    """Every tagged card id of the game data (the owner's where marked complete, else the sample)."""
    from . import data
    cat = data.load()
    return [card_id(kind, r["id"]) for kind in TAGGED for r in cat.records[kind]]


def physical_draws(state: dict) -> bool:
    return state["options"]["draws"] == "physical"


def physical_first(state: dict) -> bool:
    """Whether the table follows the physical game (the camera reads moves) rather than the guided forms."""
    return state["options"]["mode"] == "physical"


def new_drawn() -> dict:
    """Cards tapped this turn and not yet taken by an action."""
    return {"seat": None, "recipes": [], "activities": [], "assistants": []}


def _split(card) -> tuple[str, str]:
    parts = card.split("/") if isinstance(card, str) else []
    if len(parts) != 3 or parts[0] != rules.GAME_ID or parts[1] not in TAGGED:
        raise RuleError("not_this_game", f"{card!r} is not a Food for Thought card; tap a recipe, activity, "
                        "assistant or goal card.")
    return parts[1], parts[2]


def _reader_seat(state: dict, reader: str, default: int | None) -> int | None:
    if reader.startswith("seat-"):
        seat = int(reader[5:])
        if str(seat) not in state["seats"]:
            raise RuleError("empty_seat", f"Nobody sits at {reader}; tap the card on your own reader.")
        return seat
    return default


def _holder(state: dict, kind: str, cid: str) -> dict | None:
    done = "recipes_done" if kind == "recipes" else "activities_done"
    return next((p for p in state["seats"].values() if cid in p[kind] or cid in p[done]), None)


def _in_game(state: dict, kind: str, cid: str) -> bool:
    """Whether card ``cid`` belongs in this game's deck (modules, solo asterisk cards)."""
    card = state["cards"][kind].get(cid)
    if card is None:
        return False
    if kind == "recipes":
        module_on = card["module"] == "base" or state["options"][card["module"]]
        return module_on and (len(state["players"]) > 1 or card["solo"])
    return True


def takeable(state: dict, kind: str) -> list[str]:
    """Physical draws: every card of ``kind`` that may still be taken (in no player's hands)."""
    return [c for c in state["cards"][kind] if _in_game(state, kind, c) and _holder(state, kind, c) is None]


def tap(state: dict, body: dict) -> list[dict]:
    """A tagged card tapped on a reader: a card drawn, put back, an assistant or a goal."""
    kind, cid = _split(body.get("card"))
    if cid not in state["cards"][kind]:
        raise RuleError("unknown_card", f"{body['card']} is not in this game's card data; enrol the tags again "
                        "after changing the cards.")
    if kind == "assistants":
        return _assistant(state, body["reader"], cid)
    if kind == "goals":
        return _goal(state, cid)
    if kind in ("market", "out_of_stock"):
        return _revealed(state, kind, cid)
    if not physical_draws(state):
        raise RuleError("option_off", "This game deals the cards itself (draws: table): choose the card "
                        "on your phone.")
    return _draw(state, body["reader"], kind, cid)


def _draw(state: dict, reader: str, kind: str, cid: str) -> list[dict]:
    name = state["cards"][kind][cid]["name"]
    if state["phase"] not in ("actions", "pizza_extra") or state["pending"] is not None:
        raise RuleError("not_now", f"Take {name} during your turn, before placing its food.")
    seat = _reader_seat(state, reader, state["turn"])
    if seat != state["turn"]:
        raise RuleError("not_your_turn", f"It is {state['seats'][str(state['turn'])]['name']}'s turn; put "
                        f"{name} back.")
    drawn = state["drawn"]
    p = state["seats"][str(seat)]
    if drawn["seat"] == seat and cid in drawn[kind]:
        done = _complete_by_tap(state, seat, kind, cid)
        if done is not None:
            return done
        drawn[kind].remove(cid)
        return [event(state, "put_back", f"{p['name']} puts {name} back.")]
    holder = _holder(state, kind, cid)
    if holder is not None:
        return _held_tap(state, holder, p, kind, cid)
    if not _in_game(state, kind, cid):
        raise RuleError("unknown_card", f"{name} is not in this game's deck (a module or solo card): put it "
                        "back in the box.")
    if drawn["seat"] not in (None, seat):
        drawn.update(new_drawn())
    if len(drawn[kind]) >= TAKE_LIMIT[kind]:
        raise RuleError("breaks_rule", f"One action takes at most {TAKE_LIMIT[kind]} {kind}; put {name} back.")
    drawn["seat"] = seat
    drawn[kind].append(cid)
    return [event(state, "drawn", f"{p['name']} takes {name}.")]


def _held_tap(state: dict, holder: dict, p: dict, kind: str, cid: str) -> list[dict]:
    name = state["cards"][kind][cid]["name"]
    if holder is not p:
        raise RuleError("unavailable", f"{name} is {holder['name']}'s card.")
    if cid in p["recipes_done"] or cid in p["activities_done"]:
        raise Quiet()                                     # a completed card tapped again: nothing to do
    done = _complete_by_tap(state, p["seat"], kind, cid)
    if done is not None:
        return done
    raise RuleError("waiting", f"{name} is not complete yet: place its food on it with a "
                    f"{'Recipes & Cook' if kind == 'recipes' else 'Activities & Work Out'} action, then tap it again.")


def _complete_by_tap(state: dict, seat: int, kind: str, cid: str) -> list[dict] | None:
    """Physical-first: a taken card tapped again with new food on the player's cards completes it (see
    :func:`inference.complete_by_tap`); None otherwise."""
    if not physical_first(state):
        return None
    from .inference import complete_by_tap
    return complete_by_tap(state, seat, kind, cid)


def take_drawn(state: dict, seat: int, action: str, kind: str, named: list[str]) -> list[str]:
    """The cards ``action`` takes: those named on the phone plus those tapped this turn."""
    drawn = state["drawn"]
    tapped = list(drawn[kind]) if drawn["seat"] == seat and TAKEN_BY[kind] == action else []
    drawn[kind] = [] if tapped else drawn[kind]
    return list(named) + [c for c in tapped if c not in named]


def check_nothing_drawn(state: dict, seat: int, action: str) -> None:
    """Refuse an action that would leave tapped cards untaken (they need their own action)."""
    drawn = state["drawn"]
    if drawn["seat"] != seat:
        return
    for kind, by in TAKEN_BY.items():
        if drawn[kind] and action != by:
            names = ", ".join(state["cards"][kind][c]["name"] for c in drawn[kind])
            raise RuleError("waiting", f"You tapped {names}: take {'them' if len(drawn[kind]) > 1 else 'it'} "
                            f"with {'Recipes & Cook' if by == 'cook' else 'Activities & Work Out'}, or tap "
                            "again to put it back.")


def _assistant(state: dict, reader: str, cid: str) -> list[dict]:
    from .rounds import choose_assistant, solo_choice
    if state["phase"] != "assistants":
        raise RuleError("not_now", "Assistants are chosen at the start of a round, not now.")
    queue = state["assistant_queue"]
    seat = _reader_seat(state, reader, queue[0])
    if len(state["players"]) > 1:
        return choose_assistant(state, seat, {"card": cid})
    drawn = state["drawn"]
    name = state["cards"]["assistants"][cid]["name"]
    if cid in drawn["assistants"]:
        drawn["assistants"].remove(cid)
        return [event(state, "put_back", f"{name} put back.")]
    wanted, allowed = solo_choice(state)
    picks = drawn["assistants"] + [cid]
    if len(picks) < wanted:                   # solo round 1 takes two: wait for the second tap
        if cid not in allowed:
            raise RuleError("breaks_rule", f"{name} cannot be picked now (you had it last round, or it "
                            "is not in the solo game).")
        drawn["assistants"] = picks
        return [event(state, "drawn", f"{name} chosen; tap {wanted - len(picks)} more.")]
    drawn["assistants"] = []
    return choose_assistant(state, seat, {"cards": picks})


def _goal(state: dict, cid: str) -> list[dict]:
    if not state["options"]["goals"]:
        raise RuleError("option_off", "The Goals module is not in this game.")
    if not physical_draws(state):
        raise RuleError("option_off", "This game chose its goals itself (draws: table).")
    if cid in state["goals"]:
        raise Quiet()
    if len(state["goals"]) >= rules.GOALS_IN_PLAY or state["over"]:
        raise RuleError("already_done", f"The {rules.GOALS_IN_PLAY} goals are already known: "
                        + ", ".join(state["cards"]["goals"][g]["name"] for g in state["goals"]) + ".")
    state["goals"].append(cid)
    return [event(state, "goal", f"Goal in play: {state['cards']['goals'][cid]['name']}.")]


def _revealed(state: dict, kind: str, cid: str) -> list[dict]:
    """A farmers market card (2 players: one of the 8 stands drawn at set-up) or an out-of-stock card
    (1-2 players: two revealed a round) tapped; tapping it again while it may still be chosen puts it back."""
    if not physical_draws(state):
        raise RuleError("option_off", "This game draws its market stands and out of stock cards itself (draws: table).")
    if kind == "market":
        return _market_card(state, cid)
    if len(state["players"]) > 2:
        raise RuleError("option_off", "Out of stock cards are for the solo and 2-player games: put it back in the box.")
    up, name = state["oos_up"], f"out of stock card {cid}"
    if not state["laying_out"]:
        raise RuleError("too_late", f"Out of stock cards are revealed at a round's start, before its first action: "
                        f"put {name} back.")
    if cid in up:
        up.remove(cid)
        state["oos_deck"].append(cid)
        _cover_out_of_stock(state)
        return [event(state, "put_back", f"{name.capitalize()} put back.")]
    if cid not in state["oos_deck"]:
        raise RuleError("already_done", f"{name.capitalize()} was used in an earlier round: it belongs in the box.")
    if len(up) >= rules.OUT_OF_STOCK_PER_ROUND:
        raise RuleError("breaks_rule", f"{rules.OUT_OF_STOCK_PER_ROUND} out of stock cards a round "
                        f"({', '.join(up)} are up): put {cid} back.")
    state["oos_deck"].remove(cid)
    up.append(cid)
    spaces = _cover_out_of_stock(state)
    return [event(state, "out_of_stock", f"Out of stock this round: shopping spaces {', '.join(spaces)} "
                  "(cover them with shopping tokens).")]


def _cover_out_of_stock(state: dict) -> list[str]:
    """The record's out-of-stock spaces: those the round's revealed cards mark."""
    covered = state["covered"]
    for space in [s for s, why in covered.items() if why == "out_of_stock"]:
        del covered[space]
    marked = sorted({s for c in state["oos_up"] for s in state["cards"]["out_of_stock"][c]["spaces"]
                     if s in state["shopping"]})
    covered.update(dict.fromkeys(marked, "out_of_stock"))
    return marked


def to_tap(state: dict) -> list[dict]:
    """Physical draws: the cards the group still has to reveal and tap before the round's first action,
    for the TV (rulebook, Playing with 2 Players: the 8 farmers market cards drawn at set-up, and with 1-2
    players the top 2 out of stock cards revealed each round, their spaces covered with shopping tokens).
    Each is ``{"kind", "tapped", "of", "cover"}`` (``cover``: the spaces the tapped cards mark so far)."""
    if not physical_draws(state) or not state["laying_out"] or state["over"] or state["phase"] == "cleanup":
        return []
    out, players = [], len(state["players"])
    known = len(state["market_cards"])
    if players == 2 and state["round"] == 1 and known < rules.TWO_PLAYER_MARKET_CARDS:
        out.append({"kind": "market", "tapped": known, "of": rules.TWO_PLAYER_MARKET_CARDS, "cover": []})
    up = len(state["oos_up"])
    if players <= 2 and state["oos_deck"] and up < rules.OUT_OF_STOCK_PER_ROUND:
        cover = sorted(s for s, why in state["covered"].items() if why == "out_of_stock")
        out.append({"kind": "out_of_stock", "tapped": up, "of": rules.OUT_OF_STOCK_PER_ROUND, "cover": cover})
    return out


def _market_card(state: dict, cid: str) -> list[dict]:
    cards, known = state["cards"]["market"], state["market_cards"]
    name = cards[cid]["name"]
    if len(state["players"]) != 2:
        raise Quiet()                     # every stand is in the game: nothing drawn, nothing to learn
    first = state["round"] == 1 and state["laying_out"]
    if cid in known:
        if not first:
            raise Quiet()
        known.remove(cid)
        state["market_up"] = [m for m in known if cards[m]["round"] == state["round"]]
        return [event(state, "put_back", f"Market stand {name} put back.")]
    if not first:
        raise RuleError("too_late", "The 2-player game's market stands are drawn at set-up, before the first action: "
                        f"{name} stays out of this game.")
    if len(known) >= rules.TWO_PLAYER_MARKET_CARDS:
        raise RuleError("breaks_rule", f"The 2-player game uses {rules.TWO_PLAYER_MARKET_CARDS} market cards; "
                        f"they are known already: put {name} back in the box.")
    known.append(cid)
    known.sort(key=lambda m: (cards[m]["round"], m))
    state["market_up"] = [m for m in known if cards[m]["round"] == state["round"]]
    return [event(state, "market_card", f"Market stand {name} (round {cards[cid]['round']}) is in this game "
                  f"({len(known)} of {rules.TWO_PLAYER_MARKET_CARDS}).")]


# ----------------------------------------------------------------------------- the main board
MAIN = "main"
DIE = "die"
#: The dice's two tracks on the main board: one die marks the shopping list's row, the other its column.
DIE_TRACKS = ("row", "col")
#: The camera's token set of the main board (``Game.tokens``): foods, dice and the player-colour markers.
MAIN_TOKENS = "main-board"
#: The camera's token set of a diet board (``Game.tokens``): the foods and the player's own action markers.
DIET_TOKENS = "diet-board"


#: Main board action spaces whose markers the camera reads (``action.<space>.<n>`` holding ``marker<seat>``).
MAIN_SPACES = ("shop", "market", "pizza", "buffet")


def marker(seat: int) -> str:
    """The token of seat ``seat``'s action markers on the main board (the player's colour)."""
    return f"marker{seat}"


def space_markers(state: dict) -> dict:
    """Which seats' markers stand on each main board action space, by the record."""
    spaces = state["spaces"]
    market = [p["seat"] for p in state["seats"].values() for _ in range(p["market_visits"])]
    pizza = ([spaces["pizza"]] if spaces["pizza"] is not None else []) + spaces.get("pizza_beside", [])
    return {"shop": list(spaces["shop"]), "market": market, "pizza": pizza,
            "buffet": [s for s in spaces["buffet"] if s is not None]}


def main_in_play(state: dict) -> bool:
    """Whether the camera's ``main`` board (dice, dining out) feeds this game."""
    return physical_draws(state) or state["options"]["dice"] == "camera" or physical_first(state)


def main_slots(state: dict) -> dict:
    """What the record puts on the main board: the dice of the current shopping, the dining-out tokens."""
    camera = state["options"]["dice"] == "camera"          # other dice are never laid on the tracks for the camera
    out = {f"die.{track}.{d}": DIE for track, d in zip(DIE_TRACKS, state["dice"] if camera and state["dice"] else [])}
    if physical_first(state):
        for space, seats in space_markers(state).items():
            out.update({f"action.{space}.{n}": marker(s) for n, s in enumerate(seats, 1)})
    out.update({f"pizza.{n}": f for n, f in enumerate(state["pizza"], 1)})
    for r, row in enumerate(state["buffet"], 1):
        out.update({f"buffet.{r}.{n}": f for n, f in enumerate(row, 1)})
    return out


def check_main_slot(state: dict, slot: str, token) -> None:
    """Refuse a slot the main board does not have, or a token that cannot lie there."""
    parts = slot.split(".")
    main = state["main"]
    nums = [int(x) for x in parts[1:] if x.isdigit()]
    if parts[0] == "action" and len(parts) == 3 and parts[1] in MAIN_SPACES and nums:
        if token is not None and token not in {marker(int(s)) for s in state["seats"]}:
            raise RuleError("bad_argument", f"An action space holds a player's marker (marker<seat>), not {token!r}.")
        return
    if parts[0] == "die" and len(parts) == 3 and parts[1] in DIE_TRACKS and nums and 1 <= nums[0] <= rules.DIE_FACES:
        if token not in (None, DIE):
            raise RuleError("bad_argument", f"A die space holds {DIE!r} or null, not {token!r}.")
        return
    ok = (parts[0] == "pizza" and len(parts) == 2 and len(nums) == 1 and 1 <= nums[0] <= main["pizza_spaces"]) or (
        parts[0] == "buffet" and len(parts) == 3 and len(nums) == 2 and 1 <= nums[0] <= main["buffet_rows"]
        and 1 <= nums[1] <= main["buffet_row_spaces"])
    if not ok:
        raise RuleError("unknown_card", f"The main board has no slot {slot!r}: slots are die.row.<1-6>, "
                        "die.col.<1-6>, pizza.<n>, buffet.<row>.<n>.")
    if token is not None and token not in state["foods"]:
        raise RuleError("unknown_card", f"{token!r} in {slot} is not a food token.")


def dice_on_tracks(seen: dict) -> dict[str, list[int]]:
    """Per die track, the values of the spaces the main board's slots ``seen`` show a die on."""
    return {track: [int(s.rsplit(".", 1)[1]) for s, t in seen.items() if s.startswith(f"die.{track}.") and t == DIE]
            for track in DIE_TRACKS}


def dice_seen(seen: dict) -> list[int] | None:
    """The roll the main board's slots ``seen`` show, lowest first: one die on the row track and one on the
    column track (a double is both on the same value); None while a track shows no die or more than one
    (a die in a hand, or one the camera could not read)."""
    faces = dice_on_tracks(seen).values()
    return sorted(f[0] for f in faces) if all(len(f) == 1 for f in faces) else None


def dining_seen(state: dict, seen: dict) -> tuple[list[str], list[list[str]]]:
    """The Pizza To Go tokens and each buffet row's, as the main board's slots ``seen`` hold them."""
    main = state["main"]
    pizza = [seen.get(f"pizza.{n}") for n in range(1, main["pizza_spaces"] + 1)]
    buffet = [[seen.get(f"buffet.{r}.{n}") for n in range(1, main["buffet_row_spaces"] + 1)]
              for r in range(1, main["buffet_rows"] + 1)]
    return [f for f in pizza if f], [[f for f in row if f] for row in buffet]


def dining_problems(state: dict, seen: dict) -> list[str]:
    """Why the dining-out tokens the camera sees cannot be a fresh lay-out (empty: they can).

    Rulebook, set-up and clean-up step 5: a Fats & Oils token from the supply goes on its Pizza To
    Go space and every other Pizza To Go space and every Chinese Buffet space gets a token from the
    bag, which holds 10 of each food (the main board data) less those laid out in earlier rounds.
    So a space read empty (or unsure: the camera leaves it out), a row short of tokens, or more of a
    food than the bag still holds is a reading to check, not the table."""
    main = state["main"]
    out = []
    pizza = [seen.get(f"pizza.{n}") for n in range(1, main["pizza_spaces"] + 1)]
    if pizza[0] != main["pizza_fixed"]:
        shows = food_name(state, pizza[0]) if pizza[0] else "nothing"
        out.append(f"Pizza To Go's first space shows {shows}, not the {food_name(state, main['pizza_fixed'])} token")
    empty = [f"Pizza To Go space {n}" for n, f in enumerate(pizza, 1) if f is None and n > 1]
    for r in range(1, main["buffet_rows"] + 1):
        empty += [f"buffet row {r} space {n}" for n in range(1, main["buffet_row_spaces"] + 1)
                  if seen.get(f"buffet.{r}.{n}") is None]
    if empty:
        out.append("nothing seen on " + ", ".join(empty))
    drawn = Counter(pizza[1:]) + Counter(seen.get(f"buffet.{r}.{n}") for r in range(1, main["buffet_rows"] + 1)
                                         for n in range(1, main["buffet_row_spaces"] + 1))
    return out + _beyond_bag(state, drawn)


def _beyond_bag(state: dict, drawn: Counter) -> list[str]:
    """The foods of which ``drawn`` (the tokens laid out from the bag this round) holds more than the
    bag had: 10 of each food (the main board data) less those laid out in earlier rounds."""
    used = Counter(state.get("bag_used", {}))
    back = Counter(state["bag"])                        # put in the bag by an ability since
    out = []
    for food, n in sorted((f, n) for f, n in drawn.items() if f):
        left = state["main"]["bag_per_food"] - used[food] + back[food]
        if n > left:
            out.append(f"{n} {food_name(state, food)} tokens, but the bag holds {max(left, 0)} more")
    return out


def _nobody_dined(state: dict, seen: dict) -> bool:
    spaces = state["spaces"]
    return spaces["pizza"] is None and all(s is None for s in spaces["buffet"]) and not any(
        s.startswith(("action.pizza.", "action.buffet.")) for s in seen)


def _dining_reading(state: dict, seen: dict) -> list[dict]:
    """The dining-out tokens laid out, read: taken when they can be a lay-out, else held as unsure
    (the TV says what the camera could not see) until a later reading settles or a person confirms."""
    problems = dining_problems(state, seen) if len(state["players"]) > 1 else []
    pizza, buffet = dining_seen(state, seen)
    if problems:
        unsure = {"problems": problems, "pizza": pizza, "buffet": buffet}
        if unsure == state.get("dining_unsure"):
            return []
        state["dining_unsure"] = unsure
        return [event(state, "dining_unsure", "The camera cannot take dining out as laid out: " + "; ".join(problems)
                      + ". Straighten those tokens, or the host (or the player whose turn it is) confirms dining "
                      "out as it lies.")]
    settled = bool(state.get("dining_unsure"))
    state["dining_unsure"] = None
    return _lay_out(state, pizza, buffet, force=settled)


def _lay_out(state: dict, pizza: list[str], buffet: list[list[str]], force: bool = False, how: str = "") -> list[dict]:
    """Record the dining-out tokens laid out this round (those drawn from the bag are counted at the clean-up)."""
    if (pizza, buffet) == (state["pizza"], state["buffet"]) and not force:
        return []
    state["pizza"], state["buffet"] = pizza, buffet
    state["laid_out"] = dict(sorted((Counter(pizza[1:]) + Counter(f for row in buffet for f in row)).items()))
    return [event(state, "laid_out", "Dining out laid out" + how + ": Pizza To Go " + (", ".join(pizza) or "empty")
                  + "; buffet " + "; ".join(", ".join(r) or "empty" for r in buffet) + ".")]


def dining_place(state: dict, body: dict) -> str:
    """The words for the dining-out space of ``body`` (a ``pizza`` or ``buffet`` action)."""
    return "Pizza To Go" if body["action"] == "pizza" else f"buffet row {body['row']}"


def relay(state: dict, body: dict) -> list[dict]:
    """Correct the record's lay-out of ``body``'s dining-out space to ``body["laid"]``, the foods that
    really lay there: the player who dined there has them in their body, where the camera sees them
    now, while the lay-out's reading took another food for one of them (meat read as fats passes
    :func:`dining_problems`: a possible lay-out).  Rulebook, Dining Out: the player takes *all* the
    space's tokens into their body, so the tokens that arrived are the ones that lay there.  Refused
    when the foods cannot have been laid out (the Fats & Oils of Pizza To Go, more than the bag held)."""
    laid, place = list(body["laid"]), dining_place(state, body)
    old = state["pizza"] if body["action"] == "pizza" else state["buffet"][body["row"] - 1]
    main = state["main"]
    if len(laid) != len(old) or (body["action"] == "pizza" and laid[:1] != [main["pizza_fixed"]]):
        raise RuleError("breaks_rule", f"{place.capitalize()} held {len(old)} tokens as laid out; it cannot have held "
                        + ", ".join(laid) + ".")
    fixed = 1 if body["action"] == "pizza" else 0
    drawn = Counter(state.get("laid_out", {})) - Counter(old[fixed:]) + Counter(laid[fixed:])
    problems = _beyond_bag(state, drawn)
    if problems:
        raise RuleError("breaks_rule", f"{place.capitalize()} cannot have held " + ", ".join(laid) + ": "
                        + "; ".join(problems) + ".")
    if body["action"] == "pizza":
        state["pizza"] = laid
    else:
        state["buffet"][body["row"] - 1] = laid
    state["laid_out"] = dict(sorted(drawn.items()))
    return [event(state, "relaid", f"{place.capitalize()} held {', '.join(food_name(state, f) for f in laid)}: the "
                  f"camera had read {', '.join(food_name(state, f) for f in old)} when it was laid out; the record "
                  "now follows the tokens in the diner's body.")]


def dining_as_seen(state: dict, seat: int | None) -> list[dict]:
    """One tap (the host, or the player whose turn it is): the dining-out tokens are as the camera last
    read them while they lay untouched, though that cannot be a full lay-out (the bag ran short, a token
    fell off the table)."""
    unsure = state.get("dining_unsure")
    if not unsure:
        raise RuleError("already_done", "The table has nothing to ask about dining out: the camera's reading was taken.")
    if seat is not None and seat != state["turn"]:
        raise RuleError("not_your_turn", f"{state['seats'][str(state['turn'])]['name']} or the host confirms dining out.")
    state["dining_unsure"] = None
    return _lay_out(state, unsure["pizza"], unsure["buffet"], force=True, how=" (confirmed as the camera saw it)")


def check_dining_settled(state: dict) -> None:
    """Refuse dining out while the camera's reading of the dining-out tokens waits for a person."""
    unsure = state.get("dining_unsure")
    if unsure:
        raise RuleError("waiting", "The table has not taken the dining-out tokens yet (" + "; ".join(unsure["problems"])
                        + "): straighten them, or confirm dining out as it lies first.")


def main_reading(state: dict, seen: dict) -> list[dict]:
    """The camera's view of the main board: the dice of a shopping trip waiting for them, and the
    dining-out tokens while they are being laid out (before a round's first action; while the camera
    could not take them, until somebody dines out)."""
    events = []
    pend = state["pending"]
    if pend is not None and pend["action"] == "dice":
        faces = dice_seen(seen)
        if faces:
            state["dice"] = faces
            state["pending"] = {"action": "buy", "seat": pend["seat"]}
            p = state["seats"][str(pend["seat"])]
            events.append(event(state, "dice", f"{p['name']} rolled {state['dice'][0]} and {state['dice'][1]} "
                                "(read by the camera).", dice=list(state["dice"])))
    acting = any(s.startswith("action.") for s in seen)        # a marker is down: dining out is being eaten
    if physical_draws(state) and ((state["laying_out"] and not acting)
                                  or (state.get("dining_unsure") and _nobody_dined(state, seen))):
        events += _dining_reading(state, seen)
    return events
