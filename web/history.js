// The history pages: every finished game (/history), one game (/history/game/<id>) with its
// score chart, breakdown and receipts, and one player (/history/player/<id>) with their figures.
// The data needs the host token (?token=...), which every link here carries on.
const { h } = TofuTable;
const $ = (id) => document.getElementById(id);
const token = TofuTable.token || "";
const auth = { headers: { Authorization: "Bearer " + token } };
const withToken = (path) => path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token);
const FALLBACK = ["#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6"];

for (const id of ["nav-all", "nav-host", "export-csv", "export-json"]) $(id).href = withToken($(id).getAttribute("href"));
// a remembered phone (its stored token, none in the address) has no use for the host's links
$("host-links").hidden = !new URLSearchParams(location.search).get("token");

async function load(path) {
  const r = await fetch(path, auth);
  const body = await r.json();
  if (!r.ok) {
    $("refused").hidden = false;
    $("refused").textContent = body.error.message;
    throw new Error(body.error.code);
  }
  return body;
}

const when = (t) => new Date(t * 1000).toLocaleString([], { weekday: "short", day: "numeric", month: "short",
                                                            hour: "2-digit", minute: "2-digit" });
const minutes = (s) => s < 3600 ? Math.max(1, Math.round(s / 60)) + " min"
                                : Math.floor(s / 3600) + " h " + Math.round((s % 3600) / 60) + " min";
function roster(players) { return Object.fromEntries(players.map((p) => [p.id, p])); }
const colourOf = (person, i) => person ? person.colour : FALLBACK[i % FALLBACK.length];
function avatar(p, person, i) {
  return TofuTable.avatar(colourOf(person, i), person ? person.avatar : p.name.slice(0, 1).toUpperCase());
}
function playerLink(p, person) {
  return person ? h("a", { href: withToken("/history/player/" + person.id) }, p.name) : h("span", {}, p.name);
}
// the winner is marked in words and with a trophy, not by colour alone
const winMark = (p) => p.winner ? h("span", { class: "win" }, " 🏆 winner") : "";

function gamesTable(games, people) {
  if (!games.length) return h("p", { class: "muted" }, "No finished games yet: they appear here when a game reaches its end.");
  return h("table", { class: "data games" },
    h("tr", {}, h("th", {}, "When"), h("th", {}, "Game"), h("th", {}, "Players and scores"), h("th", {}, "Length")),
    ...games.map((g) => h("tr", {},
      h("td", {}, h("a", { href: withToken("/history/game/" + g.id) }, when(g.started_at))),
      h("td", {}, g.game_name),
      h("td", {}, ...g.players.map((p, i) => h("span", { class: "who" + (p.winner ? " won" : "") },
        avatar(p, people[p.player_id], i), " ", p.name, " ", h("b", {}, p.score), winMark(p)))),
      h("td", {}, minutes(g.duration)))));
}

async function listPage() {
  const params = new URLSearchParams(location.search);
  const query = new URLSearchParams();
  for (const k of ["game", "player"]) if (params.get(k)) query.set(k, params.get(k));
  const [data, tonight, games] = await Promise.all([load("/api/history?" + query), load("/api/tonight"),
                                                    fetch("/api/games").then((r) => r.json())]);
  const people = roster(data.players);
  const filter = (name, options, label) => h("label", {}, label + " ",
    h("select", { id: "filter-" + name, onchange: (e) => {
      const next = new URLSearchParams(location.search);
      if (e.target.value) next.set(name, e.target.value); else next.delete(name);
      location.search = next;
    } }, h("option", { value: "" }, "all"),
      ...options.map(([v, t]) => h("option", { value: v, selected: String(v) === params.get(name) }, t))));
  $("main").replaceChildren(
    h("section", { class: "panel", id: "tonight" }, h("h2", {}, "Tonight"),
      tonight.standings.length
        ? h("ol", { class: "standings" }, ...tonight.standings.map((s) =>
            h("li", {}, h("span", {}, s.name), h("span", {}, `${s.won} won of ${s.played}`))))
        : h("p", { class: "muted" }, "No games finished this evening yet.")),
    h("section", { class: "panel" }, h("h2", {}, "Games"),
      h("p", { class: "filters" }, filter("game", games.map((g) => [g.id, g.name]), "Game"), " ",
        filter("player", data.players.map((p) => [p.id, p.name]), "Player")),
      gamesTable(data.games, people)));
}

