// The calibrate page's own script (web/calibrate.html); kept out of the page so the
// Content-Security-Policy needs no 'unsafe-inline' for scripts.
const { h, token } = TofuTable;
const $ = (id) => document.getElementById(id);
const auth = token ? { Authorization: "Bearer " + token } : {};
const q = "token=" + encodeURIComponent(token || "");
let layout = null;      // the board's layout being edited (regions in mm)
let status = null;
let drag = null;        // {region, corner}

// a message at the top of the page, or in the self-test's own panel (`where`), next to its buttons
function say(text, bad, where = "message") {
  $(where).hidden = !text;
  $(where).textContent = text || "";
  $(where).className = bad ? "notice" : "panel status-ok";
}
const testSay = (text, bad) => say(text, bad, "st-message");
async function api(method, path, body) {
  const r = await fetch(path, { method, headers: { ...auth, "Content-Type": "application/json" },
                                body: body === undefined ? undefined : JSON.stringify(body) });
  const data = (r.headers.get("Content-Type") || "").includes("json") ? await r.json() : {};
  if (!r.ok) throw new Error((data.error && data.error.message) || ("HTTP " + r.status));
  return data;
}

let boardNote = "";      // the light, the distance or glare, as the message says it now
async function refreshStatus() {
  try { status = await api("GET", "/api/camera/status"); } catch (e) { say(e.message, true); return; }
  // the session's self-tests (another page may have read; a board that came into play lost its plan)
  const asked = selftestAnswers;
  try { const r = await api("GET", "/api/camera/selftest"); if (asked === selftestAnswers) selftest = r; }
  catch (e) { /* the status line says what is wrong */ }
  $("health").replaceChildren(...status.health.map((r) => h("tr", {}, h("td", {}, r.name),
    h("td", { class: "status-" + r.status }, r.status),
    h("td", {}, r.detail || (r.fps ? `${r.fps} fps, ${r.ms_per_frame} ms per frame` : "")))));
  const sel = $("board");
  if (!sel.options.length) {
    for (const name of Object.keys(status.boards)) sel.append(h("option", { value: name }, name));
    await loadBoard();
  }
  const b = status.boards[sel.value];
  if (b) {
    $("board-state").textContent = (b.located ? "in view" : "NOT in view") + " · " +
      (b.calibrated ? "calibrated" : "not calibrated") + (b.sample ? " · sample layout" : "");
    const notes = [];
    if (b.recalibrate) {
      notes.push("The light on " + sel.value + " changed since calibration (" + Math.round(b.light_change * 100) +
          " %): capture the empty board and the token colours again (steps 2 and 3), or put the light back; " +
          "until then the camera leaves out the spaces it is unsure of.");
    }
    if (b.too_far && b.too_far.length) {
      notes.push("The camera sees " + b.too_far.length + " spaces of " + sel.value + " too small to read reliably " +
          "(too far): " + b.too_far_advice + ".");
    }
    if (b.glare && b.glare.length) {
      notes.push("A reflection washes out " + b.glare.length + (b.glare.length === 1 ? " space of " : " spaces of ") +
          sel.value + " (" +
          b.glare.slice(0, 3).join(", ") + (b.glare.length > 3 ? ", ..." : "") + "): the camera cannot read a token " +
          "there. Shade or move the lamp (or the window's light), or tilt the board.");
    }
    // the board's own notes stand until what they say is over (another message, a capture's, is left alone)
    if (notes.length) say(boardNote = notes.join(" "), true);
    else if (boardNote && $("message").textContent === boardNote) say(boardNote = "");
    $("plan").replaceChildren(...Object.entries(b.plan).map(([slot, kind]) => h("li", {}, h("b", {}, kind), " on ", slot)));
    $("plan-count").textContent = Object.keys(b.plan).length;
    $("warnings").replaceChildren(...b.warnings.map((w) => h("li", { class: "no" }, w)));
    showTypes(b);
  }
  showSelftest();
  draw();
}

