// The host page's own script (web/host.html); kept out of the page so the
// Content-Security-Policy needs no 'unsafe-inline' for scripts.
const { h, act } = TofuTable;
const $ = (id) => document.getElementById(id);
const auth = { headers: { Authorization: "Bearer " + (TofuTable.token || "") } };
let gamesById = {};
let current = null;   // the newest host view

// Refusals reach this page once, as the `refused` event (the host sees every refusal); TofuTable.act
// shows an answer's refusal only when no event will come (the table is not answering, or busy).
$("advance").onclick = () => act({ button: { name: "advance" } });
$("undo").onclick = () => act({ host: { action: "undo" } });
$("skip-input").onclick = () => act({ host: { action: "skip_input" } });
// Undo names what it will take back; the card or value it carried only once the host asks
function showUndo(undo) {
  $("undo").disabled = !undo;
  const secret = undo && undo.secret && $("secrets").open ? ": " + undo.secret : "";
  $("undo").textContent = undo ? "Undo: " + undo.text + secret : "Nothing to undo";
}
// opening "answers and corrections" shows secrets everywhere on the page: Undo's card, the journal's values
$("secrets").ontoggle = () => { showUndo(current && current.undo); refreshJournal(); };
// the TV's sound: muted or not, and how loud
async function setSound() {
  const r = await TofuTable.api("/api/sound", { method: "POST",
    body: { muted: $("mute").checked, volume: Number($("volume").value) } });
  if (!r.ok) TofuTable.notice($("notices"), r.body.error.message);
}
$("mute").onchange = setSound;
$("volume").onchange = setSound;
TofuTable.api("/api/sound").then((r) => { if (r.ok) { $("mute").checked = r.body.muted; $("volume").value = r.body.volume; } });
$("end").onclick = () => { if (confirm("End the running game?")) act({ host: { action: "end_game" } }); };
$("send-raw").onclick = () => {
  let input;
  try { input = JSON.parse($("raw").value); } catch (e) {
    return TofuTable.notice($("notices"), "That is not valid JSON: " + e.message);
  }
  act(input);
};

function optionField(o) {
  const id = "opt-" + o.name;
  let field;
  if (o.choices) field = h("select", { id }, ...o.choices.map((c) => h("option", { value: JSON.stringify(c), selected: c === o.default }, String(c))));
  else if (o.type === "bool") field = h("input", { id, type: "checkbox", checked: o.default === true });
  else if (o.type === "int") field = h("input", { id, type: "number", min: o.minimum, max: o.maximum,
                                                  value: o.default ?? "", placeholder: o.default_by_players ? "by player count" : "" });
  else field = h("input", { id, value: o.default ?? "" });
  return h("p", {}, h("label", {}, o.description + " ", field));
}
function readOptions(game) {
  const out = {};
  for (const o of game.options) {
    const el = $("opt-" + o.name);
    if (o.choices) out[o.name] = JSON.parse(el.value);
    else if (o.type === "bool") out[o.name] = el.checked;
    else if (o.type === "int") { if (el.value !== "") out[o.name] = Number(el.value); }
    else out[o.name] = el.value;
  }
  return out;
}
async function loadGames() {
  const list = await (await fetch("/api/games")).json();
  gamesById = Object.fromEntries(list.map((g) => [g.id, g]));
  if (current) TofuMoveForm.show(current, gamesById[current.game], $("correction"));
  showOwnerParts(current);
  $("ng-game").replaceChildren(...list.map((g) => h("option", { value: g.id }, `${g.name} (${g.min_players}-${g.max_players} players)`)));
  showOptions();
}
function showOptions() {
  const g = gamesById[$("ng-game").value];
  $("ng-options").replaceChildren(...(g ? g.options.map(optionField) : []));
}
$("ng-game").onchange = showOptions;
// the roster: tap a player from earlier games to add them (a new name typed above joins the roster)
async function loadRoster() {
  const r = await fetch("/api/players", auth);
  if (!r.ok) return;
  const add = (name) => {
    const names = $("ng-players").value.split("\n").map((s) => s.trim()).filter(Boolean);
    if (!names.some((n) => n.toLowerCase() === name.toLowerCase())) $("ng-players").value = [...names, name].join("\n");
  };
  $("ng-roster").replaceChildren(...(await r.json()).players.map((p) => h("button", { type: "button", class: "secondary",
    onclick: () => add(p.name) }, TofuTable.avatar(p.colour, p.avatar), " " + p.name)));
}
$("new-game").onsubmit = (e) => {
  e.preventDefault();
  if (current && current.game && !current.over &&
      !confirm("A game of " + current.game_name + " is still running. Starting a new game ends it: start anyway?")) return;
  const game = gamesById[$("ng-game").value];
  const players = $("ng-players").value.split("\n").map((s) => s.trim()).filter(Boolean);
  const seed = $("ng-seed").value.trim();
  act({ new_game: { game: game.id, players, ...(seed === "" ? {} : { seed: Number(seed) }), options: readOptions(game) } })
    .then(loadRoster);
};

