// The join page's own script (web/join.html); kept out of the page so the
// Content-Security-Policy needs no 'unsafe-inline' for scripts.
// A phone arrives here from the TV's join code (?code=...), from a seat's code (?token=<seat token>),
// or to change who it is.  It leaves with its own token in localStorage and goes to /seat.
const { h, api } = TofuTable;
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let device = TofuTable.stored;

async function join(body, auth) {
  const r = await api("/api/devices/join", { method: "POST", body: { ...body, device }, auth });
  if (!r.ok) return fail(r);
  device = r.body.token;
  TofuTable.remember(device);
  history.replaceState(null, "", "/join");   // the code or seat token leaves the address bar
  return r.body;
}

function fail(r) {
  $("prompt").textContent = r.body.error.message;
  $("code-form").hidden = false;
  return null;
}

async function pick(player, seat) {
  const r = await api("/api/devices/me", { method: "POST", body: { player, seat }, auth: device });
  if (!r.ok) { $("prompt").textContent = r.body.error.message; return; }
  location.replace("/seat");
}

async function choose(me) {
  const view = (await api("/api/state")).body;
  const current = me && me.device.player ? "You are " + me.device.player + ". " : "";
  if (view.game && !view.over) {
    $("prompt").textContent = current + "Who are you? Tap your name.";
    $("players").replaceChildren(...view.players.map((p) =>
      h("button", { class: "big", onclick: () => pick(p.name, p.seat) }, p.name + " · seat " + p.seat)));
  } else {
    $("prompt").textContent = current + "No game is running yet: say who you are, and your phone shows your " +
      "seat as soon as the host starts a game with your name in it.";
    $("name").value = (me && me.device.player) || "";
    $("name-form").hidden = false;
  }
}

$("code-form").onsubmit = async (e) => {
  e.preventDefault();
  const me = await join({ code: $("code").value });
  if (me) { $("code-form").hidden = true; choose(me); }
};
$("name-form").onsubmit = (e) => {
  e.preventDefault();
  pick($("name").value, $("seat").value ? Number($("seat").value) : null);
};

(async () => {
  if (params.get("token")) {                 // a seat's code: this phone is that seat's player
    if (await join({}, params.get("token"))) location.replace("/seat");
  } else if (params.get("code")) {
    const me = await join({ code: params.get("code") });
    if (me) choose(me);
  } else if (device) {
    const r = await api("/api/devices/me", { auth: device });
    if (r.ok) choose(r.body);
    else { TofuTable.remember(null); device = null; fail(r); }
  } else {
    $("prompt").textContent = "Scan the join code on the TV, or type the letters shown under it.";
    $("code-form").hidden = false;
  }
})();