async function loadBoard() {
  try { layout = await api("GET", "/api/camera/layout/" + $("board").value); } catch (e) { say(e.message, true); return; }
  newPicture();
  drawRegions();
}
function newPicture() {
  $("board-img").src = `/api/camera/rectified/${$("board").value}.jpg?${q}&t=${Date.now()}`;
}
$("board-img").onload = () => { const c = $("board-canvas"); c.width = $("board-img").naturalWidth; c.height = $("board-img").naturalHeight; draw(); };
$("board-img").onerror = () => say("This board is not in view: check that its markers are visible.", true);

function slotCentres(r) {
  const [tl, tr, br, bl] = r.corners, out = [];
  for (let row = 0; row < r.rows; row++) for (let col = 0; col < r.cols; col++) {
    const u = (col + .5) / r.cols, v = (row + .5) / r.rows;
    const top = [tl[0] + (tr[0] - tl[0]) * u, tl[1] + (tr[1] - tl[1]) * u];
    const bot = [bl[0] + (br[0] - bl[0]) * u, bl[1] + (br[1] - bl[1]) * u];
    out.push([top[0] + (bot[0] - top[0]) * v, top[1] + (bot[1] - top[1]) * v, row + 1, col + 1, row * r.cols + col + 1]);
  }
  return out;
}
function draw() {
  const c = $("board-canvas"), g = c.getContext("2d"), s = layout ? layout.px_per_mm : 2;
  g.clearRect(0, 0, c.width, c.height);
  drawTestPicture();
  if (!layout) return;
  // the self-test's plan when there is one (numbered in magenta, as listed), else the colour session's
  const test = testPlan();
  const plan = test || (status && status.boards[$("board").value] ? status.boards[$("board").value].plan : {});
  layout.regions.forEach((r, i) => {
    g.strokeStyle = "#00a0ff"; g.lineWidth = 2; g.beginPath();
    r.corners.forEach(([x, y], k) => k ? g.lineTo(x * s, y * s) : g.moveTo(x * s, y * s));
    g.closePath(); g.stroke();
    for (const [x, y, id] of slotsOf(r)) {
      g.beginPath(); g.arc(x * s, y * s, layout.token_mm / 2 * s, 0, 7); g.strokeStyle = "#ffcc00"; g.stroke();
      if (plan[id] && !test) { g.fillStyle = "#fff"; g.font = `${Math.round(5 * s)}px sans-serif`; g.fillText(plan[id], x * s - 8 * s, y * s + 2 * s); }
    }
    r.corners.forEach(([x, y]) => { g.beginPath(); g.arc(x * s, y * s, 6, 0, 7); g.fillStyle = "#ff3b30"; g.fill(); });
    g.fillStyle = "#00a0ff"; g.font = "14px sans-serif"; g.fillText(r.name, r.corners[0][0] * s + 4, r.corners[0][1] * s - 4);
  });
  if (test) markPlan(g, s, test);
}
// a region's slots: their centres (mm) and ids
function slotsOf(r) {
  return slotCentres(r).map(([x, y, row, col, n]) => [x, y, r.ids.replace("{row}", row).replace("{col}", col).replace("{n}", n)]);
}
// the self-test's plan on a board picture: each planned space ringed in magenta with its number in the list
function markPlan(g, s, plan) {
  const at = Object.fromEntries(layout.regions.flatMap((r) => slotsOf(r).map(([x, y, id]) => [id, [x * s, y * s]])));
  const r = layout.token_mm / 2 * s;
  Object.keys(plan).forEach((slot, i) => {
    if (!at[slot]) return;
    const [x, y] = at[slot];
    g.beginPath(); g.arc(x, y, r * 1.15, 0, 7); g.lineWidth = Math.max(3, r / 4); g.strokeStyle = "#ff3bff"; g.stroke();
    g.font = `bold ${Math.round(r * 1.3)}px sans-serif`; g.textAlign = "center"; g.textBaseline = "middle";
    g.lineWidth = Math.max(3, r / 4); g.strokeStyle = "#000"; g.strokeText(String(i + 1), x, y);
    g.fillStyle = "#fff"; g.fillText(String(i + 1), x, y);
    g.textAlign = "start"; g.textBaseline = "alphabetic"; g.lineWidth = 2;
  });
}
// the self-test's own picture of the board, with its plan, beside its buttons (on a phone the board
// picture of step 1 is far up the page)
function drawTestPicture() {
  const c = $("st-picture"), img = $("board-img"), plan = testPlan();
  c.hidden = !(plan && layout && img.naturalWidth);
  if (c.hidden) return;
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const g = c.getContext("2d");
  g.drawImage(img, 0, 0);
  markPlan(g, layout.px_per_mm, plan);
}
function drawRegions() {
  const row = (r, i) => h("tr", {},
    h("td", {}, h("input", { value: r.name, "aria-label": "region name", onchange: (e) => { r.name = e.target.value; draw(); } })),
    h("td", {}, h("input", { class: "ids", value: r.ids, "aria-label": "slot names", onchange: (e) => { r.ids = e.target.value; draw(); } })),
    h("td", {}, "rows ", h("input", { type: "number", min: 1, max: 40, value: r.rows, onchange: (e) => { r.rows = +e.target.value; draw(); } })),
    h("td", {}, "cols ", h("input", { type: "number", min: 1, max: 40, value: r.cols, onchange: (e) => { r.cols = +e.target.value; draw(); } })),
    h("td", {}, h("button", { class: "secondary", onclick: () => { layout.regions.splice(i, 1); drawRegions(); draw(); } }, "Remove")));
  $("regions").replaceChildren(h("tr", {}, h("th", {}, "region"), h("th", {}, "slot names"), h("th", {}), h("th", {}), h("th", {})),
                               ...layout.regions.map(row));
  $("regions-count").textContent = layout.regions.length;
}
function mm(ev) {
  const c = $("board-canvas"), rect = c.getBoundingClientRect(), s = layout.px_per_mm;
  return [(ev.clientX - rect.left) * c.width / rect.width / s, (ev.clientY - rect.top) * c.height / rect.height / s];
}
$("board-canvas").addEventListener("pointerdown", (ev) => {
  if (!layout) return;
  const [x, y] = mm(ev); let best = null, dist = 8;
  layout.regions.forEach((r, i) => r.corners.forEach(([cx, cy], k) => {
    const d = Math.hypot(cx - x, cy - y); if (d < dist) { dist = d; best = { region: i, corner: k }; } }));
  drag = best; if (drag) $("board-canvas").setPointerCapture(ev.pointerId);
});
$("board-canvas").addEventListener("pointermove", (ev) => {
  if (!drag) return;
  const [x, y] = mm(ev);
  layout.regions[drag.region].corners[drag.corner] = [Math.round(x * 2) / 2, Math.round(y * 2) / 2];
  draw();
});
$("board-canvas").addEventListener("pointerup", () => { drag = null; });
$("add-region").onclick = () => {
  const [w, hgt] = layout.size_mm;
  layout.regions.push({ name: "new", ids: "new.{n}", rows: 1, cols: 3,
                        corners: [[w * .3, hgt * .4], [w * .7, hgt * .4], [w * .7, hgt * .6], [w * .3, hgt * .6]] });
  $("regions-box").open = true;
  drawRegions(); draw();
};
$("reload").onclick = newPicture;
$("board").onchange = async () => { await loadBoard(); refreshStatus(); showRun(null); testSay(""); };
$("save-layout").onclick = async () => {
  try { const r = await api("POST", "/api/camera/layout/" + $("board").value, { regions: layout.regions });
        say(`${r.slots} slots saved. ${r.note}`); await refreshStatus(); draw(); }
  catch (e) { say(e.message, true); }
};
$("measure").onclick = async () => {
  try { const r = await api("POST", `/api/camera/layout/${$("board").value}/markers`);
        say(r.note); await loadBoard(); await refreshStatus(); }
  catch (e) { say(e.message, true); }
};
async function capture(step) {
  say("Capturing … keep hands away from the board.");
  try { const r = await api("POST", `/api/camera/calibrate/${$("board").value}/${step}`);
        say(step === "empty" ? "Empty board captured. Now the token colours." :
            "Token colours captured." + (r.missing_types.length ? " Still missing: " + r.missing_types.join(", ") : ""));
        await refreshStatus(); draw(); }
  catch (e) { say(e.message, true); }
}
$("cap-empty").onclick = () => capture("empty");
$("cap-tokens").onclick = () => capture("tokens");

