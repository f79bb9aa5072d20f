// The host code's page (web/host-code.html): the TV's host code scans to /host/code#<code>. The
// code sits after the '#', so it never reaches a server's log or a link preview; this page hands
// it to the table once and opens the host page with the host token it gets back.
const status = document.getElementById("status");

async function open() {
  const code = decodeURIComponent(location.hash.slice(1));
  if (!code) { status.textContent = "This address has no host code: scan the host code on the TV again."; return; }
  try {
    const r = await fetch("/api/host/code/use", { method: "POST", headers: { "Content-Type": "application/json" },
                                                   body: JSON.stringify({ code }) });
    const body = await r.json();
    if (!r.ok) { status.textContent = body.error.message; return; }
    location.replace("/host?token=" + encodeURIComponent(body.token));
  } catch (e) {
    status.textContent = "The table is not answering: check the phone is on the table's network, then scan again.";
  }
}
open();
