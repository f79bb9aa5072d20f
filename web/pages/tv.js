// The tv page's own script (web/tv.html); kept out of the page so the
// Content-Security-Policy needs no 'unsafe-inline' for scripts.
const { h } = TofuTable;
const $ = (id) => document.getElementById(id);
const UNITS = { "tofu-kingdom": "soybeans", "food-for-thought": "VP" };
let latest = null, qrKey = "", suspenseTimer = null;
// What this TV may show to let people join (from /api/join): only the host's paired displays and
// the Pi's own screen get the codes; any other screen shows the game without them.
let join = null;
const withToken = (path) => path + (TofuTable.token ? (path.includes("?") ? "&" : "?") + "token=" +
                                    encodeURIComponent(TofuTable.token) : "");

// ----- the prompt, the players, the events ---------------------------------------------------
function setPrompt(text) {
  const el = $("prompt");
  if (el.textContent !== text) {
    el.textContent = text;
    el.classList.remove("enter");
    void el.offsetWidth;            // restart the entrance animation
    el.classList.add("enter");
  }
  TofuTV.fitText(el, [1.85, 1.6, 1.4, 1.2]);
}

function renderSeats(view, prev, renderers) {
  const list = $("players");
  const winners = new Set(view.winners || []);
  const active = renderers.activeSeat && !view.over ? renderers.activeSeat(view) : null;
  const key = join && view.game && !view.over ? String(view.game_seq) : "";   // codes change with each game
  const codes = key !== qrKey;
  list.classList.toggle("two", view.players.length > 4);
  $("screen").classList.toggle("wide-seats", view.players.length > 4);
  const old = {};
  list.querySelectorAll(".seat-card").forEach((c) => { old[c.dataset.seat] = c; });
  list.replaceChildren(...view.players.map((p) => {
    const was = prev && prev.players.find((q) => q.seat === p.seat);
    const score = h("span", { class: "score", "data-score": p.score }, p.score);
    let code = null;
    if (key) {
      // the seat's code for its phone: kept while the game and its players stay the same
      const kept = !codes && old[p.seat] && old[p.seat].querySelector(".seat-code");
      code = kept || h("img", { class: "seat-code", width: "150", height: "150",
        src: withToken("/qr/seat/" + p.seat + ".svg?game=" + key),
        alt: "Code for " + p.name + "'s phone (seat " + p.seat + ")" });
    }
    const mark = winners.has(p.name) ? "\u2605 winner" : p.seat === active ? "\u25B6 now" : "seat " + p.seat;
    const card = h("li", { class: "seat-card" + (winners.has(p.name) ? " winner" : "") + (p.seat === active ? " turn" : ""),
                           "data-seat": p.seat },
      code, h("span", { class: "name" }, p.name), h("span", { class: "mark" }, mark), score);
    if (was && was.score !== p.score) {
      TofuTV.countUp(score, was.score, p.score);
      TofuTV.floatDelta(card, p.score - was.score);
      card.classList.add("bump");
    }
    return card;
  }));
  if (codes) qrKey = key;
}

function renderEvents(view) {
  const list = $("events");
  list.replaceChildren(...(view.last_events || []).slice(-3).map((t) => h("li", {}, t)));
  TofuTV.keepNewest(list);
}

// ----- refusals: one notice each, gone when the table moves on (TofuTable.notice) ------------
function refused(r) {
  if (r.code === "journal_failed") return showJournalProblem(r.message);
  TofuTV.play("refusal");
  TofuTable.notice($("notices"), r.message);
}

// ----- a tie-break played out on screen keeps the result quiet until it is over ---------------
const suspense = {
  on: false, after: null,
  start(ms) {
    this.stop();
    this.on = true;
    document.body.classList.add("suspense");
    suspenseTimer = setTimeout(() => {
      const after = this.after;
      this.stop();
      if (latest) setPrompt(latest.prompt);
      if (after) after();
    }, ms);
  },
  stop() {
    clearTimeout(suspenseTimer);
    this.on = false;
    this.after = null;
    document.body.classList.remove("suspense");
  },
};
TofuTV.suspense = (ms) => suspense.start(ms);

// ----- sounds for what changed: whose turn, reveals, points, the end --------------------------
function cues(prev, view, renderers) {
  if (!prev) return [];
  const out = renderers.cues ? renderers.cues(prev, view) : [];
  const gained = view.players.some((p) => (prev.players.find((q) => q.seat === p.seat) || p).score < p.score);
  if (gained) out.push("score");
  const turn = renderers.activeSeat;
  if (turn && !view.over && turn(prev) !== turn(view)) out.push("turn");
  return out;
}

function celebrate() {
  TofuTV.play("win");
  TofuTV.confetti($("stage"));
}

// ----- the stage: the game's own part, or the lobby ----------------------------------------------
function lobby(view) {
  const codes = join ? h("div", { class: "join-codes" },
    h("figure", {}, h("img", { class: "join-code", src: withToken(join.qr), alt: "Code to join with a phone" }),
      h("figcaption", {}, "Phones: scan, or open ", h("b", {}, join.url.replace(/\?.*$/, "")), " and type ",
        h("b", { class: "join-letters" }, join.code))),
    // the host code opens the host page once; the TV stops showing it when it has been used
    join.host_qr && h("figure", {}, h("img", { class: "join-code host-code", src: withToken(join.host_qr), alt: "Code for the host page" }),
      h("figcaption", {}, "The host page (once)"))) : h("div", { class: "welcome-sub" }, "Pair this screen at /pair to show the join code here.");
  const last = view.last_game;
  if (last) {
    // the last game's final ranking stays until the next game starts, beside the way to join it
    const note = last.over ? "Last game: " + last.game_name : last.game_name + ": the scores when the host ended it";
    return [h("div", { class: "lobby-split" }, h("div", {}, h("div", { class: "welcome-sub" }, note),
      TofuTV.finalRanking(last, UNITS[last.game])), codes)];
  }
  return [h("div", { class: "welcome" }, "Tofu Table"),
          h("div", { class: "welcome-sub" }, "Join with your phone while the host picks a game."), codes];
}