// ----- 4. the self-test: a plan of tokens on named spaces, then the board read and scored
let selftest = { plans: {}, runs: [], total: null };   // this table session's plans and readings
let selftestAnswers = 0;   // answers to this page's own self-test calls: an older summary is not shown over them
let typesShown = "";
let reading = false;     // a reading is under way (it waits up to a few seconds for the board to lie still)
const testPlan = () => selftest.plans[$("board").value] || null;
// the token types the camera can read on this board, each ticked until the owner unticks it
function showTypes(b) {
  const types = b.types.filter((t) => !(b.missing_types || []).includes(t));
  const key = $("board").value + ":" + types.join(",");
  if (key === typesShown) return;
  typesShown = key;
  $("st-types").replaceChildren(...(types.length ? types.map((t) => h("label", {}, h("input", { type: "checkbox", value: t, checked: true }), " " + t))
    : [h("span", { class: "muted" }, "No token colours captured on this board yet (step 3).")]));
}
function showSelftest() {
  const plan = testPlan(), board = $("board").value;
  $("st-plan-list").replaceChildren(...(plan ? Object.entries(plan).map(([slot, kind]) => h("li", {}, h("b", {}, kind), " on ", slot)) : []));
  $("st-read").disabled = !plan || reading;
  $("st-lay").hidden = !(plan && status && status.simulate);
  // one short row a reading, so the table fits a phone: which, how many spaces wrong, unsure, fully right
  const pct = (x) => Number(x.toFixed(2)) + " %";
  const runs = selftest.runs.map((r) => h("tr", { class: r.errors ? "" : "ok" },
    h("td", {}, `${r.n}. ${r.board}`, h("br"), h("span", { class: "muted" }, new Date(r.at * 1000).toLocaleTimeString() +
      ", light change " + Math.round(r.light_change * 100) + " %")),
    h("td", {}, `${r.errors} of ${r.slots}`, h("br"), pct(r.error_percent)), h("td", {}, String(r.unknown)),
    h("td", {}, r.errors ? "no" : "yes")));
  const t = selftest.total;
  $("st-runs").replaceChildren(...(runs.length ? [
    h("tr", {}, ...["reading", "spaces wrong", "of them unsure", "fully right"].map((c) => h("th", {}, c))),
    ...runs,
    h("tr", {}, h("th", {}, "all readings"), h("th", {}, `${t.errors} of ${t.slots}`, h("br"), pct(t.error_percent)),
      h("th", {}, String(t.unknown)), h("th", {}, `${t.boards_right} of ${t.boards}`))]
    : [h("tr", {}, h("td", { class: "muted" }, "No test read yet."))]));
  if (board && plan === null) showRun(null);
}
// the last reading of this board: the verdict, then each space read wrong
function showRun(run) {
  if (!run) { $("st-result").replaceChildren(); return; }
  const said = (v) => (v === null ? "empty" : v === "unknown" ? "unsure" : v);
  $("st-result").replaceChildren(
    h("p", { class: "verdict " + (run.errors ? "no" : "ok") }, run.errors
      ? `${run.errors} of ${run.slots} spaces wrong (${Number(run.error_percent.toFixed(2))} %): ${run.wrong} read as something else, ${run.unknown} unsure.`
      : `Fully right: all ${run.slots} spaces read as planned (${run.tokens} tokens, the rest empty).`),
    h("ul", {}, ...run.slot_errors.map((e) => h("li", { class: "no" }, h("b", {}, e.slot),
      `: ${said(e.want)} there, read ${said(e.got)}` + (e.glare ? " (washed out by glare: shade or move the lamp)" : "")))));
}
async function selftestCall(path, body) {
  try { selftest = await api("POST", path, body); selftestAnswers++; return selftest; }
  catch (e) { testSay(e.message, true); return null; }
  finally { showSelftest(); draw(); }
}
$("st-plan").onclick = async () => {
  const board = $("board").value;
  const types = [...document.querySelectorAll("#st-types input:checked")].map((i) => i.value);
  const r = await selftestCall(`/api/camera/selftest/${board}/plan`, { count: Number($("st-count").value), types });
  if (r) { showRun(null); testSay(`Plan made: put these ${Object.keys(r.plan).length} tokens on ${board}, every other space empty, then read. They are numbered on the board picture and boxed on the live one.`); }
};
$("st-lay").onclick = async () => {
  try { await api("POST", `/api/camera/simulate/${$("board").value}`, { lay_plan: true }); testSay("The plan lies on the simulated table: read it."); }
  catch (e) { testSay(e.message, true); }
};
$("st-read").onclick = async () => {
  reading = true;
  $("st-read").disabled = true;
  testSay("Waiting for the board to lie still, then reading … keep hands away.");
  const r = await selftestCall(`/api/camera/selftest/${$("board").value}/read`).finally(() => { reading = false; showSelftest(); });
  if (r) { testSay(""); showRun(r.run); newPicture(); }   // the board as it was read
  else showRun(null);        // the refusal says why; the last reading stays in the session's table
};

