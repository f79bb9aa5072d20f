// Shared by every page: the Socket.IO connection, sending inputs, small DOM helpers,
// and loading a game's own renderers (web/games/<game-id>.js registers TofuGames[id]).
window.TofuGames = window.TofuGames || {};

const TofuTable = (() => {
  const params = new URLSearchParams(location.search);
  // A phone that joined (seat and join pages) and a TV the host paired (TV and pair pages) keep
  // their token in localStorage, so they stay joined across games; a token in the address
  // (the host's own links) comes first.
  const storedKey = ["/", "/pair"].includes(location.pathname) ? "tofu-display"
    : /^\/(seat|join|history)(\/|$)/.test(location.pathname) ? "tofu-phone" : null;
  const stored = storedKey ? localStorage.getItem(storedKey) : null;
  const token = params.get("token") || stored;
  // Keep (or with null, drop) this page's remembered token.
  function remember(value) {
    if (value) localStorage.setItem(storedKey, value);
    else localStorage.removeItem(storedKey);
  }

  // Connect to the room of `audience`; callbacks get the full state, events, refusals,
  // and connection status changes (true when connected, false with a reason when not).
  function connect({ audience = "table", onState, onEvent, onRefused, onStatus, onReauth, onDevices }) {
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
    socket.on("devices", (d) => onDevices && onDevices(d));
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

  // Call one of the table's JSON endpoints (GET without a body); resolves to {ok, status, body}.
  async function api(path, { method = "GET", body, auth = token } = {}) {
    const headers = {};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (auth) headers["Authorization"] = "Bearer " + auth;
    try {
      const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { ok: r.ok, status: r.status, body: await r.json() };
    } catch (e) {
      return { ok: false, status: 0, body: { error: { code: "offline", message: "The table is not answering." } } };
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

  return { token, stored, remember, connect, send, api, h, loadGame, renderGame, notice };
})();
