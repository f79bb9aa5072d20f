// The TV's own helpers, used by tv.html and by the games' TV renderers (web/games/*.js):
// what changed since the last view (so motion and sound follow live changes only, never a reload),
// the chimes, count-ups and floating points, turning faces, the final ranking, and text that fits.
const TofuTV = (() => {
  const { h } = TofuTable;
  const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  // ----- the previous view: motion and sound only for changes seen live -------------------------
  let previous = null;
  // The view drawn before this one, when it was of the same game (null on a fresh load or a new game).
  function before(view) {
    if (!previous || !view.game || previous.game_seq !== view.game_seq || view.seq < previous.seq) return null;
    return previous;
  }
  function remember(view) { previous = view; }

  // ----- sound: short chimes made offline (scripts/make_sounds.py), volume set from the host page ----
  const settings = { volume: 70, muted: false };
  const cache = {};
  const played = [];   // every chime the page meant to play, newest last (the tests read it)
  function setSound(s) {
    if (s && typeof s.volume === "number") settings.volume = Math.max(0, Math.min(100, s.volume));
    if (s && typeof s.muted === "boolean") settings.muted = s.muted;
    document.body.dataset.sound = settings.muted ? "muted" : String(settings.volume);
  }
  function play(name) {
    played.push(name);
    document.body.dataset.lastSound = name;
    if (settings.muted || !settings.volume) return;
    const a = (cache[name] = cache[name] || new Audio("/web/sounds/" + name + ".wav"));
    a.volume = settings.volume / 100;
    a.currentTime = 0;
    a.play().catch(() => { /* the browser may refuse sound until someone touches the page */ });
  }

  // ----- the narrator: lines spoken offline (server/narrator.py), each shown as a caption too ----
  let narrator = null;
  function caption(text) {
    const el = document.getElementById("caption");
    el.textContent = text;
    el.hidden = !text;
    return el;
  }
  // Say line `id` (muted like the chimes); without a voice the caption alone, and the reason once.
  async function speak(id) {
    if (!narrator) {   // (with the table's sound setting: a TV muted before it loaded speaks no first line)
      const [r, sound] = await Promise.all([TofuTable.api("/api/narrator"), TofuTable.api("/api/sound")]);
      if (sound.ok) setSound(sound.body);
      narrator = r.ok ? r.body : { voice: false, note: "The narrator is not answering.", lines: {} };
      const box = document.getElementById("notices");
      if (narrator.note && box) TofuTable.notice(box, narrator.note, "info");
    }
    played.push("narrator:" + id);
    document.body.dataset.lastSound = "narrator:" + id;
    caption(narrator.lines[id] || "");
    if (!narrator.voice || settings.muted || !settings.volume) return;
    const a = (cache["narrator:" + id] = cache["narrator:" + id] || new Audio("/api/narrator/" + id + ".wav"));
    a.volume = settings.volume / 100;
    a.currentTime = 0;
    a.play().catch(() => { /* the browser may refuse sound until someone touches the page */ });
  }

  // ----- motion --------------------------------------------------------------------------------
  // Count a number up (or down) in `el` from `from` to `to`.
  function countUp(el, from, to, ms = 700) {
    if (reduced() || from === to) { el.textContent = to; return; }
    const start = performance.now();
    const step = (now) => {
      const t = Math.min(1, (now - start) / ms);
      el.textContent = Math.round(from + (to - from) * (1 - Math.pow(1 - t, 3)));
      if (t < 1) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }
  // A "+1" (or "-1") that floats up from `host` and goes.
  function floatDelta(host, delta) {
    if (!delta) return;
    const d = h("span", { class: "delta " + (delta > 0 ? "plus" : "minus"), "aria-hidden": "true" },
      (delta > 0 ? "+" : "\u2212") + Math.abs(delta));
    host.append(d);
    setTimeout(() => d.remove(), 1700);
  }

  // Faces that turned since the last draw: elements with data-flip="key" whose text changed get `.flip`.
  let faces = new Map();
  function turnFaces(container, live) {
    const now = new Map();
    container.querySelectorAll("[data-flip]").forEach((el) => {
      const key = el.dataset.flip, face = el.dataset.face || el.textContent;
      now.set(key, face);
      if (live && faces.has(key) && faces.get(key) !== face) el.classList.add("flip");
    });
    faces = now;
  }

  // A few falling paper strips over the stage for a winner (none with reduced motion).
  function confetti(stage) {
    if (reduced()) return;
    const colours = ["#f2c14e", "#7bc67b", "#e46a5a", "#8fb8ff", "#b48ee0"];
    const box = h("div", { class: "confetti", "aria-hidden": "true" }, ...Array.from({ length: 36 }, (_, i) =>
      h("i", { style: `left:${(i * 37) % 100}%;background:${colours[i % colours.length]};` +
                      `animation-delay:${(i % 9) * 0.12}s` })));
    stage.append(box);
    setTimeout(() => box.remove(), 3600);
  }

  // ----- the final ranking ------------------------------------------------------------------------
  const ORDINAL = ["1st", "2nd", "3rd"];
  // Places from scores (equal scores share a place), or the game's own `ranking` when it has one.
  function places(view) {
    if (view.ranking) return view.ranking.map((r) => ({ place: r.place, name: r.name, score: r.score }));
    const sorted = [...view.players].sort((a, b) => b.score - a.score);
    return sorted.map((p) => ({ place: 1 + sorted.filter((q) => q.score > p.score).length, name: p.name, score: p.score }));
  }
  // "Anna wins!", then every player by place with a star and the word "winner" for the winners
  // (text and shape as well as colour); `unit` names the points ("soybeans", "VP").
  function finalRanking(view, unit = "points", animate = false) {
    const winners = new Set(view.winners || []);
    const title = winners.size > 1 ? [...winners].join(" and ") + " share the win!"
      : winners.size ? [...winners][0] + " wins!" : "Final scores";
    return h("div", { class: "final" }, h("h2", {}, "\u2605 " + title),
      h("ol", { class: "ranking" }, ...places(view).map((r, i) => h("li", {
        class: (winners.has(r.name) ? "win" : "") + (animate ? " enter" : ""), style: animate ? `animation-delay:${0.15 * i}s` : null },
        h("span", { class: "place" }, ORDINAL[r.place - 1] || r.place + "th"),
        h("span", {}, r.name + (winners.has(r.name) ? " \u2605 winner" : "")),
        h("span", { class: "pts" }, `${r.score} ${r.score === 1 ? unit.replace(/s$/, "") : unit}`)))));
  }

  // ----- fitting text ------------------------------------------------------------------------------
  // The largest of `sizes` (rem) at which `el`'s text fits its box, so nothing is cut.
  function fitText(el, sizes) {
    for (const size of sizes) {
      el.style.fontSize = size + "rem";
      if (el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1) return;
    }
  }
  // Drop a list's oldest items until the rest fit its box (the newest always stays).
  function keepNewest(list) {
    while (list.children.length > 1 && list.scrollHeight > list.clientHeight + 1) list.firstElementChild.remove();
  }

  return { before, remember, setSound, play, played, speak, caption, countUp, floatDelta, turnFaces, confetti, finalRanking,
           fitText, keepNewest, reduced };
})();