// "the host's choice: elephant" -> "The host's choice: elephant" (values only when secrets are shown)
function sentence(d) {
  const text = d.text + (d.secret && $("secrets").open ? ": " + d.secret : "");
  return text.charAt(0).toUpperCase() + text.slice(1) + ".";
}
$("raw-journal").onchange = () => refreshJournal();
function when(t) { return t ? new Date(t * 1000).toLocaleTimeString() : "never"; }
async function refreshJournal() {
  const r = await fetch("/api/journal?limit=40", auth);
  if (!r.ok) return;
  const j = await r.json();
  const raw = $("raw-journal").checked;
  $("journal").replaceChildren(h("tr", {}, h("th", {}, "#"), h("th", {}, "time"), h("th", {}, "what")),
    ...j.inputs.map((row) => h("tr", { class: row.undone ? "muted" : "" }, h("td", {}, row.id), h("td", {}, when(row.at)),
      h("td", {}, (row.undone ? "(undone) " : "") + (raw ? JSON.stringify(row.input) :
        sentence(row.described) + " (from " + (row.source || "?").split(":")[0] + ")")))));
  // refusals in words, naming no card (the reason's private detail too only when secrets are shown);
  // what was sent, by code, only under Advanced
  const detail = (row) => (row.detail ? " (" + row.detail + ")" : "");
  const recent = j.refusals.slice(0, 15);
  const said = (row) => h("tr", {}, h("td", {}, when(row.at)),
    h("td", {}, sentence(row.described), " Refused: ", row.message, $("secrets").open ? detail(row) : ""));
  $("refusals").replaceChildren(...(recent.length ? recent.map(said)
    : [h("tr", {}, h("td", { class: "muted" }, "Nothing refused yet."))]));
  const counts = (j.refusal_counts || []).map((c) => `${c.code} (${c.source}) ×${c.count}`).join(", ");
  $("refusals-raw").replaceChildren(...(counts ? [h("tr", {}, h("td", { colspan: 3, class: "muted" }, "All refusals: " + counts))] : []),
    ...recent.map((row) => h("tr", {}, h("td", {}, when(row.at)),
    h("td", {}, h("b", {}, row.code), " ", row.message, detail(row)), h("td", { class: "muted raw" }, row.input))));
}
async function refreshHealth() {
  try {
    const hs = await (await fetch("/api/health")).json();
    const rows = [];
    for (const kind of ["table", "readers", "buttons", "camera", "journal", "screens"])
      for (const r of hs[kind] || [])
        // what and which in one cell ("readers: seat-2"), so the table fits a phone
        rows.push(h("tr", {}, h("td", {}, r.name === kind ? kind : kind + ": " + r.name), h("td", { class: "status-" + r.status }, r.status),
                    h("td", {}, r.detail || ""), h("td", { class: "muted" }, when(r.last_seen))));
    $("health").replaceChildren(...(rows.length ? rows : [h("tr", {}, h("td", {}, hs.simulate ? "Simulation: no devices." : "No devices configured."))]));
  } catch (e) { /* the banner says the table is gone */ }
}

