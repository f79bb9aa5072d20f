// The seat page's own script (web/seat.html); kept out of the page so the
// Content-Security-Policy needs no 'unsafe-inline' for scripts.
// Two ways in: a remembered phone (its own token in localStorage, from /join) follows its player to
// whatever seat that player has in the running game; the host's link /seat/N?token=... opens seat N
// for this game only.
const { h } = TofuTable;
const $ = (id) => document.getElementById(id);
const linkSeat = new URLSearchParams(location.search).get("token") ? Number(location.pathname.split("/")[2]) : null;
let seat = linkSeat;

function render(view) {
  document.body.dataset.seq = view.seq;   // which state the page shows (the browser tests wait on it)
  seat = view.audience.startsWith("seat-") ? Number(view.audience.slice(5)) : null;
  const me = view.players.find((p) => p.seat === seat);
  $("who").textContent = me ? me.name + " (seat " + seat + ")" : "Your seat";
  $("score").textContent = me ? "Your score: " + me.score : "";
  const recent = (view.last_events || []).slice(-3);
  $("events").replaceChildren(...recent.map((t) => h("li", {}, t)));
  $("table-events").hidden = !recent.length;   // no empty "Table" heading before anything has happened
  if (!me) return waiting(view);
  $("prompt").textContent = view.prompt;
  drawGame(view);
}

// The game's own phone part; a game that has none is played from its declared seat moves.
let described = null;   // GET /api/games, once
async function drawGame(view) {
  if (await TofuTable.renderGame("seat", view, $("game-area"))) return;
  described = described || TofuTable.api("/api/games");
  const r = await described;
  if (!r.ok) described = null;   // asked again with the next state
  const game = r.ok ? r.body.find((g) => g.id === view.game) : null;
  TofuMoveForm.show(view, game, $("game-area"), seat);
}

// Between games, or when this phone's player is not playing: say so, and offer to change who it is.
async function waiting(view) {
  $("game-area").replaceChildren(h("p", {}, h("a", { href: "/join" }, "Not you? Change who this phone is.")));
  if (linkSeat) {   // the host's link opened a seat of one game: it knows no player to follow
    $("who").textContent = "Your seat";
    $("prompt").textContent = "This seat link was for one game. Join the table to follow your player into every game.";
    return;
  }
  const r = await TofuTable.api("/api/devices/me");
  const name = r.ok && r.body.device.player;
  $("who").textContent = name || "Your seat";
  if (name) $("game-area").append(h("p", {}, h("a", { href: "/history" }, "Your games and tonight's standings")));
  $("prompt").textContent = !name ? "Tell the table who you are." :
    view.game && !view.over ? name + " is not in this game: you can watch the TV, and your phone comes back " +
                              "to life when a game with " + name + " starts." :
    "Waiting for the host to start a game with " + name + " in it.";
}

// a refusal out of sight is no answer: the page scrolls up to its notice (under the prompt)
new MutationObserver(() => {
  if ($("notices").querySelector(".refusal")) $("notices").scrollIntoView({ block: "nearest" });
}).observe($("notices"), { childList: true });

if (!TofuTable.token) {
  $("prompt").textContent = "This phone has not joined the table yet.";
  $("game-area").replaceChildren(h("p", {}, h("a", { href: "/join", class: "button" }, "Join the table")));
} else TofuTable.connect({
  audience: linkSeat ? "seat-" + linkSeat : "seat",
  onState: render,
  // one notice at a time (six "Locked ..." in a row read as the newest), and a refusal told to
  // this seat in its own words (the detail), not the TV's "your seat page says why"
  onEvent: (ev) => { if (ev.seat === seat) TofuTable.notice($("notices"), ev.text, "info"); },
  onRefused: (r) => TofuTable.notice($("notices"), r.detail || r.message),
  onReauth: (m) => { $("prompt").textContent = m.message; $("game-area").replaceChildren(); },
  onStatus: (up, reason) => {
    $("banner").classList.toggle("show", !up);
    $("banner").textContent = up ? "" : reason;
  },
});