// Score progression: one line per player through every scoring moment, drawn as SVG here.
function chart(game, people) {
  const steps = game.progression, n = steps.length;
  const W = window.innerWidth < 600 ? 420 : 800, H = window.innerWidth < 600 ? 300 : 320, L = 44, R = 130, T = 16, B = 34;
  const all = steps.flatMap((s) => s.scores);
  const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  const x = (i) => L + (n > 1 ? i * (W - L - R) / (n - 1) : 0);
  const y = (v) => T + (hi - v) * (H - T - B) / (hi - lo);
  const svg = (tag, attrs, ...kids) => {
    const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    el.append(...kids);
    return el;
  };
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
                            "aria-label": "Scores through the game" });
  const stepY = Math.max(1, Math.ceil((hi - lo) / 6));
  for (let v = Math.ceil(lo / stepY) * stepY; v <= hi; v += stepY) {
    root.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
                svg("text", { x: L - 8, y: y(v) + 5, "text-anchor": "end", class: "axis" }, String(v)));
  }
  root.append(svg("text", { x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle", class: "axis" },
                  `${n - 1} scoring moments`));
  const dashes = ["", "8 4", "2 4", "12 4 2 4"];   // lines differ by dash as well as colour
  game.players.forEach((p, i) => {
    const colour = colourOf(people[p.player_id], i);
    const points = steps.map((s, k) => `${x(k)},${y(s.scores[i])}`).join(" ");
    root.append(svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": 4,
                                  "stroke-dasharray": dashes[i % dashes.length], class: "line" }));
    steps.forEach((s, k) => root.append(svg("circle", { cx: x(k), cy: y(s.scores[i]), r: 4, fill: colour },
      svg("title", {}, `${p.name}: ${s.scores[i]} (${s.label || "start"})`))));
  });
  // names at the line ends, pushed apart where final scores are close
  let last = -Infinity;
  game.players.map((p, i) => [y(p.score), p, i]).sort((a, b) => a[0] - b[0]).forEach(([py, p, i]) => {
    last = Math.max(py + 5, last + 18);
    const colour = colourOf(people[p.player_id], i);
    root.append(svg("text", { x: W - R + 8, y: last, fill: colour, class: "end-label" }, `${p.name} ${p.score}`));
  });
  return root;
}

function receipts(game) {
  return h("section", { class: "panel" }, h("h2", {}, "Receipts"),
    h("div", { class: "receipts" }, ...game.receipts.map((r) => h("table", { class: "data receipt" },
      h("caption", {}, `Seat ${r.seat}: ${r.name}`),
      ...r.lines.map((l) => h("tr", {}, h("td", {}, l.label), h("td", { class: "vp" }, (l.vp > 0 ? "+" : "") + l.vp))),
      h("tr", { class: "total" }, h("td", {}, "Total"), h("td", { class: "vp" }, r.total))))));
}

async function gamePage(id) {
  const { game, players } = await load("/api/history/" + id);
  const people = roster(players);
  $("title").textContent = `${game.game_name} · ${when(game.started_at)}`;
  const options = Object.entries(game.options).map(([k, v]) => `${k}: ${v}`).join(", ");
  $("main").replaceChildren(
    h("section", { class: "panel" }, h("h2", {}, game.result || "Game over"),
      h("p", { class: "muted" }, `${minutes(game.duration)} · seed ${game.seed}` + (options ? ` · ${options}` : "")),
      h("table", { class: "data" }, ...game.players.map((p, i) => h("tr", { class: p.winner ? "won" : "" },
        h("td", {}, "seat " + p.seat), h("td", {}, avatar(p, people[p.player_id], i), " ", playerLink(p, people[p.player_id])),
        h("td", {}, h("b", {}, p.score)), h("td", {}, winMark(p)))))),
    h("section", { class: "panel" }, h("h2", {}, "Scores through the game"), chart(game, people)),
    h("section", { class: "panel" }, h("h2", {}, "Breakdown"),
      h("table", { class: "data breakdown" },
        h("tr", {}, h("th", {}, "What happened"), ...game.players.map((p) => h("th", {}, p.name))),
        ...game.progression.slice(1).map((s, k) => h("tr", {}, h("td", {}, s.label),
          ...s.scores.map((v, i) => {
            const d = v - game.progression[k].scores[i];
            return h("td", {}, String(v), d ? h("span", { class: "delta" }, ` (${d > 0 ? "+" : ""}${d})`) : "");
          }))))),
    game.receipts.length ? receipts(game) : "");
}

async function playerPage(id) {
  const data = await load("/api/history/players/" + id);
  const p = data.player;
  const people = roster(data.roster);
  $("title").replaceChildren(TofuTable.avatar(p.colour, p.avatar), " " + p.name);
  $("main").replaceChildren(
    h("section", { class: "panel" }, h("h2", {}, "Per game"),
      p.names.length > 1 ? h("p", { class: "muted" }, "Also played as " + p.names.filter((n) => n !== p.name).join(", ")) : "",
      data.per_game.length ? h("table", { class: "data" },
        h("tr", {}, h("th", {}, "Game"), h("th", {}, "Played"), h("th", {}, "Won"), h("th", {}, "Average"), h("th", {}, "Best")),
        ...data.per_game.map((g) => h("tr", {}, h("td", {}, g.game_name), h("td", {}, g.played), h("td", {}, g.won),
                                       h("td", {}, g.average), h("td", {}, g.best))))
        : h("p", { class: "muted" }, "No finished games yet.")),
    h("section", { class: "panel" }, h("h2", {}, "Head to head"),
      h("table", { class: "data" }, h("tr", {}, h("th", {}, "Against"), h("th", {}, "Games together"),
                                      h("th", {}, "Won"), h("th", {}, "Lost")),
        ...data.head_to_head.map((r) => h("tr", {}, h("td", {}, r.name), h("td", {}, r.games), h("td", {}, r.won),
                                          h("td", {}, r.lost))))),
    h("section", { class: "panel" }, h("h2", {}, "Games"), gamesTable(data.games, people)));
}

const route = location.pathname.match(/^\/history(?:\/(game|player)\/(\d+))?\/?$/);
(route && route[1] === "game" ? gamePage(route[2]) : route && route[1] === "player" ? playerPage(route[2]) : listPage())
  .catch((e) => console.warn("history:", e.message));
