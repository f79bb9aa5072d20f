// Tofu God's own screen parts: TV (10-foot), seat (phone) and host.
// Views come from server/games/tofu_god.py; the page draws prompt, players, scores and events.
(() => {
  const { h, act, nameOf } = TofuTable;
  const QUESTIONS = [1, 2, 3];
  const ANSWERS = ["best", "worst"];

  // Styles for this game only, added once.
  const style = document.createElement("style");
  style.textContent = `
    .tg-row { display: flex; flex-wrap: wrap; gap: 0.6em; align-items: center; margin: 0.3em 0; }
    .tg-card { display: inline-flex; align-items: center; justify-content: center; min-width: 5.5em;
               min-height: 3.4em; padding: 0.3em 0.6em; border-radius: 0.5em; background: var(--card);
               color: var(--card-ink); font-weight: bold; text-align: center; }
    .tg-card.down { background: repeating-linear-gradient(45deg, var(--wood), var(--wood) 0.4em, var(--wood-dark) 0.4em, var(--wood-dark) 0.8em);
                    color: var(--ink); }
    .tg-card.aside { background: var(--soft); color: var(--muted); text-decoration: line-through; }
    .tg-card.best { outline: 0.25em solid var(--good); }
    .tg-card.worst { outline: 0.25em solid var(--bad); }
    .tg-card.small { min-width: 4em; min-height: 2.2em; font-size: 0.85em; }
    .tg-card.next { outline: 0.2em dashed var(--accent); }
    .tg-card.mine { outline: 0.2em solid var(--accent); }
    .seat .tg .tg-card { min-width: 4.2em; min-height: 2.6em; font-size: 0.95em; }
    .seat .tg .tg-label { min-width: 5.5em; }
    .tg-label { color: var(--muted); min-width: 6em; }
    .tg-labelled { flex-wrap: nowrap; }                 /* the cards wrap beside their label, not under it */
    .tg-labelled > .tg-row { flex: 1 1 0; min-width: 0; margin: 0; }
    .tg-q { padding: 0.1em 0.6em; border-radius: 1em; background: var(--soft); }
    .tg-q.now { background: var(--accent); color: var(--card-ink); font-weight: bold; }
    .tg-q.done { text-decoration: line-through; color: var(--muted); }
    .tg-guess { display: grid; grid-template-columns: 7em 7em 5em; gap: 0.5em; align-items: center; margin: 0.3em 0; }
    .tg-guess .tg-card { min-height: 2.6em; }
    .tg-points { font-weight: bold; font-size: 1.3em; }
    .tg-points.plus { color: var(--good); } .tg-points.minus { color: var(--bad); }
    .tg-draws { display: grid; gap: 0.6em; margin: 0.4em 0; }
    .tg-tie-grid { display: grid; gap: 0.3em; align-items: center; }
    .tg-card.tie { min-width: 0; min-height: 2.4em; padding: 0.2em; font-size: 0.9em; overflow-wrap: anywhere; }
    .tg-card.tofu { background: var(--accent); box-shadow: 0 0 0.6em var(--accent); }
    .tg-winner { font-size: 1.6em; color: var(--accent); font-weight: bold; }
    .tgtv { display: flex; flex-direction: column; gap: 0.8rem; height: 100%; }
    .tgtv .tg-card { font-size: 1.1rem; min-width: 0; min-height: 0; }
    .tgtv-head { display: flex; align-items: center; gap: 1rem; flex-wrap: wrap; }
    .tgtv-turn { font-size: 1.5rem; font-weight: bold; }
    .tgtv-pills { margin-left: auto; display: flex; gap: 0.5rem; }
    .tgtv-aside { display: flex; align-items: center; gap: 0.6rem; }
    .tgtv-aside .tg-card { padding: 0.1rem 0.6rem; font-size: 1rem; }
    .tgtv-answers { display: grid; grid-template-columns: auto 1fr 1fr auto; gap: 1rem; align-items: center;
                    background: var(--soft); border-radius: 0.6rem; padding: 0.6rem 1rem; }
    .tgtv-who { font-size: 1.3rem; font-weight: bold; }
    .tgtv-answer { display: grid; grid-template-rows: auto 1fr; gap: 0.2rem; }
    .tgtv-answer .tg-card { font-size: 1.6rem; min-height: 4.6rem; }
    .tgtv-kind { font-weight: bold; }
    .tgtv-answer.best .tgtv-kind { color: var(--good-bright); } .tgtv-answer.worst .tgtv-kind { color: var(--bad-bright); }
    .tgtv-active-pts { font-size: 1.8rem; font-weight: bold; color: var(--good-bright); }
    .tgtv-locked { font-size: 1.2rem; color: var(--muted); }
    .tgtv-guesses { display: grid; gap: 0.6rem; flex: 1 1 auto; min-height: 0; align-content: start; }
    .tgtv-guess { display: flex; flex-direction: column; gap: 0.3rem; background: var(--soft); border-radius: 0.6rem;
                  padding: 0.5rem; text-align: center; border: 0.2rem solid transparent; }
    .tgtv-guess.best { border: 0.2rem solid var(--good); } .tgtv-guess.worst { border: 0.2rem dashed var(--bad); }
    .tgtv-name { font-size: 1.3rem; font-weight: bold; overflow-wrap: anywhere; }
    .tgtv-guess .tg-card { min-height: 3.6rem; font-size: 1.3rem; overflow-wrap: anywhere; }
    .tg-card.waiting { background: transparent; border: 0.15rem dashed var(--line); color: var(--muted); font-weight: normal; }
    .tgtv-note { font-weight: bold; }
    .tgtv-guess.best .tgtv-note { color: var(--good-bright); } .tgtv-guess.worst .tgtv-note { color: var(--bad-bright); }
    .tgtv-tie-title { font-size: 1.3rem; font-weight: bold; }
    .tgtv-tie-how { font-size: 1.2rem; margin: 0.6rem 0 1rem; }
    .tgtv-tie-done { display: grid; grid-template-columns: minmax(0, 1.3fr) minmax(0, 1fr); gap: 1.2rem; align-items: start; }
    .tgtv-end { display: grid; grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr); gap: 1.2rem; align-items: start; }
    .tgtv-end .tgtv-summary-rows { grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); }
    .tgtv .tg-winner { font-size: 1.6rem; }
    .tgtv .final h2 { font-size: 1.8rem; }
    .tgtv-summary { display: flex; flex-direction: column; gap: 0.8rem; background: var(--soft); border-radius: 0.6rem;
                    padding: 0.8rem 1.2rem; }
    .tgtv-summary-title { font-size: 1.6rem; font-weight: bold; }
    .tgtv-summary-qs { display: flex; gap: 1.5rem; flex-wrap: wrap; align-items: center; }
    .tgtv-summary-q { display: flex; gap: 0.4rem; align-items: center; font-size: 1.2rem; }
    .tgtv-summary-rows { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.3rem 2rem;
                         grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); font-size: 1.6rem; font-weight: bold; }
    .tgtv-summary-rows .plus { color: var(--good-bright); } .tgtv-summary-rows .minus { color: var(--bad-bright); }
    .tgtv-timer { align-self: flex-start; font-size: 1.8rem; font-weight: bold; padding: 0.2rem 1rem; border-radius: 0.6rem;
                  background: var(--accent); color: var(--card-ink); font-variant-numeric: tabular-nums; }
    .tgtv-timer.over { background: var(--alert); color: var(--white); }
    .tg .tg-answers { display: grid; grid-template-columns: auto minmax(0, 1fr) minmax(0, 1fr); }
    .seat .tg .tg-answers .tg-label { min-width: 0; }
    .seat .tg .tg-answers .tg-card { min-width: 0; font-size: 0.9em; overflow-wrap: anywhere; }
    .tg .slot.picked { outline: 3px solid var(--accent); }
    .tg button.card { min-width: 6em; }
    .tg button.card.chosen { outline: 3px solid var(--accent); }
    .tg table.data select, .tg table.data input { max-width: 9em; }
  `;
  document.head.append(style);

  const label = (view, card) => (card ? view.labels[card] || card : "");
  // a card; `flip` keys it so the TV turns it over when its face changes
  const card = (text, cls = "", flip = null) => h("span", { class: "tg-card " + cls, "data-flip": flip }, text);
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
    return h("div", { class: "tg-row tg-labelled" }, h("span", { class: "tg-label" }, "Set aside"),
      h("span", { class: "tg-row" },
        ...(aside.length ? aside.map((c) => card(label(view, c), "aside")) : [h("span", { class: "muted" }, "not yet")])));
  }

  function ranking(view) {
    return h("ul", {}, ...view.ranking.map((r) =>
      h("li", { class: view.winners.includes(r.name) ? "tg-winner" : "" }, `${r.place}. ${r.name}: ${r.score}`)));
  }

  // The digital tofu draw as a grid per round: a row per tied player, a column per draw, the tofu lit
  // up; `shown` limits how many draws (counted over all rounds) are face up.
  function tieGrid(view, shown = Infinity) {
    const tie = view.tie_break;
    let first = 0;   // draws before this round
    return h("div", { class: "tg-draws" }, ...tie.rounds.map((round, i) => {
      const before = first;
      first += round.draws.length;
      return h("div", { class: "tg-tie-round" },
        i ? h("div", { class: "tg-again" }, "More than one tofu: again, between " + round.seats.map((s) => nameOf(view, s)).join(" and ")) : null,
        h("div", { class: "tg-tie-grid", style: `grid-template-columns: auto repeat(${round.draws.length}, minmax(0, 1fr))` },
          ...round.seats.flatMap((s) => [h("span", { class: "tg-tie-name" }, nameOf(view, s)),
            ...round.draws.map((draw, d) => {
              const up = before + d < shown, c = draw[String(s)];
              return card(up ? label(view, c) : "?", "tie " + (up ? (c === tie.card ? "tofu" : "") : "down"));
            })])));
    }));
  }

  // ----- TV ------------------------------------------------------------------------------------------
  const MARK = { best: "\u2605 best", worst: "\u2716 worst" };   // shape and word as well as colour

  // Whose turn: the active player (the seat cards on the TV mark it).
  function activeSeat(view) { return view.turn && view.phase !== "tie_break" ? view.turn.active : null; }

  function tvHead(view) {
    const t = view.turn;
    return h("div", { class: "tgtv-head" },
      h("span", { class: "tgtv-turn" }, `Turn ${t.number} of ${view.total_turns}: ${nameOf(view, t.active)} answers`),
      t.conundrum ? h("span", { class: "tag" }, "Conundrum #" + t.conundrum) : null,
      h("span", { class: "tgtv-pills" }, ...QUESTIONS.map((q) => {
        const done = q < t.question || (q === t.question && view.phase === "answered");
        return h("span", { class: "tg-q " + (done ? "done" : q === t.question ? "now" : "") },
          (done ? "\u2713 " : "") + "Q" + q);
      })));
  }

  // The focal part: the active player's best and worst for this question (each turned over at its
  // own reveal), then every guess.
  function tvQuestion(view) {
    const t = view.turn;
    const result = view.results.find((r) => r.question === t.question && view.phase !== "guessing");
    const active = nameOf(view, t.active);
    const answer = (which) => {
      const up = result && result[which];
      return h("div", { class: "tgtv-answer " + which }, h("span", { class: "tgtv-kind" }, MARK[which]),
        card(up ? label(view, result[which]) : "?", up ? which : "down", `${t.number}.${t.question}.${which}`));
    };
    const activePts = result && result.best ? result.points[String(t.active)] : null;
    const guesses = t.guessers.map((seat) => {
      const key = String(seat);
      let face, note = null;
      if (result) {
        const outcome = result.outcomes[key];
        face = card(label(view, result.guesses[key]) || "no guess", outcome === "best" || outcome === "worst" ? outcome : "",
                    `${t.number}.${t.question}.g${seat}`);
        if (outcome) note = outcomeNote(outcome, result.points[key]);
      } else {
        const ready = t.guessed.includes(seat);
        face = card(ready ? "ready" : "waiting", ready ? "down" : "waiting", `${t.number}.${t.question}.g${seat}`);
      }
      return h("div", { class: "tgtv-guess" + (result && result.outcomes[key] ? " " + result.outcomes[key] : "") },
        h("span", { class: "tgtv-name" }, nameOf(view, seat)), face,
        note ? h("span", { class: "tgtv-note" }, note) : null);
    });
    return [
      h("div", { class: "tgtv-answers" }, h("span", { class: "tgtv-who" }, `${active}'s answers`), answer("best"), answer("worst"),
        activePts !== null ? h("span", { class: "tgtv-active-pts" }, `${active} +${activePts}`)
          : h("span", { class: "tgtv-locked" }, t.answers_locked < 6 ? `${t.answers_locked} of 6 locked` : "6 locked")),
      h("div", { class: "tgtv-guesses", style: `grid-template-columns: repeat(${t.guessers.length}, minmax(0, 1fr))` }, ...guesses)];
  }

  // What a revealed guess scored, in words and shape as well as colour.
  function outcomeNote(outcome, pts) {
    if (outcome === "best") return `${MARK.best} +1`;
    if (outcome === "worst") return pts ? `${MARK.worst} \u22121` : `${MARK.worst}: \u22121, stays at 0`;
    return "no match, 0";
  }

  // The turn that ended: every question's best and worst, and who scored what.
  function tvSummary(view) {
    const last = view.last_turn;
    return h("div", { class: "tgtv-summary" },
      h("div", { class: "tgtv-summary-title" }, `${nameOf(view, last.active)}'s turn is over`),
      h("div", { class: "tgtv-summary-qs" }, ...last.results.map((r) => h("div", { class: "tgtv-summary-q" },
        h("b", {}, "Q" + r.question), card(label(view, r.best), "best small"), card(label(view, r.worst), "worst small")))),
      h("ul", { class: "tgtv-summary-rows" }, ...last.rows.map((row) => h("li", {
        class: row.rules > 0 ? "plus" : row.rules < 0 ? "minus" : "" }, row.text))));
  }

  // The summary stays until the next turn's first card (or the end of the game).
  function showsSummary(view) {
    const t = view.turn;
    if (!view.last_turn || view.last_turn.number !== t.number - 1) return false;
    if (view.phase === "set_aside") return !t.set_aside.length;
    return view.phase === "guessing" && !t.answers_locked && !t.guessed.length && !view.results.length;
  }

  // The explanation timer (option explain_timer): a countdown from each reveal, once per reveal;
  // the last worst answer of a turn is explained over the turn summary.
  const timers = new Map();
  const EXPLAINING = ["guesses_revealed", "best_revealed", "answered"];
  function explainTimer(view, key) {
    const seconds = view.options.explain_timer;
    if (!seconds || view.over) return null;
    if (!timers.has(key)) timers.set(key, Date.now());
    const el = h("div", { class: "tgtv-timer", role: "timer" });
    const tick = () => {
      const left = Math.max(0, Math.ceil(seconds - (Date.now() - timers.get(key)) / 1000));
      el.textContent = left ? `Explain: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : "Time!";
      el.classList.toggle("over", !left);
      el.dataset.left = left;
      if (!left) {
        if (el.isConnected && !timers.get(key + ".done")) { timers.set(key + ".done", true); TofuTV.play("turn"); }
        return;
      }
      if (el.isConnected || !el.dataset.drawn) setTimeout(tick, 250);
      el.dataset.drawn = "1";
    };
    tick();
    return el;
  }

  function tvSetAside(view) {
    const aside = view.turn.set_aside;
    return h("div", { class: "tgtv-aside" }, h("span", { class: "muted" }, "Set aside this turn:"),
      ...(aside.length ? aside.map((c) => card(label(view, c), "aside small")) : [h("span", { class: "muted" }, "not yet")]));
  }

  // The draw plays out column by column when it happens while the TV watches; a TV opened later
  // shows it whole at once, with the ranking beside it.
  function tvTieBreak(view, el, ctx) {
    const tie = view.tie_break;
    const intro = h("div", { class: "tgtv-tie-title" }, "Tie between " + tie.tied.map((s) => nameOf(view, s)).join(" and ") +
      ": draw until one finds the " + label(view, tie.card));
    if (tie.mode === "manual" || !tie.rounds.length) {   // (append() would write a missing ranking as "null")
      const how = tie.mode === "manual" && !view.over ? h("div", { class: "tgtv-tie-how" },
        "Shuffle your silhouettes face down and turn them over one at a time, together; the first to turn up the "
        + label(view, tie.card) + " wins. The host enters the winner.") : null;
      el.append(...[intro, how, view.ranking ? TofuTV.finalRanking(view, ctx.unit) : null,
        !view.over && view.last_turn ? tvSummary(view) : null].filter(Boolean));
      return;
    }
    const draws = tie.rounds.reduce((n, r) => n + r.draws.length, 0);
    const winner = h("div", { class: "tg-winner" }, nameOf(view, tie.winner) + " draws the " + label(view, tie.card) + " first!");
    const live = ctx.prev && !ctx.prev.over && view.over;
    if (!live) {
      el.append(h("div", { class: "tgtv-tie-done" }, h("div", {}, intro, tieGrid(view), winner),
        TofuTV.finalRanking(view, ctx.unit)));
      return;
    }
    const STEP = 800;
    const box = h("div", {}, intro, tieGrid(view, 0));
    el.append(box);
    TofuTV.suspense(STEP * (draws + 2));   // the page keeps the winner quiet until then
    for (let i = 1; i <= draws; i++) {
      setTimeout(() => { box.replaceChildren(intro, tieGrid(view, i)); TofuTV.play("reveal"); }, STEP * i);
    }
    setTimeout(() => box.append(winner), STEP * (draws + 1));
    setTimeout(() => el.replaceChildren(h("div", { class: "tgtv-tie-done" }, h("div", {}, intro, tieGrid(view), winner),
      TofuTV.finalRanking(view, ctx.unit, true))), STEP * (draws + 2));
  }

  function tv(view, el, ctx = {}) {
    const box = h("div", { class: "tg tgtv" });
    el.append(box);
    if (view.tie_break && (view.over || view.phase === "tie_break")) return tvTieBreak(view, box, ctx);
    if (view.over) {   // the ranking beside the last turn's summary (one above the other did not fit 6 players)
      const ranking = TofuTV.finalRanking(view, ctx.unit, !!ctx.prev);
      box.append(view.last_turn ? h("div", { class: "tgtv-end" }, ranking, tvSummary(view)) : ranking);
      return;
    }
    if (showsSummary(view)) {
      const timer = explainTimer(view, `${view.last_turn.number}.3.answered`);
      box.append(...[tvHead(view), tvSetAside(view), timer, tvSummary(view)].filter(Boolean));
      return;
    }
    const timer = EXPLAINING.includes(view.phase) && explainTimer(view, `${view.turn.number}.${view.turn.question}.${view.phase}`);
    // (append() would write a missing timer as the text "null")
    box.append(...[tvHead(view), tvSetAside(view), timer].filter(Boolean), ...tvQuestion(view));
  }

  // Chimes: a reveal when the guesses, the best or the worst answer turn over (the last worst
  // answer of a turn ends it).
  function cues(prev, view) {
    const turned = prev.phase !== view.phase && EXPLAINING.includes(view.phase);
    const ended = prev.turn && view.last_turn && view.last_turn.number === prev.turn.number;
    return turned || ended ? ["reveal"] : [];
  }

  // ----- phone -------------------------------------------------------------------
  function seat(view, el) {
    const me = view.me;
    if (!me) return;
    const play = (c) => act({ seat: { seat: me.seat, action: "card", card: c } });
    const parts = [h("div", { class: "muted" }, `You play silhouette set ${me.set}.`), setAside(view)];
    if (me.active) {
      parts.push(h("h3", {}, "Your answers"), ...answerRows(view, me));
      if (me.next && !view.over) {
        parts.push(h("p", { class: "muted" }, `Tap a card, or choose here for your ${me.next.answer} answer to question ${me.next.question}:`),
          h("div", {}, ...me.available.map((c) => h("button", { class: "card secondary", onclick: () => play(c) }, label(view, c)))));
      } else if (view.phase === "set_aside") {
        parts.push(h("p", {}, "Draw two of your cards at random and tap them face up to set them aside."),
          h("div", {}, ...me.available.map((c) => h("button", { class: "card secondary", onclick: () => play(c) }, label(view, c)))));
      }
      const num = h("input", { type: "number", name: "conundrum", min: 1, max: 999, value: view.turn.conundrum || "", placeholder: "e.g. 12" });
      parts.push(h("p", {}, "Conundrum number ", num, h("button", { class: "secondary",
        onclick: () => act({ seat: { seat: me.seat, action: "conundrum", number: num.value ? Number(num.value) : null } }) }, "Save")));
    } else {
      parts.push(h("h3", {}, `Your guess for question ${view.turn.question}`),
        h("div", { class: "tg-row" }, me.guess ? card(label(view, me.guess), "mine") : h("span", { class: "muted" }, "none yet")),
        h("h3", {}, "In your hand"),
        h("div", {}, ...me.hand.map((c) => h("button", { class: "card secondary", disabled: !canGuess(view),
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

  // A guess is taken while a question is open, and right after a worst answer (it opens the next).
  const canGuess = (view) => view.phase === "guessing" || (view.phase === "answered" && view.turn.question < 3);

  // The active player's six answers in their places. Until question 1's guesses are revealed a
  // place can be picked and then swapped with another (tap both) or taken back.
  let picked = null;
  function answerRows(view, me) {
    if (!me.can_arrange) picked = null;
    const swap = (slot) => {
      if (!picked) { picked = slot; return TofuTable.renderGame("seat", view, document.getElementById("game-area")); }
      const first = picked;
      picked = null;
      if (first === slot) return TofuTable.renderGame("seat", view, document.getElementById("game-area"));
      return act({ seat: { seat: me.seat, action: "swap", first, second: slot } });
    };
    const rows = QUESTIONS.map((q) => h("div", { class: "tg-row tg-answers" }, h("span", { class: "tg-label" }, "Question " + q),
      ...ANSWERS.map((a) => {
        const c = me.choices.find((x) => x.question === q && x.answer === a);
        const next = me.next && me.next.question === q && me.next.answer === a;
        const face = c.card ? `${a}: ${label(view, c.card)}${c.revealed ? " \u2713" : ""}` : next ? "next: " + a : a;
        if (!me.can_arrange) return card(face, c.card ? a : "down" + (next ? " next" : ""));
        return h("button", { class: `tg-card slot ${c.card ? a : "down"}${next ? " next" : ""}${picked === c.slot ? " picked" : ""}`,
          "data-slot": c.slot, onclick: () => swap(c.slot) }, face);
      })));
    if (me.can_arrange && me.choices.some((c) => c.card)) {
      rows.push(h("p", { class: "muted" }, picked ? "Tap another place to swap with it, or take this one back."
        : "Tap two places to swap them (until the guesses for question 1 are shown)."),
      h("div", {}, picked ? h("button", { class: "secondary", onclick: () => {
        const slot = picked;
        picked = null;
        act({ seat: { seat: me.seat, action: "clear", slot } });
      } }, "Take back this answer") : null,
      h("button", { class: "secondary", onclick: () => { picked = null; act({ seat: { seat: me.seat, action: "clear" } }); } },
        "Start all six again")));
    }
    return rows;
  }

  // ----- host ------------------------------------------------------------------------
  // A card menu; its `name` lets a half-made choice survive the next state update.
  function select(name, view, options, value, blank) {
    return h("select", { name }, ...(blank ? [h("option", { value: "" }, blank)] : []),
      ...options.map((c) => h("option", { value: c, selected: c === value }, label(view, c))));
  }

  function host(view, el) {
    const t = view.turn;
    const all = Object.keys(view.labels);
    const parts = [turnHeader(view), setAside(view), questionPills(view)];
    if (view.phase === "tie_break") {
      parts.push(h("p", {}, "Who drew the tofu first?"),
        h("div", {}, ...view.tie_break.tied.map((s) => h("button", { onclick: () => act({ host: { action: "tie_break_winner", seat: s } }) }, nameOf(view, s)))));
    }
    if (view.tie_break && view.tie_break.mode === "digital") parts.push(tieGrid(view));
    // answers: locked, revealed, correctable until revealed
    const answerRows = [];
    for (const q of QUESTIONS) for (const a of ANSWERS) {
      const c = view.choices.find((x) => x.question === q && x.answer === a);
      const sel = select(`choice-${q}-${a}`, view, all, c && c.card, "—");
      answerRows.push(h("tr", {}, h("td", {}, `Q${q} ${a}`), h("td", {}, c ? label(view, c.card) : "not yet"),
        h("td", {}, sel, h("button", { class: "secondary", onclick: () => act({ host: { action: "choice", question: q, answer: a, card: sel.value } }) }, "Set"))));
    }
    parts.push(h("h3", {}, nameOf(view, t.active) + "'s answers"), h("table", { class: "data" }, ...answerRows));
    // guesses for the open question
    const guessRows = t.guessers.map((s) => {
      const sel = select(`guess-${s}`, view, all, view.guesses[String(s)], "(none)");
      return h("tr", {}, h("td", {}, nameOf(view, s)), h("td", {}, label(view, view.guesses[String(s)]) || "—"),
        h("td", {}, sel, h("button", { class: "secondary", onclick: () => act({ host: { action: "guess", seat: s, card: sel.value || null } }) }, "Set")));
    });
    parts.push(h("h3", {}, `Guesses for question ${t.question}`), h("table", { class: "data" }, ...guessRows));
    // set-aside, conundrum, scores
    const a1 = select("set-aside-1", view, all, t.set_aside[0]), a2 = select("set-aside-2", view, all, t.set_aside[1]);
    const num = h("input", { type: "number", name: "conundrum", min: 1, max: 999, value: t.conundrum || "" });
    parts.push(h("h3", {}, "Corrections"),
      h("p", {}, "Set aside ", a1, " ", a2, h("button", { class: "secondary", onclick: () => act({ host: { action: "set_aside", cards: [a1.value, a2.value] } }) }, "Set")),
      h("p", {}, "Conundrum number ", num, h("button", { class: "secondary", onclick: () => act({ host: { action: "conundrum", number: num.value ? Number(num.value) : null } }) }, "Save")),
      h("table", { class: "data" }, ...view.players.map((p) => {
        const score = h("input", { type: "number", name: `score-${p.seat}`, value: p.score });
        return h("tr", {}, h("td", {}, p.name), h("td", {}, "set " + view.sets[String(p.seat)]),
          h("td", {}, score, h("button", { class: "secondary", onclick: () => act({ host: { action: "score", seat: p.seat, score: Number(score.value) } }) }, "Set score")));
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

  // The simulator's pads: each seat's reader offers that player's own set by silhouette name; the
  // shared readers offer every set in play, named with its player.
  function pads(view) {
    const set = (seat, label) => Object.entries(view.labels || {}).map(([id, name]) =>
      [`tofu-god/set-${view.sets[seat]}/${id}`, label(name)]);
    const out = {};
    view.players.forEach((p) => { out["seat-" + p.seat] = set(p.seat, (name) => name); });
    out["*"] = view.players.flatMap((p) => set(p.seat, (name) => `${p.name}'s ${name}`));
    return out;
  }

  window.TofuGames["tofu-god"] = { tv, seat, host, activeSeat, cues, pads };
})();
