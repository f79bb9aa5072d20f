// Shared by every page: the Socket.IO connection, sending inputs, small DOM helpers,
// and loading a game's own renderers (web/games/<game-id>.js registers TofuGames[id]).
window.TofuGames = window.TofuGames || {};

const TofuTable = (() => {
  const params = new URLSearchParams(location.search);
  const token = params.get("token");

  // Connect to the room of `audience`; callbacks get the full state, events, refusals,
  // and connection status changes (true when connected, false with a reason when not).
  function connect({ audience = "table", onState, onEvent, onRefused, onStatus, onReauth }) {
    const socket = io({ auth: { view: audience, token }, transports: ["websocket", "polling"],
                        reconnectionDelay: 500, reconnectionDelayMax: 2000 });
    socket.on("connect", () => onStatus && onStatus(true));
    socket.on("disconnect", () => onStatus && onStatus(false, "The table is not answering."));
    socket.on("connect_error", (err) => {
      const reason = (err && err.data && err.data.message) || "The table is not answering.";
      onStatus && onStatus(false, reason);
    });
    socket.on("state", (view) => onState && onState(view));
    socket.on("event", (ev) => onEvent && onEvent(ev));
    socket.on("refused", (r) => onRefused && onRefused(r));
    socket.on("reauth", (m) => onReauth && onReauth(m));
    return socket;
  }

  // A fresh idempotency key (crypto.randomUUID needs https; getRandomValues does not).
  function newKey() {
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // POST one protocol object; resolves to {ok, status, body}. The input carries an
  // idempotency key, so asking again after "queued" (202) or a lost answer never applies it twice.
  async function send(input) {
    const headers = { "Content-Type": "application/json", "Idempotency-Key": newKey() };
    if (token) headers["Authorization"] = "Bearer " + token;
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await fetch("/api/input", { method: "POST", headers, body: JSON.stringify(input) });
        const body = await r.json();
        if (r.status === 202 && attempt < 10) continue;   // still being applied: ask again
        return { ok: r.ok && r.status !== 202, status: r.status, body };
      } catch (e) {
        if (attempt < 2) continue;                        // the answer was lost: the key makes a retry safe
        return { ok: false, status: 0, body: { error: { code: "offline", message: "The table is not answering." } } };
      }
    }
  }

  // h("div", {class: "x", onclick: f}, "text", child...) -> element
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "class") el.className = v;
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  const loading = {};
  // Load web/games/<id>.js once; resolves to its renderers (or {} when the game has none).
  function loadGame(id) {
    if (!id) return Promise.resolve({});
    if (!loading[id]) {
      loading[id] = new Promise((resolve) => {
        const s = document.createElement("script");
        s.src = "/web/games/" + id + ".js";
        s.onload = () => resolve(window.TofuGames[id] || {});
        s.onerror = () => resolve({});
        document.head.append(s);
      });
    }
    return loading[id];
  }

  // Fill `container` with the game's own part for this page kind ("tv", "seat" or "host").
  async function renderGame(kind, view, container) {
    const renderers = await loadGame(view.game);
    container.replaceChildren();
    if (renderers[kind]) renderers[kind](view, container, send);
  }

  // A notice that disappears by itself.
  function notice(box, text, kind = "refusal", ms = 7000) {
    const n = h("div", { class: "notice " + kind, role: "alert" }, text);
    box.append(n);
    setTimeout(() => n.remove(), ms);
  }

  let suspenseTimer = null;
  // For `ms`, the page keeps the result quiet (no winner highlighted, no "X wins" prompt):
  // a game's renderer calls it while it plays out a draw on screen.
  function suspense(ms) {
    document.body.classList.add("suspense");
    clearTimeout(suspenseTimer);
    suspenseTimer = setTimeout(() => document.body.classList.remove("suspense"), ms);
  }

  return { token, connect, send, h, loadGame, renderGame, notice, suspense };
})();
