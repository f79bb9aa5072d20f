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
  // A state of another journal position clears the page's notice (#notices): the table moved on.
  let room = null, seq = null;
  function connect({ audience = "table", onState, onEvent, onRefused, onStatus, onReauth, onDevices }) {
    room = audience;
    const socket = io({ auth: { view: audience, token }, transports: ["websocket", "polling"],
                        reconnectionDelay: 500, reconnectionDelayMax: 2000 });
    socket.on("connect", () => onStatus && onStatus(true));
    socket.on("disconnect", () => onStatus && onStatus(false, "The table is not answering."));
    socket.on("connect_error", (err) => {
      const reason = (err && err.data && err.data.message) || "The table is not answering.";
      onStatus && onStatus(false, reason);
    });
    socket.on("state", (view) => {
      const box = document.getElementById("notices");
      if (view.seq !== seq && box) box.replaceChildren();
      seq = view.seq;
      if (onState) onState(view);
    });
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

  // Whether a refusal answered with `status` also comes to this page's room as a `refused` event:
  // the host gets every refusal that reached the server's checks, the table room (TV, simulator) the
  // table's own (not the web's 400 and 403), a seat those with its private detail. A lost answer,
  // "busy", "queued" and the throttle's 429 never come.
  function eventComes(status, error) {
    if (!status || status === 429 || ["busy", "queued"].includes(error.code)) return false;
    if (room === "host") return true;
    if (room === "table") return status !== 400 && status !== 403;
    return Boolean(error.detail);
  }

  // Send one input and show its refusal in #notices, unless a `refused` event brings it anyway.
  async function act(input) {
    const r = await send(input);
    const error = r.body && r.body.error;
    const box = document.getElementById("notices");
    if (!r.ok && box && error && !eventComes(r.status, error)) notice(box, error.message);
    return r;
  }

  // The name of the player at `seat` in a game view ("seat 3" for an empty one).
  function nameOf(view, seat) {
    return ((view.players || []).find((p) => p.seat === Number(seat)) || {}).name || "seat " + seat;
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

  // A player's badge: `text` on their `colour` (#rrggbb), in white or dark ink, whichever contrasts more.
  function avatar(colour, text) {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    const light = 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.2;   // (where white and the ink contrast alike)
    return h("span", { class: "avatar", style: `background:${colour};color:${light ? "#201a10" : "#fff"}` }, text);
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

  // Fields a person is typing into, by their `name`: {typed, shown} where `shown` is what the
  // table showed when typing began. A re-render keeps the typed text while the table still shows
  // the same value there (a tap elsewhere); once the table's value changes (the correction went
  // through, or someone else's did), the table's value wins.
  const drafts = new WeakMap();   // container -> Map(name -> {typed, shown})
  const valueOf = (field) => (field.type === "checkbox" ? String(field.checked) : field.value);
  // What a field showed before anyone touched it (for one added since the last render too).
  const initialOf = (field) => (field.type === "checkbox" ? String(field.defaultChecked)
    : field.tagName === "SELECT" ? ([...field.options].find((o) => o.defaultSelected) || field.options[0] || { value: "" }).value
    : field.defaultValue);
  function draftsOf(container) {
    if (!drafts.has(container)) {
      const map = new Map();
      drafts.set(container, map);
      const note = (ev) => {
        const field = ev.target;
        if (!field.name || !field.matches("input, select, textarea")) return;
        const draft = map.get(field.name) || { shown: field.dataset.shown ?? initialOf(field) };
        map.set(field.name, { ...draft, typed: valueOf(field) });
      };
      container.addEventListener("input", note);
      container.addEventListener("change", note);
    }
    return drafts.get(container);
  }
  function keepDrafts(container, render) {
    const map = draftsOf(container);
    const focused = container.contains(document.activeElement) && document.activeElement.name
      ? { name: document.activeElement.name, start: document.activeElement.selectionStart,
          end: document.activeElement.selectionEnd } : null;
    render();
    const seen = new Set();
    for (const field of container.querySelectorAll("input[name], select[name], textarea[name]")) {
      if (seen.has(field.name)) continue;   // names are unique per page part; only the first is kept
      seen.add(field.name);
      const shown = valueOf(field);
      field.dataset.shown = shown;
      const draft = map.get(field.name);
      if (draft && draft.shown === shown && draft.typed !== shown) {
        if (field.type === "checkbox") field.checked = draft.typed === "true";
        else field.value = draft.typed;
      } else map.delete(field.name);
      if (focused && focused.name === field.name) {
        field.focus();
        try { field.setSelectionRange(focused.start, focused.end); } catch (e) { /* no caret: a number or a select */ }
      }
    }
    for (const name of [...map.keys()]) if (!seen.has(name)) map.delete(name);
  }

  // Fill `container` with the game's own part for this page kind ("tv", "seat" or "host"); what a
  // person was typing into a named field stays (see keepDrafts). Whether the game has such a part.
  async function renderGame(kind, view, container) {
    const renderers = await loadGame(view.game);
    keepDrafts(container, () => {
      container.replaceChildren();
      if (renderers[kind]) renderers[kind](view, container, send);
    });
    return Boolean(renderers[kind]);
  }

  // The page's one notice, as on the TV: a new one replaces the last; it goes when the table moves
  // on (the next state, see connect) or after `ms`.
  let noticeTimer = null;
  function notice(box, text, kind = "refusal", ms = 12000) {
    box.replaceChildren(h("div", { class: "notice " + kind, role: "alert" }, text));
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => box.replaceChildren(), ms);
  }

  return { token, stored, remember, connect, send, act, nameOf, api, h, avatar, loadGame, renderGame, keepDrafts, notice };
})();
