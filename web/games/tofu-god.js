// Tofu God's own screen parts: TV (10-foot), seat (phone) and host.
// Views come from server/games/tofu_god.py; the page draws prompt, players, scores and events.
(() => {
  const { h } = TofuTable;
  const QUESTIONS = [1, 2, 3];
  const ANSWERS = ["best", "worst"];

  // Styles for this game only, added once.
  const style = document.createElement("style");
  style.textContent = `
    .tg-row { display: flex; flex-wrap: wrap; gap: 0.6em; align-items: center; margin: 0.3em 0; }
    .tg-card { display: inline-flex; align-items: center; justify-content: center; min-width: 5.5em;
               min-height: 3.4em; padding: 0.3em 0.6em; border-radius: 0.5em; background: #fffaf2;
               color: #201a10; font-weight: bold; text-align: center; }
    .tg-card.down { background: repeating-linear-gradient(45deg, #5a4b3a, #5a4b3a 0.4em, #4a3d2f 0.4em, #4a3d2f 0.8em);
                    color: #f6efe4; }
    .tg-card.aside { background: #3a332b; color: #b9ad9b; text-decoration: line-through; }
    .tg-card.best { outline: 0.25em solid #7bc67b; }
    .tg-card.worst { outline: 0.25em solid #e46a5a; }
    .tg-card.small { min-width: 4em; min-height: 2.2em; font-size: 0.85em; }
    .tg-card.next { outline: 0.2em dashed #f2c14e; }
    .tg-card.mine { outline: 0.2em solid #f2c14e; }
    .seat .tg .tg-card { min-width: 4.2em; min-height: 2.6em; font-size: 0.95em; }
    .seat .tg .tg-label { min-width: 5.5em; }
    .tg-label { color: #b9ad9b; min-width: 6em; }
    .tg-q { padding: 0.1em 0.6em; border-radius: 1em; background: #3a332b; }
    .tg-q.now { background: #f2c14e; color: #201a10; font-weight: bold; }
    .tg-q.done { text-decoration: line-through; color: #b9ad9b; }
    .tg-guess { display: grid; grid-template-columns: 7em 7em 5em; gap: 0.5em; align-items: center; margin: 0.3em 0; }
    .tg-guess .tg-card { min-height: 2.6em; }
    .tg-points { font-weight: bold; font-size: 1.3em; }
    .tg-points.plus { color: #7bc67b; } .tg-points.minus { color: #e46a5a; }
    .tg-draws { display: grid; gap: 0.3em; }
    .tg-draws .tg-card { transition: transform 0.3s; }
    .tg-draws .tg-card.tofu { background: #f2c14e; transform: scale(1.15); }
    .tg-winner { font-size: 1.6em; color: #f2c14e; font-weight: bold; }
    .tv .tg { font-size: 1.7vw; }
    .tv .tg .tg-card { font-size: 1.6vw; }
    .tg button.card { min-width: 6em; }
    .tg button.card.chosen { outline: 3px solid #f2c14e; }
    .tg table.data select, .tg table.data input { max-width: 9em; }
  `;
  document.head.append(style);

  const label = (view, card) => (card ? view.labels[card] || card : "");
  const nameOf = (view, seat) => (view.players.find((p) => p.seat === Number(seat)) || {}).name || "seat " + seat;
  const card = (text, cls = "") => h("span", { class: "tg-card " + cls }, text);
  const signed = (n) => (n > 0 ? "+" + n : String(n));

  function turnHeader(view) {
    const t = view.turn;
    const parts = [h("b", {}, `Turn ${t.number} of ${view.total_turns}: ${nameOf(view, t.active)} answers`)];
    if (t.conundrum) parts.push(h("span", { class: "tag" }, "Conundrum #" + t.conundrum));
    if (view.options.no_edgy) parts.push(h("span", { class: "tag" }, "Edgy (black) conundrums stay in the box"));
    return h("div", { class: "tg-row" }, ...parts);
  }

  function questionPills(view) {
    const t = view.turn;
    return h("div", { class: "tg-row" }, ...QUESTIONS.map((q) => {
      const done = q < t.question || (q === t.question && view.phase === "answered");
      return h("span", { class: "tg-q " + (done ? "done" : q === t.question ? "now" : "") }, "Question " + q);
    }));
  }

  function setAside(view) {
    const aside = view.turn.set_aside;
    return h("div", { class: "tg-row" }, h("span", { class: "tg-label" }, "Set aside"),
      ...(aside.length ? aside.map((c) => card(label(view, c), "aside")) : [h("span", { class: "muted" }, "not yet")]));
  }

  // The current question: who has guessed, then the guesses, then best/worst and points.
  function questionPanel(view) {
    const t = view.turn;
    const result = view.results.find((r) => r.question === t.question && view.phase !== "guessing");
    const rows = t.guessers.map((seat) => {
      const key = String(seat);
      let guess;
      if (result) {
        const outcome = result.outcomes[key];
        guess = card(label(view, result.guesses[key]), outcome === "best" ? "best" : outcome === "worst" ? "worst" : "");
      } else {
        guess = t.guessed.includes(seat) ? card("guessed", "down") : h("span", { class: "muted" }, "thinking…");
      }
      const pts = result && result.best ? result.points[key] : null;
      return h("div", { class: "tg-guess" }, h("span", {}, nameOf(view, seat)), guess,
        pts === null ? h("span") : h("span", { class: "tg-points " + (pts > 0 ? "plus" : pts < 0 ? "minus" : "") }, signed(pts)));
    });
    const answer = (which) => (result && result.best
      ? card(label(view, result[which]), which) : card(which === "best" ? "best ?" : "worst ?", "down"));
    const active = nameOf(view, t.active);
    const activePts = result && result.best ? result.points[String(t.active)] : null;
    return h("div", {},
      h("div", { class: "tg-row" }, h("span", { class: "tg-label" }, active + "'s answers"), answer("best"), answer("worst"),
        activePts === null ? "" : h("span", { class: "tg-points plus" }, active + " " + signed(activePts))),
      t.answers_locked < 6 ? h("div", { class: "muted" }, `${active} has locked ${t.answers_locked} of 6 answers`) : "",
      ...rows);
  }

  function ranking(view) {
    return h("ul", {}, ...view.ranking.map((r) =>
      h("li", { class: view.winners.includes(r.name) ? "tg-winner" : "" }, `${r.place}. ${r.name}: ${r.score}`)));
  }

  // The digital tofu draw, step by step: each tied player's card per draw, the tofu lit up.
  let shownDraw = "";
  // `after` (the final ranking) appears once the last draw has been shown.
  function tieBreak(view, after = []) {
    const tie = view.tie_break;
    const box = h("div", { class: "tg-draws" },
      h("div", {}, "Tie between " + tie.tied.map((s) => nameOf(view, s)).join(" and ") + ": draw until one finds the " + label(view, tie.card) + "!"));
    if (tie.mode === "manual" || !tie.rounds.length) { box.append(...after); return box; }
    const steps = [];
    tie.rounds.forEach((round, i) => {
      if (i) steps.push(h("div", { class: "muted" }, "More than one tofu: again, between " + round.seats.map((s) => nameOf(view, s)).join(" and ")));
      round.draws.forEach((draw, n) => steps.push(h("div", { class: "tg-row" }, h("span", { class: "tg-label" }, "Draw " + (n + 1)),
        ...round.seats.map((s) => h("span", {}, nameOf(view, s) + " ", card(label(view, draw[String(s)]), "small " + (draw[String(s)] === tie.card ? "tofu" : "")))))));
    });
    const winner = h("div", { class: "tg-winner" }, nameOf(view, tie.winner) + " draws the " + label(view, tie.card) + " first!");
    const key = JSON.stringify(tie);
    // once the draw has played out, the winner line and the ranking replace the draws (they fit a TV)
    if (key === shownDraw) { box.append(winner, ...after); return box; }
    shownDraw = key;
    TofuTable.suspense(900 * (steps.length + 2));   // the page keeps the winner quiet until then
    [...steps, winner].forEach((el, i) => setTimeout(() => box.append(el), 900 * (i + 1)));
    setTimeout(() => { steps.forEach((s) => s.remove()); box.append(...after); }, 900 * (steps.length + 2));
    return box;
  }

  function tv(view, el) {
    const parts = [];
    if (view.over || view.phase === "tie_break") {
      const final = view.ranking ? [h("h2", {}, "Final ranking"), ranking(view)] : [];
      parts.push(...(view.tie_break ? [tieBreak(view, final)] : final));
    } else {
      parts.push(turnHeader(view), setAside(view), questionPills(view), questionPanel(view));
    }
    el.append(h("div", { class: "tg" }, ...parts));
  }

  // ----- phone -------------------------------------------------------------------
  async function act(send, input) {
    const r = await send(input);
    const box = document.getElementById("notices");
    // refusals with a private detail also arrive on the seat's socket; show the others here
    if (!r.ok && box && !(r.body.error && r.body.error.detail)) TofuTable.notice(box, r.body.error.message);
    return r;
  }

  function seat(view, el, send) {
    const me = view.me;
    if (!me) return;
    const play = (c) => act(send, { seat: { seat: me.seat, action: "card", card: c } });
    const parts = [h("div", { class: "muted" }, `You play silhouette set ${me.set}.`), setAside(view)];
    if (me.active) {
      parts.push(h("h3", {}, "Your answers"));
      for (const q of QUESTIONS) {
        parts.push(h("div", { class: "tg-row" }, h("span", { class: "tg-label" }, "Question " + q),
          ...ANSWERS.map((a) => {
            const c = me.choices.find((x) => x.question === q && x.answer === a);
            const next = me.next && me.next.question === q && me.next.answer === a;
            return c.card ? card(label(view, c.card) + (c.revealed ? " ✓" : ""), a)
              : card(next ? "next: " + a : a, "down" + (next ? " next" : ""));
          })));
      }
      if (me.next && !view.over) {
        parts.push(h("p", { class: "muted" }, `Tap a card, or choose here for your ${me.next.answer} answer to question ${me.next.question}:`),
          h("div", {}, ...me.available.map((c) => h("button", { class: "card secondary", onclick: () => play(c) }, label(view, c)))));
      } else if (view.phase === "set_aside") {
        parts.push(h("p", {}, "Draw two of your cards at random and tap them face up to set them aside."),
          h("div", {}, ...me.available.map((c) => h("button", { class: "card secondary", onclick: () => play(c) }, label(view, c)))));
      }
      const num = h("input", { type: "number", min: 1, max: 999, value: view.turn.conundrum || "", placeholder: "card number" });
      parts.push(h("p", {}, "Conundrum number ", num, h("button", { class: "secondary",
        onclick: () => act(send, { seat: { seat: me.seat, action: "conundrum", number: num.value ? Number(num.value) : null } }) }, "Save")));
    } else {
      parts.push(h("h3", {}, `Your guess for question ${view.turn.question}`),
        h("div", { class: "tg-row" }, me.guess ? card(label(view, me.guess), "mine") : h("span", { class: "muted" }, "none yet")),
        h("h3", {}, "In your hand"),
        h("div", {}, ...me.hand.map((c) => h("button", { class: "card secondary", disabled: view.phase !== "guessing",
          onclick: () => play(c) }, label(view, c)))));
    }
    const result = view.results[view.results.length - 1];
    if (result && result.best && view.phase === "answered") {
      const mine = result.points[String(me.seat)];
      parts.push(h("p", {}, `Question ${result.question}: best ${label(view, result.best)}, worst ${label(view, result.worst)}. You: ${signed(mine || 0)}`));
    }
    if (view.ranking) parts.push(h("h3", {}, "Final ranking"), ranking(view));
    el.append(h("div", { class: "tg" }, ...parts));
  }

  // ----- host ------------------------------------------------------------------------
  function select(view, options, value, blank) {
    return h("select", {}, ...(blank ? [h("option", { value: "" }, blank)] : []),
      ...options.map((c) => h("option", { value: c, selected: c === value }, label(view, c))));
  }

  function host(view, el, send) {
    const t = view.turn;
    const all = Object.keys(view.labels);
    const parts = [turnHeader(view), setAside(view), questionPills(view)];
    if (view.phase === "tie_break") {
      parts.push(h("p", {}, "Who drew the tofu first?"),
        h("div", {}, ...view.tie_break.tied.map((s) => h("button", { onclick: () => act(send, { host: { action: "tie_break_winner", seat: s } }) }, nameOf(view, s)))));
    }
    if (view.tie_break && view.tie_break.mode === "digital") parts.push(tieBreak(view));
    // answers: locked, revealed, correctable until revealed
    const answerRows = [];
    for (const q of QUESTIONS) for (const a of ANSWERS) {
      const c = view.choices.find((x) => x.question === q && x.answer === a);
      const sel = select(view, all, c && c.card, "—");
      answerRows.push(h("tr", {}, h("td", {}, `Q${q} ${a}`), h("td", {}, c ? label(view, c.card) : "not yet"),
        h("td", {}, sel, h("button", { class: "secondary", onclick: () => act(send, { host: { action: "choice", question: q, answer: a, card: sel.value } }) }, "Set"))));
    }
    parts.push(h("h3", {}, nameOf(view, t.active) + "'s answers"), h("table", { class: "data" }, ...answerRows));
    // guesses for the open question
    const guessRows = t.guessers.map((s) => {
      const sel = select(view, all, view.guesses[String(s)], "(none)");
      return h("tr", {}, h("td", {}, nameOf(view, s)), h("td", {}, label(view, view.guesses[String(s)]) || "—"),
        h("td", {}, sel, h("button", { class: "secondary", onclick: () => act(send, { host: { action: "guess", seat: s, card: sel.value || null } }) }, "Set")));
    });
    parts.push(h("h3", {}, `Guesses for question ${t.question}`), h("table", { class: "data" }, ...guessRows));
    // set-aside, conundrum, scores
    const a1 = select(view, all, t.set_aside[0]), a2 = select(view, all, t.set_aside[1]);
    const num = h("input", { type: "number", min: 1, max: 999, value: t.conundrum || "" });
    parts.push(h("h3", {}, "Corrections"),
      h("p", {}, "Set aside ", a1, " ", a2, h("button", { class: "secondary", onclick: () => act(send, { host: { action: "set_aside", cards: [a1.value, a2.value] } }) }, "Set")),
      h("p", {}, "Conundrum number ", num, h("button", { class: "secondary", onclick: () => act(send, { host: { action: "conundrum", number: num.value ? Number(num.value) : null } }) }, "Save")),
      h("table", { class: "data" }, ...view.players.map((p) => {
        const score = h("input", { type: "number", value: p.score });
        return h("tr", {}, h("td", {}, p.name), h("td", {}, "set " + view.sets[String(p.seat)]),
          h("td", {}, score, h("button", { class: "secondary", onclick: () => act(send, { host: { action: "score", seat: p.seat, score: Number(score.value) } }) }, "Set score")));
      })));
    if (view.results.length) {
      parts.push(h("h3", {}, "This turn so far"), h("table", { class: "data" }, ...view.results.map((r) =>
        h("tr", {}, h("td", {}, "Q" + r.question), h("td", {}, "best " + label(view, r.best || "?") + ", worst " + label(view, r.worst || "?")),
          h("td", {}, Object.entries(r.guesses).map(([s, g]) => `${nameOf(view, s)} ${label(view, g)}` +
            (r.points[s] !== undefined ? ` (${signed(r.points[s])})` : "")).join(", "))))));
    }
    if (view.ranking) parts.push(h("h3", {}, "Final ranking"), ranking(view));
    el.append(h("div", { class: "tg" }, ...parts));
  }

  window.TofuGames["tofu-god"] = { tv, seat, host };
})();
