// The pair page's own script (web/pair.html); kept out of the page so the
// Content-Security-Policy needs no 'unsafe-inline' for scripts.
// A TV other than the Pi's own screen: it shows a code, the host types it on the host page, and
// the table hands this screen a display token (kept in localStorage); then the TV page opens.
const { api } = TofuTable;
const $ = (id) => document.getElementById(id);

async function start() {
  const r = await api("/api/displays/request", { method: "POST", body: {}, auth: null });
  if (!r.ok) { $("status").textContent = r.body.error.message; return setTimeout(start, 5000); }
  $("code").textContent = r.body.code.slice(0, 3) + " " + r.body.code.slice(3);
  $("status").textContent = "Waiting for the host… (the code is good for ten minutes)";
  poll(r.body.request);
}

async function poll(request) {
  const r = await api("/api/displays/request/" + request, { auth: null });
  if (r.ok && r.body.paired) {
    TofuTable.remember(r.body.token);
    $("status").textContent = "Paired: opening the TV page…";
    return location.replace("/");
  }
  if (r.status === 404) return start();          // expired: a fresh code
  setTimeout(() => poll(request), 1500);
}
start();