// ----- the lens (once per camera): views of the printed ChArUco sheet, then the calibration
const lensSay = (text, bad) => say(text, bad, "lens-message");
// where the simulated table's sheet can be held: shares of the picture's width and height
const LENS_PLACES = [0.2, 0.5, 0.8].flatMap((y) => [0.15, 0.5, 0.85].map((x) => [x, y]));
const LENS_NAMES = ["top left", "top", "top right", "left", "middle", "right", "bottom left", "bottom", "bottom right"];
function showLens(s) {
  const pct = (v) => Math.round(v * 100) + " %";
  const missing = [];
  if (s.views < s.views_needed) missing.push(`${s.views_needed - s.views} more`);
  if (s.views && Math.min(...s.spread) < s.spread_needed) missing.push("views nearer the picture's edges and corners");
  $("lens-state").textContent = `Lens: ${s.lens}. Views taken: ${s.views} (at least ${s.views_needed} needed)` +
    (s.views ? `, covering ${pct(s.spread[0])} of the picture's width and ${pct(s.spread[1])} of its height ` +
               `(${pct(s.spread_needed)} of each needed)` : "") +
    (s.enough ? ". Enough: calibrate and save the lens." : missing.length ? ". Still needed: " + missing.join(", ") + "." : ".");
  $("lens-summary").textContent = s.lens;
  $("lens-sim").hidden = !s.simulate;
}
async function lensCall(method, path, body) {
  try { const s = await api(method, path, body); showLens(s); lensSay(s.note); return s; }
  catch (e) { lensSay(e.message, true); return null; }
}
$("lens-places").replaceChildren(...LENS_PLACES.map((at, i) => h("button", {
  class: "secondary", "data-view": i, "aria-pressed": "false", title: LENS_NAMES[i],
  onclick: async (ev) => {
    const button = ev.currentTarget;
    try { await api("POST", "/api/camera/lens/simulate", { at }); }
    catch (e) { lensSay(e.message, true); return; }
    document.querySelectorAll("#lens-places button").forEach((b) => b.setAttribute("aria-pressed", String(b === button)));
    lensSay("The sheet is held up " + (i === 4 ? "in the middle" : "at the " + LENS_NAMES[i]) + ": take the view.");
  } }, LENS_NAMES[i])));
