// The sim page's own script (web/sim.html); kept out of the page so the
// Content-Security-Policy needs no 'unsafe-inline' for scripts.
const { h, act } = TofuTable;
const $ = (id) => document.getElementById(id);
let cardsByGame = {};
let layoutKey = "";
const lying = {};     // reader -> the tags on it, as the server has them: [{uid, card}]
const labels = {};    // card id -> the name the pads show

const nameOf = (card) => labels[card] || card || "a tag the table does not know";

// put a card on a simulated reader, or take it off, through the reader hub; the answer says what lies there now
async function reader(name, action, card) {
  try {
    const r = await fetch("/api/readers/" + name + "/" + action, { method: "POST",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(card ? { card } : {}) });
    const body = await r.json();
    if (!r.ok) TofuTable.notice($("notices"), body.error.message);
    else show(body.lying);
    return r.ok;
  } catch (e) {
    TofuTable.notice($("notices"), "The table is not answering.");
    return false;
  }
}

// what lies on every reader, from the server (after a reload too)
async function refreshReaders() {
  const r = await TofuTable.api("/api/readers");
  if (r.ok) r.body.readers.forEach(show);
}

// one reader's status line: its card by name, or a collision the table cannot read
function show(rd) {
  lying[rd.name] = rd.tags;
  const status = document.querySelector(`[data-reader="${rd.name}"] .on`);
  if (!status) return;
  status.classList.toggle("collision", rd.collision);
  status.textContent = rd.collision
    ? "\u26A0 Collision: " + rd.tags.map((t) => nameOf(t.card)).join(" and ") + " lie here at once, so the table reads neither. Lift them and tap one."
    : rd.tags.length ? "On the reader: " + nameOf(rd.tags[0].card) : "";
}

// a refusal shows once: the table's own come as the `refused` event, act() shows the rest
$("advance").onclick = () => act({ button: { name: "advance" } });
$("undo").onclick = () => act({ button: { name: "undo" } });

// A pad: the cards this reader is meant for first, by name (the rest after them, for trying mistakes).
function pad(name, title, offered, cards) {
  const mine = new Set(offered.map(([card]) => card));
  const others = cards.filter((c) => !mine.has(c));
  const select = h("select", { "aria-label": "card for " + name },
    offered.length ? h("optgroup", { label: "Cards for this reader" },
      ...offered.map(([card, label]) => h("option", { value: card }, label))) : null,
    others.length ? h("optgroup", { label: "Other cards (the table may refuse them here)" },
      ...others.map((c) => h("option", { value: c }, nameOf(c)))) : null);
  const on = () => (lying[name] || []).map((t) => t.card);
  const tap = h("button", { onclick: async () => {
    if (on().length === 1 && on()[0] === select.value) {
      return TofuTable.notice($("notices"), "The " + nameOf(select.value) + " is already on " + name + ": lift it first.", "info");
    }
    if (on().length) await reader(name, "remove");
    await reader(name, "place", select.value);
  } }, "Tap");
  const add = h("button", { class: "secondary", title: "lay it beside the card already there", onclick: () => reader(name, "place", select.value) },
    "Add beside");
  const lift = h("button", { class: "secondary", onclick: () => reader(name, "remove") }, "Lift");
  return h("div", { class: "panel pad", "data-reader": name }, h("b", {}, title), select, h("div", {}, tap, " ", add, " ", lift),
    h("div", { class: "on", role: "status" }));
}

async function render(view) {
  document.body.dataset.seq = view.seq;   // which state the page shows (the browser tests wait on it)
  $("game").textContent = view.game_name ? "· " + view.game_name : "";
  $("prompt").textContent = view.prompt;
  const cards = cardsByGame[view.game] || [];
  const seats = view.players.length ? view.players.map((p) => p.seat) : [1, 2, 3, 4];
  const key = view.game + ":" + view.game_seq + ":" + seats.join(",");
  if (key !== layoutKey) {
    layoutKey = key;
    if (view.game && cards.length === 0) {
      $("readers").replaceChildren(h("p", { class: "muted" }, view.game_name + " uses no tagged cards: play it from the seat and host pages (and the camera)."));
      return;
    }
    const game = await TofuTable.loadGame(view.game);
    const pads = game.pads ? game.pads(view, cards) : {};
    Object.values(pads).flat().forEach(([card, label]) => { labels[card] = labels[card] || label; });
    const names = Object.fromEntries(view.players.map((p) => [p.seat, p.name]));
    const readers = [...seats.map((s) => "seat-" + s), "center", "table"];
    $("readers").replaceChildren(...readers.map((r) => {
      const seat = Number(r.split("-")[1]);
      return pad(r, names[seat] ? r + " (" + names[seat] + ")" : r, pads[r] || pads["*"] || [], cards);
    }));
  }
  refreshReaders();
}

// the simulated camera's picture, refreshed while it answers; hidden when there is no camera
function refreshCamera() {
  const img = new Image();
  img.onload = () => { $("camera").src = img.src; $("camera-area").hidden = false; setTimeout(refreshCamera, 700); };
  img.onerror = () => { $("camera-area").hidden = true; setTimeout(refreshCamera, 5000); };
  img.src = "/api/camera/frame.jpg?t=" + Date.now();
}
refreshCamera();

fetch("/api/games").then((r) => r.json()).then((list) => {
  cardsByGame = Object.fromEntries(list.map((g) => [g.id, g.cards]));
  TofuTable.connect({
    audience: "table",
    onState: render,
    onRefused: (r) => TofuTable.notice($("notices"), r.message),
    onStatus: (up, reason) => { $("banner").classList.toggle("show", !up); $("banner").textContent = up ? "" : reason; },
  });
});