// the remembered phones and paired TVs, each with a Forget button
function showDevices(list) {
  $("devices").replaceChildren(...(list.length ? list.map((d) => h("tr", {},
    h("td", {}, d.kind === "display" ? "TV" : "phone"),
    h("td", {}, d.kind === "display" ? d.label : (d.player || "(not said who)")),
    h("td", { class: "muted" }, "seen " + when(d.last_seen)),
    h("td", {}, h("button", { class: "secondary", onclick: async () => {
      if (!confirm("Forget this " + (d.kind === "display" ? "TV" : "phone") + "? It will have to join again.")) return;
      const r = await TofuTable.api("/api/devices/" + d.id + "/forget", { method: "POST", body: {} });
      if (!r.ok) TofuTable.notice($("notices"), r.body.error.message);
    } }, "Forget")))) : [h("tr", {}, h("td", { class: "muted" }, "No phone has joined yet."))]));
}
async function refreshDevices() {
  const r = await TofuTable.api("/api/devices");
  if (r.ok) showDevices(r.body.devices);
}
$("pair-form").onsubmit = async (e) => {
  e.preventDefault();
  const r = await TofuTable.api("/api/displays/pair", { method: "POST",
    body: { code: $("pair-code").value.replace(/\D/g, ""), label: "TV" } });
  if (!r.ok) return TofuTable.notice($("notices"), r.body.error.message);
  $("pair-code").value = "";
  TofuTable.notice($("notices"), "Paired: that screen now shows the TV page.", "info");
};

$("host-code").onclick = async () => {
  const r = await TofuTable.api("/api/host/code/renew", { method: "POST", body: {} });
  TofuTable.notice($("notices"), r.ok ? "The lobby TV shows a host code now: it opens this page once." : r.body.error.message,
                   r.ok ? "info" : undefined);
};

// Each game's owner part (Food for Thought's card entry), in and between games, told the running
// game's view; drawn while its panel is open (again with every state: what is typed stays,
// TofuTable.keepDrafts) and when the panel opens, not while it is folded.
async function showOwnerParts(view) {
  if (!$("owner").open) return;
  const area = $("owner-area");
  for (const game of Object.values(gamesById).filter((g) => g.page)) {
    const part = (await TofuTable.loadGame(game.id)).owner;
    if (!part) continue;
    let box = area.querySelector(`[data-game="${game.id}"]`);
    if (!box) {
      box = h("div", { "data-game": game.id });
      area.append(h("h3", {}, game.name), box);
    }
    part(box, view && view.game === game.id ? view : null);
  }
}

function render(view) {
  current = view;
  showUndo(view.undo);
  $("game").textContent = view.game_name ? "· " + view.game_name : "";
  $("prompt").textContent = view.prompt;
  $("halted").hidden = !view.halted;
  if (view.halted) {
    $("halted-row").textContent = view.halted.row;
    $("halted-why").textContent = view.halted.message;
    $("halted-input").textContent = JSON.stringify(view.halted.input);
  }
  $("players").replaceChildren(...view.players.map((p) => h("tr", {}, h("td", {}, "seat " + p.seat), h("td", {}, p.name), h("td", {}, p.score))));
  $("seats").replaceChildren(...(view.seat_links || []).map((l) => h("li", {}, h("a", { href: l.path, target: "_blank" }, "Seat " + l.seat + ": " + l.name))));
  const shown = () => { document.body.dataset.seq = view.seq; };   // which state the page shows (the browser tests wait on it)
  if (view.game) TofuTable.renderGame("host", view, $("game-area")).then(shown);
  else { $("game-area").replaceChildren("No game running."); shown(); }
  TofuMoveForm.show(view, gamesById[view.game], $("correction"));
  refreshJournal();
  showOwnerParts(view);
}

$("owner").addEventListener("toggle", () => showOwnerParts(current));
if (!TofuTable.token) $("need-token").hidden = false;
for (const id of ["enrol-link", "calibrate-link", "history-link"])
  $(id).href += "?token=" + encodeURIComponent(TofuTable.token || "");
TofuTable.connect({
  audience: "host",
  onState: render,
  onDevices: (d) => showDevices(d.devices),
  onRefused: (r) => { TofuTable.notice($("notices"), r.message + (r.detail && $("secrets").open ? " (" + r.detail + ")" : "")); refreshJournal(); },
  onStatus: (up, reason) => { $("banner").classList.toggle("show", !up); $("banner").textContent = up ? "" : reason; },
});
loadGames();
loadRoster();
refreshDevices();
refreshHealth();
setInterval(refreshHealth, 3000);
