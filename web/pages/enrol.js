// The enrol page's own script (web/enrol.html); kept out of the page so the
// Content-Security-Policy needs no 'unsafe-inline' for scripts.
(function () {
  const token = new URLSearchParams(location.search).get("token");
  const $ = (id) => document.getElementById(id);
  let lastStep = null;
  let setLabels = "";

  async function api(path, body) {
    const init = { headers: { "Authorization": "Bearer " + (token || "") } };
    if (body !== undefined) {
      init.method = "POST";
      init.headers["Content-Type"] = "application/json";
      init.body = typeof body === "string" ? body : JSON.stringify(body);
    }
    const r = await fetch(path, init);
    const data = await r.json();
    if (r.status === 403) $("need-token").hidden = false;
    if (!r.ok) throw new Error(data.error ? data.error.message : r.statusText);
    return data;
  }

  function showStep(step) {
    if (!step) return;
    lastStep = step;
    $("step").textContent = step.message;
    $("step").className = step.accepted ? "ok" : "no";
  }

  function render(data) {
    const select = $("set");
    const labels = data.sets.map((s) => `${s.title} (${s.enrolled} of ${s.count} enrolled)`);
    if (labels.join("|") !== setLabels) {      // only when a count changed: an open list stays open
      setLabels = labels.join("|");
      const chosen = select.value;
      select.replaceChildren(...data.sets.map((s, i) => new Option(labels[i], s.id, false, s.id === chosen)));
    }
    if (data.readers.length) $("reader-names").textContent = "a reader (" + data.readers.join(", ") + ")";
    const session = data.session;
    $("sitting").hidden = !session;
    if (data.step) showStep(data.step);
    if (!session) return;
    const newest = session.history[session.history.length - 1];
    if (newest && (!lastStep || newest.message !== lastStep.message)) showStep(newest);
    $("next").textContent = session.done ? `All of ${session.title} is done.` : "Tap: " + session.current;
    $("question").hidden = !session.question;
    $("cards").replaceChildren(...session.cards.map((c, i) => {
      const li = document.createElement("li");
      li.textContent = c.card + (c.uid ? "  —  " + c.uid : "");
      if (i < session.index) li.className = "done";
      if (i === session.index) li.className = "current";
      return li;
    }));
  }

  async function refresh() {
    try { render(await api("/api/enrol")); } catch (e) { $("step").textContent = e.message; }
  }
  async function act(path, body) {
    try { render(await api(path, body)); } catch (e) { showStep({ message: e.message, accepted: false }); }
  }

  $("start").onclick = () => act("/api/enrol/start", { set: $("set").value });
  $("move").onclick = () => act("/api/enrol/answer", { move: true });
  $("keep").onclick = () => act("/api/enrol/answer", { move: false });
  $("skip").onclick = () => act("/api/enrol/skip", {});
  $("stop").onclick = () => act("/api/enrol/stop", {});
  $("manual").onsubmit = (ev) => { ev.preventDefault(); act("/api/enrol/tap", { uid: $("uid").value }); $("uid").value = ""; };
  $("export").onclick = async (ev) => {
    ev.preventDefault();
    const r = await fetch("/api/enrol/export", { headers: { "Authorization": "Bearer " + (token || "") } });
    const url = URL.createObjectURL(await r.blob());
    const a = Object.assign(document.createElement("a"), { href: url, download: "tofu-table-tags.json" });
    a.click();
    URL.revokeObjectURL(url);
  };
  $("import").onchange = async () => {
    const file = $("import").files[0];
    if (!file) return;
    try {
      const data = await api("/api/enrol/import", await file.text());
      $("import-result").textContent = `Imported ${data.imported} tags.`;
    } catch (e) { $("import-result").textContent = e.message; }
  };
  refresh();
  setInterval(refresh, 400);   // taps on the readers arrive while the page waits
})();