$("lens-away").onclick = async () => {
  try { await api("POST", "/api/camera/lens/simulate", { at: null }); lensSay("The sheet is put away."); }
  catch (e) { lensSay(e.message, true); }
  document.querySelectorAll("#lens-places button").forEach((b) => b.setAttribute("aria-pressed", "false"));
};
$("lens-take").onclick = () => lensCall("POST", "/api/camera/lens/view");
$("lens-save").onclick = () => { lensSay("Calibrating … this takes a few seconds."); return lensCall("POST", "/api/camera/lens/save"); };
$("lens-forget").onclick = () => lensCall("DELETE", "/api/camera/lens/views");

// on a wide screen the lists sit beside the pictures; on a phone they stay folded until asked for
if (window.matchMedia("(min-width: 1000px)").matches) { $("regions-box").open = true; $("plan-box").open = true; }

if (!token) $("need-token").hidden = false;
else {
  $("live").src = "/api/camera/stream.mjpg?" + q;
  $("lens-sheet").href = "/api/camera/lens/sheet.png?" + q;
  api("GET", "/api/camera/lens").then((s) => { showLens(s); $("lens-details").open = s.lens !== "in use"; })
    .catch((e) => lensSay(e.message, true));
  refreshStatus();
  setInterval(refreshStatus, 3000);
}