async function loadJoin() {
  const r = await TofuTable.api("/api/join");
  join = r.ok && r.body.paired ? r.body : null;
  if (latest && !latest.over && !suspense.on) render(latest);   // the codes appear (or go)
}

async function render(view) {
  latest = view;
  const prev = TofuTV.before(view);
  if (!prev || prev.seq !== view.seq) suspense.stop();       // a new state ends any held-back result
  if (!prev || prev.phase !== view.phase) TofuTV.caption("");  // the narrator's line belongs to its phase
  const renderers = await TofuTable.loadGame(view.game);
  if (latest !== view) return;                              // a newer view came while loading
  $("screen").classList.toggle("lobby", !view.game);
  $("game").textContent = view.game_name || "Tofu Table";
  $("phase").textContent = view.over ? "game over" : (view.phase || "").replaceAll("_", " ");
  renderSeats(view, prev, renderers);
  renderEvents(view);
  const area = $("game-area");
  $("stage").classList.toggle("lobby-stage", !view.game);
  if (view.game) {
    area.replaceChildren();
    if (renderers.tv) renderers.tv(view, area, { prev, unit: UNITS[view.game] || "points" });
  } else {
    area.replaceChildren(...lobby(view));
  }
  TofuTV.turnFaces(area, !!prev);
  // between games (and once a game is over): tonight's standings, games won of games played
  const tonight = (view.tonight && view.tonight.standings) || [];
  $("tonight").replaceChildren(...(tonight.length ? [h("b", {}, "Tonight:"), h("ol", {}, ...tonight.map((t, i) =>
    h("li", {}, `${i + 1}. ${t.name} `, h("span", { class: "muted" }, `${t.won} of ${t.played} won`))))] : []));
  if (!suspense.on) setPrompt(view.prompt);
  else $("prompt").textContent = "And the winner is\u2026";
  for (const name of new Set(cues(prev, view, renderers))) TofuTV.play(name);
  if (prev && !prev.over && view.over) {
    if (suspense.on) suspense.after = celebrate; else celebrate();
  }
  TofuTV.remember(view);
  document.body.dataset.seq = view.seq;
  if (Date.now() - lastHealthCheck > 1000) checkHealth();   // at most once a second during play
}

// Problems the players must know about, from /api/health: the journal (the table's memory on
// disk) cannot be written, so every input is refused until an input is saved again; a reader
// is not answering, while the other seats play on; the camera is gone, so the boards follow
// the recorded actions; a reflection hides spaces of a board from the camera.
let journalProblem = "", readersDown = [], cameraDown = false, glared = [], lastHealthCheck = 0;
function showProblems() {
  const lines = [];
  if (journalProblem) lines.push("The table cannot save, so it is refusing every input until the host " +
                                 "frees disk space or fixes the data folder. " + journalProblem);
  for (const name of readersDown)
    lines.push((name.startsWith("seat-") ? "Seat " + name.slice(5) + "'s reader" : "The " + name + " reader") +
               " is not answering: check its cable. The rest of the table plays on.");
  if (cameraDown) lines.push("The camera is not seeing the table: the boards follow the recorded actions " +
                             "(the host page can correct them) until it is back.");
  for (const r of glared)
    lines.push(`Glare on the ${r.name.replace(/^board /, "")} board: the camera cannot see ${r.glare} of its spaces. ` +
               "Shade or move the lamp, or tilt the board.");
  $("problems").classList.toggle("show", lines.length > 0);
  $("problems").replaceChildren(...lines.map((t) => h("div", {}, t)));
}
function showJournalProblem(detail) {
  journalProblem = detail;
  showProblems();
}
async function checkHealth() {
  lastHealthCheck = Date.now();
  try {
    const health = await (await fetch("/api/health")).json();
    const journal = (health.journal || []).find((r) => r.status !== "ok");
    journalProblem = journal ? journal.detail : "";
    readersDown = (health.readers || []).filter((r) => r.status === "down" && r.kind !== "config")
                                        .map((r) => r.name);
    // (not while it is still being opened at start: only once it failed or stopped giving frames)
    cameraDown = (health.camera || []).some((r) => r.name === "camera" && r.status === "down" &&
                                                   (r.last_seen || r.detail !== "opening the camera"));
    glared = (health.camera || []).filter((r) => r.glare > 0);
    showProblems();
  } catch (e) { /* the connection banner says the table is gone */ }
}
setInterval(checkHealth, 3000);

async function loadSound() {
  try { TofuTV.setSound(await (await fetch("/api/sound")).json()); } catch (e) { /* keep the last */ }
}

const socket = TofuTable.connect({
  audience: "table",
  onState: render,
  onRefused: refused,
  onStatus: (up) => {
    $("banner").classList.toggle("show", !up);
    if (!up) $("banner").textContent = "Lost the connection to the table: reconnecting…";
    else { checkHealth(); loadSound(); loadJoin(); }
  },
});
socket.on("sound", (s) => TofuTV.setSound(s));
socket.on("join", loadJoin);     // a code it shows changed (renewed, or the host code used)
TofuTV.setSound({});
