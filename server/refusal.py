"""The one shape of every refusal, and the one catalogue of refusal codes.

Whatever refuses an input (the protocol check, the tokens, the table, a game's
moves), the input changed nothing and the caller gets ``{"code", "message"}``.
The code is one of :data:`CATALOGUE` (a test fails on any other); the message
says, in words a player understands, what was wrong and what to do.
"""

#: Every refusal code, with when it is used.  Games share the codes under "A game's moves";
#: the message, not the code, carries what is particular to one game.
CATALOGUE: dict[str, str] = {
    # --- the protocol and the web (before anything reaches the table) ---
    "bad_input": "The input is not a well-formed protocol object (a field missing, of the wrong "
                 "type, or unknown); the message names the field.",
    "bad_json": "The request body or script line is not valid JSON.",
    "unknown_kind": "The input is none of new_game, tap, lift, button, board, host, seat.",
    "unknown_reader": "The reader named is not one of seat-1..seat-8, center, table.",
    "too_large": "The input is larger than the table accepts.",
    "host_token_needed": "Only the host page (with the host token) may send this.",
    "seat_token_needed": "A seat action needs that seat's token (from its QR code).",
    "no_such_seat": "The seat asked for is not at this table.",
    "not_found": "There is no such page or API endpoint.",
    "method_not_allowed": "The endpoint does not take that HTTP method.",
    "http_error": "Another HTTP error; the message says which.",
    "bad_limit": "A query parameter of an API endpoint is out of range.",
    "bad_key": "An input's idempotency key is not 8 to 80 letters, digits or _ . : -.",
    "no_such_game": "The history has no finished game at that journal row.",
    "bad_player": "The history has no player with that id.",
    "too_many_tries": "Too many wrong tokens from one device: its tokens are not looked at for a while.",
    "too_many_refusals": "Too many refused inputs from one device: its inputs wait a moment.",
    "bad_content_type": "An input sent without the application/json content type.",
    # --- joining: phones and screens ---
    "display_token_needed": "A seat code or join code asked for by a screen the host has not paired.",
    "not_joined": "A phone that has not joined the table (or was forgotten by the host).",
    "bad_seat": "A seat number that is not 1 to 8 (or none).",
    "not_in_game": "A player who is not in the running game.",
    "no_such_device": "No remembered phone or TV has that number.",
    "pairing_expired": "A screen pairing code that has expired.",
    "no_such_pairing": "No screen is showing that pairing code.",
    "bad_join_code": "A join code that is not the table's.",
    "bad_host_code": "A host code already used or not the table's.",
    "host_code_used": "The lobby's host code was used; the host can show a new one.",
    "bad_sound": "A sound setting the table does not take.",
    "no_line": "A narrator line the table does not have.",
    "no_voice": "A spoken narrator line while espeak-ng is not installed (captions only).",
    # --- the enrolment, simulator and camera pages ---
    "no_sitting": "An enrolment step before a card set was chosen.",
    "bad_answer": "An enrolment answer that is not {\"move\": true|false}.",
    "no_simulated_reader": "The simulator has no reader of that name.",
    "camera_off": "The camera is not running.",
    "camera_starting": "The camera is still starting (it comes up a few seconds after the table).",
    "bad_seconds": "A camera stream length that is not a number above 0 within the limit.",
    "unknown_board": "A camera page names a board the camera does not watch.",
    "board_not_found": "The board's markers are not in the camera's view.",
    "bad_layout": "A board layout that is not a valid layout object.",
    "markers_not_found": "Calibration found too few of the board's markers.",
    "capture_failed": "A calibration capture could not be taken.",
    "empty_first": "Token calibration before the empty board was captured.",
    "unknown_step": "A calibration step that does not exist.",
    "not_calibrated": "The camera self-test asks for a board without its empty board or token colours captured.",
    "bad_plan": "A self-test plan that is not an object of the board's slots and calibrated token types.",
    "bad_count": "A self-test plan's token count that is not a whole number from 1 to the board's slots.",
    "bad_types": "Self-test token types that are not a list of the board's calibrated types.",
    "no_types": "A self-test plan with no token type chosen.",
    "bad_seed": "A self-test plan's seed that is not a whole number.",
    "no_plan": "A self-test reading (or laying) before a plan was made for that board.",
    "board_busy": "A self-test reading while something stays over the board.",
    "board_in_play": "A camera self-test on a board the running game watches.",
    "not_simulated": "Tokens laid through the API on a table whose camera is not the simulated one.",
    "bad_simulation": "A simulated camera change that is not lay_plan, slots or hand.",
    "no_frame": "The calibrate page's lens step got no new picture from the camera in time.",
    "sheet_not_seen": "A lens view in which the camera sees too few of the ChArUco sheet's corners.",
    "same_place": "A lens view with the sheet where an earlier view already has it.",
    "lens_refused": "The lens is not calibrated from the views taken (too few, or bunched in one part).",
    # --- the table (session, journal, tags) ---
    "no_game": "No game is running, so there is nothing to apply the input to.",
    "unknown_game": "new_game names a game the table does not have.",
    "player_count": "The game is not for that many players.",
    "bad_option": "A new_game option is unknown or has a value the game does not take.",
    "bad_data": "A game's data (card files) cannot be used; the message names the file.",
    "nothing_to_undo": "Undo with no input left to undo.",
    "unknown_tag": "A tag UID that is enrolled to no card.",
    "busy": "The table did not answer in time; the input was withdrawn, never applied.",
    "queued": "The input is queued but its outcome is not known yet; ask again with its key.",
    "journal_failed": "The journal could not be written, so the input was not applied.",
    "halted": "A refold met a journaled input that no longer applies: the table takes only the "
              "host's skip_input, undo or a new game until then.",
    "internal_error": "A fault inside a game's rules; the input was not applied and is listed "
                      "for the host.",
    # --- a game's moves (shared by every game) ---
    "unknown_move": "The game has no such action or button (or takes no input of that kind).",
    "game_over": "The game is over; only the moves declared for the end are still taken.",
    "not_now": "A move of this game, but not in the current phase; the message says when.",
    "not_your_turn": "The move is the game's, and legal now, but not for this player.",
    "empty_seat": "Nobody sits at the seat the input is for.",
    "bad_argument": "An argument is missing, of the wrong type or out of range; the message "
                    "names it and what it takes.",
    "not_this_game": "A card of another game (or no card of any game).",
    "unknown_card": "A card, token, board or other game item this game does not have, or that "
                    "is not in play in this game.",
    "wrong_reader": "The card was tapped on a reader where it does not belong now.",
    "unavailable": "The card, space or item exists but cannot be used now (set aside, taken, "
                   "already revealed, empty, full).",
    "already_done": "The same thing was already done (laid, asked, chosen, used) and is done once.",
    "waiting": "Something else must happen first (answers locked, guesses in, questions asked).",
    "too_late": "A correction of something the players have already seen revealed.",
    "option_off": "The move needs an option or module this game was started without.",
    "breaks_rule": "The move breaks one of the game's rules; the message names the rule.",
    "wrong_action": "The player used an ability this turn that serves another action (Food for Thought's "
                    "during:<action> abilities): only that action may follow.",
}


class Refusal(Exception):
    """An input that was refused; ``code`` is from :data:`CATALOGUE`, ``message`` is for people."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self, audience: str = "table") -> dict:
        """The refusal as sent to ``audience``."""
        return {"code": self.code, "message": self.message}
