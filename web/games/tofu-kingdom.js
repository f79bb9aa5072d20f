// Tofu Kingdom's own screen parts: TV (10-foot), seat (phone) and host.
// Views come from server/games/tofu_kingdom.py; the page draws prompt, players, soybeans and events.
// The TV view never holds the role of a coaster that is still face down, so nothing here can show one.
(() => {
  const { h, act, nameOf } = TofuTable;
  const MARKS = { heart: "\u2665", crown: "\u265B", mask: "\u25D1" };

  const style = document.createElement("style");
  style.textContent = `
    .tk-row { display: flex; flex-wrap: wrap; gap: 0.6em; align-items: stretch; margin: 0.4em 0; }
    .tk-head { display: flex; gap: 1em; align-items: baseline; flex-wrap: wrap; }
    .tk-round { font-weight: bold; }
    .tk-prince { color: var(--accent); font-weight: bold; }
    .tk-coaster { display: flex; flex-direction: column; align-items: center; justify-content: center;
                  min-width: 6.5em; min-height: 5.5em; padding: 0.3em 0.5em; border-radius: 50%;
                  border: 0.18em dashed var(--wood); color: var(--muted); text-align: center; }
    .tk-coaster .who { font-size: 0.8em; }
    .tk-coaster.down { border: 0.18em solid var(--token); color: var(--ink);
                       background: repeating-linear-gradient(45deg, var(--wood), var(--wood) 0.4em, var(--wood-dark) 0.4em, var(--wood-dark) 0.8em); }
    .tk-coaster.due { border-color: var(--accent); box-shadow: 0 0 0.6em var(--accent); color: var(--accent); }
    .tk-coaster.flipped { background: var(--card); color: var(--card-ink); border: 0.25em solid var(--accent); font-weight: bold; }
    .tk-coaster.revealed { background: var(--soft); color: var(--ink); border-style: solid; }
    .tk-mark { font-size: 1.6em; line-height: 1; }
    .tk-mark.heart { color: var(--bad); } .tk-mark.crown { color: var(--accent); } .tk-mark.mask { color: var(--mask); }
    .tk-questions { margin: 0.3em 0; padding-left: 1.4em; }
    .tk-questions li.extra { color: var(--accent); }
    .tk-budget { color: var(--muted); }
    .tk-result { font-size: 1.4em; font-weight: bold; margin: 0.3em 0; }
    .tk-history { font-size: 0.75em; color: var(--muted); }
    .tk-role { font-size: 1.6em; font-weight: bold; }
    .tk-card { border-radius: 0.6em; padding: 0.6em 0.8em; background: var(--soft); margin: 0.4em 0; }
    .tk-form { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; margin: 0.3em 0; }
    .tktv { display: flex; flex-direction: column; gap: 0.7rem; }
    .tktv .tk-head { font-size: 1.5rem; }
    .tktv .tk-row { flex-wrap: nowrap; gap: 0.6rem; margin: 0; }
    .tktv .tk-coaster { flex: 1 1 0; min-width: 0; max-width: 9rem; height: 6.6rem; min-height: 0; padding: 0.2rem;
                        border-radius: 1.6rem; font-size: 1rem; line-height: 1.1; overflow-wrap: anywhere; }
    .tktv .tk-coaster .who { font-size: 1rem; font-weight: bold; }
    .tktv .tk-mark { font-size: 1.5rem; }
    .tktv .tk-result { font-size: 1.6rem; margin: 0; }
    .tktv .tk-budget { font-size: 1.1rem; }
    .tktv .tk-questions { columns: 2; column-gap: 2rem; padding-left: 0; margin: 0; font-size: 1.1rem; list-style: none; }
    .tktv .tk-history { font-size: 1rem; }
    .tktv-end { display: flex; flex-direction: column; gap: 0.4rem; }
    .tktv-end h2 { margin: 0; }
    .tk-final tr.tk-flipped td { font-size: 1.4rem; border-bottom-width: 0.2rem; }
    .tk-legend { font-size: 1rem; }
    .tk-coaster.up { border: 0.2em solid var(--accent); color: var(--accent); background: var(--soft); }
    .tk-ask-first { font-size: 1.4rem; font-weight: bold; color: var(--card-ink); background: var(--accent); border-radius: 0.5rem;
                    padding: 0.3rem 0.8rem; align-self: flex-start; }
    .tk-final { border-collapse: collapse; font-size: 1.15rem; }
    .tk-final th, .tk-final td { padding: 0.25rem 0.6rem; text-align: center; border-bottom: 0.1rem solid var(--soft); }
    .tk-final th:first-child, .tk-final td:nth-child(2) { text-align: left; }
    .tk-final td.bean { color: var(--good-bright); font-weight: bold; }
    .tk-final tr.win td { color: var(--accent); font-weight: bold; }
    .tk-final .total { font-weight: bold; font-size: 1.3rem; }
    .tk-notes input { flex: 1 1 8em; min-width: 0; }
  `;
  document.head.append(style);

  const seatOf = (position) => (position.startsWith("seat-") ? Number(position.slice(5)) : null);
  const placeName = (view, position) => (seatOf(position) ? nameOf(view, seatOf(position)) : "Centre");
  const mark = (symbol) => h("span", { class: "tk-mark " + symbol }, MARKS[symbol] || "");

  function header(view) {
    return h("div", { class: "tk-head" },
      h("span", { class: "tk-round" }, `Round ${view.round} of ${view.rounds}`),
      h("span", { class: "tk-prince" }, "\u265A Prince " + view.prince.name));
  }

  // One tile per place a coaster goes: empty, face down, due (shared reader), flipped or revealed
  // (keyed by round and place, so the TV turns a tile over when its face changes).
  function coasters(view) {
    const revealed = {};
    (view.roles || []).forEach((r) => { revealed[r.position] = r; });
    const tile = (position, cls, ...face) => h("div", { class: "tk-coaster " + cls, "data-flip": view.round + ":" + position },
      ...face, h("span", { class: "who" }, placeName(view, position)));
    return h("div", { class: "tk-row" }, ...view.positions.map((position) => {
      if (view.flip && view.flip.position === position) {
        return tile(position, "flipped", mark(view.flip.symbol), view.flip.role_name);
      }
      if (revealed[position]) {
        return tile(position, "revealed", mark(revealed[position].team), revealed[position].role_name);
      }
      if ((view.lifted || []).includes(position)) return tile(position, "up", "lifted");
      const down = view.down.includes(position);
      const cls = down ? "down" : view.due === position ? "due" : "";
      return tile(position, cls, down ? "face down" : view.due === position ? "tap now" : "waiting");
    }));
  }

  function questionText(view, q) {
    return `${view.prince.name} \u2192 ${q.to_name}: ${q.label}` + (q.about_name ? ` (about ${q.about_name})` : "");
  }

  function questions(view) {
    if (!view.budget) return null;
    const b = view.budget;
    const unasked = b.unasked.length
      ? "Not asked yet: " + b.unasked.map((s) => nameOf(view, s)).join(", ")
      : b.left ? "Everyone has answered: one extra question left" : "No questions left";
    return h("div", {},
      h("div", { class: "tk-budget" }, `Questions: ${b.total - b.left} asked, ${b.left} left. ${unasked}.`),
      view.questions.length
        ? h("ol", { class: "tk-questions" }, ...view.questions.map((q) =>
          h("li", { class: q.extra ? "extra" : "" }, (q.extra ? "Extra: " : "") + questionText(view, q))))
        : null);
  }

  function result(flip) {
    const beans = flip.scorer_names.length ? "Soybean for " + flip.scorer_names.join(", ") : "No soybeans this round";
    return h("div", { class: "tk-result" }, mark(flip.symbol), ` ${flip.role_name}: the ${flip.symbol}. ${beans}.`);
  }

  function history(view) {
    const past = view.history.slice(0, view.flip ? -1 : undefined).slice(-3);
    if (!past.length) return null;
    return h("div", { class: "tk-history" }, ...past.map((r) =>
      h("div", {}, `Round ${r.round}: ${r.prince} flipped ${r.where}, ${r.role_name} ${r.mark} \u2192 `
        + (r.scorer_names.join(", ") || "nobody"))));
  }

  // Whose turn: the Prince of the round.
  function activeSeat(view) { return view.prince ? view.prince.seat : null; }

  // With questions=required, before the flip: who must still be asked (the flip waits for them).
  function askFirst(view) {
    if (view.question_recording !== "required" || !view.budget || !view.budget.unasked.length || view.flip) return null;
    return h("div", { class: "tk-ask-first" }, "Before the flip, ask: " + view.budget.unasked.map((s) => nameOf(view, s)).join(", "));
  }

  // The end: every player by place, a column per round (a soybean where they scored) and the total.
  function finalTable(view) {
    const order = [...view.players].sort((a, b) => b.score - a.score);
    const winners = new Set(view.winners || []);
    const place = (p) => 1 + view.players.filter((q) => q.score > p.score).length;
    const cell = (r, p) => {
      const scored = r.scorers.includes(p.seat);
      return h("td", { class: scored ? "bean" : "muted" }, (scored ? "+1" : "\u00b7") + (r.prince === p.name ? " \u2654" : ""));
    };
    return h("table", { class: "tk-final" },
      h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), ...view.history.map((r) => h("th", {}, "R" + r.round)),
        h("th", {}, "Soybeans")),
      h("tr", { class: "tk-flipped" }, h("td", {}, ""), h("td", {}, "Flipped"),
        ...view.history.map((r) => h("td", { title: `${r.prince} flipped ${r.where}: ${r.role_name}` },
          h("span", { class: "tk-mark " + r.symbol }, r.mark))), h("td", {}, "")),
      ...order.map((p) => h("tr", { class: winners.has(p.name) ? "win" : "" }, h("td", {}, String(place(p))),
        h("td", {}, p.name + (winners.has(p.name) ? " \u2605" : "")),
        ...view.history.map((r) => cell(r, p)),
        h("td", { class: "total" }, String(p.score)))));
  }

  // What the marks of the final table mean, from the symbols the game's flips turned up.
  function legend(view) {
    const seen = new Map(view.history.map((r) => [r.symbol, r.mark]));
    return h("div", { class: "tk-legend muted" }, [...seen].map(([symbol, mark]) => `${mark} ${symbol}`)
      .concat("\u2654 the round's Prince").join(" \u00b7 "));
  }

  // The end: who won, and the table of every round: what was flipped, who was Prince, who scored.
  function tvEnd(view) {
    const winners = view.winners || [];
    const title = winners.length > 1 ? winners.join(" and ") + " share the win!" : winners[0] + " wins!";
    return h("div", { class: "tktv-end" }, h("h2", {}, "\u2605 " + title), finalTable(view), legend(view));
  }

  // The night, spoken: "Prince, close your eyes ... look at your coasters", after look_seconds "lay
  // them face down" (the caption counts down), and once every coaster is down a chime and "Prince,
  // open your eyes" (the Prince cannot see the TV then, so it must be heard). Once per round.
  let night = null;
  function narrate(view, ctx) {
    const key = `${view.game_seq}.${view.round}`;
    if (view.phase === "deal" && !view.down.length && (!night || night.key !== key)) {
      night = { key, timer: null };
      TofuTV.speak("close_eyes");
      const end = Date.now() + view.look_seconds * 1000;
      const tick = () => {
        if (!night || night.key !== key) return;
        const left = Math.ceil((end - Date.now()) / 1000);
        if (left > 0) {
          TofuTV.caption(`Everyone but the Prince: look at your coasters (${left})`);
          night.timer = setTimeout(tick, 250);
        } else TofuTV.speak("face_down");
      };
      tick();
    } else if (view.phase === "questions" && ctx.prev && ctx.prev.phase === "deal") {
      if (night) clearTimeout(night.timer);
      night = { key: key + ".open", timer: null };
      TofuTV.play("turn");
      TofuTV.speak("all_down");
      setTimeout(() => TofuTV.caption(""), 8000);
    }
  }

  function tv(view, el, ctx = {}) {
    if (!view.over) narrate(view, ctx);
    if (view.over) {
      el.append(h("div", { class: "tk tktv" }, tvEnd(view)));
      return;
    }
    el.append(h("div", { class: "tk tktv" }, header(view), coasters(view), askFirst(view),
      view.flip ? result(view.flip) : questions(view), view.flip ? null : history(view)));
  }

  // Chimes: a reveal when the Prince flips a coaster.
  function cues(prev, view) { return !prev.flip && view.flip ? ["reveal"] : []; }

  // ----- phone -------------------------------------------------------------------
  // The Prince's question form: whom to ask, which question, and (for "Who is she?") about whom.
  function askForm(view, onAsk, targets) {
    const to = h("select", { name: "to" }, ...targets.map((s) => h("option", { value: s }, nameOf(view, s))));
    const about = h("select", { name: "about" }, ...view.positions.map((p) =>
      h("option", { value: p === "center" ? "center" : seatOf(p) }, placeName(view, p))));
    const buttons = Object.entries(view.question_kinds).map(([kind, label]) =>
      h("button", { type: "button", "data-question": kind, onclick: () => {
        const body = { to: Number(to.value), question: kind };
        if (kind === "who_is") body.about = about.value === "center" ? "center" : Number(about.value);
        onAsk(body);
      } }, label));
    return h("div", {}, h("div", { class: "tk-form" }, "Ask", to),
      h("div", { class: "tk-form" }, "about", about, h("span", { class: "muted" }, "(only for \u201CWho is she?\u201D)")),
      h("div", { class: "tk-form" }, ...buttons));
  }

  // The Prince's memory aid: a note per coaster of what its player answered (only this phone sees it).
  function princeNotes(view, me) {
    return h("div", { class: "tk-notes" }, h("h3", {}, "Your notes (only you see them)"),
      ...view.positions.map((p) => {
        const target = p === "center" ? "center" : seatOf(p);
        const input = h("input", { type: "text", maxlength: 80, value: me.notes[p] || "", "data-note": p,
          placeholder: "what they said", "aria-label": "Note for " + placeName(view, p) });
        const save = () => act({ seat: { seat: me.seat, action: "note", about: target, text: input.value.trim() || null } });
        input.addEventListener("change", save);
        return h("div", { class: "tk-form" }, h("span", { class: "tk-note-who" }, placeName(view, p)), input);
      }));
  }

  // The flip from the phone: for a coaster held up (no need to wait for the peek time), or a reader that missed it.
  function princeFlip(view, me) {
    const lifted = view.lifted || [];
    return h("div", {}, h("h3", {}, "Flip"), h("div", { class: "tk-form" },
      ...view.positions.map((p) => h("button", { class: lifted.includes(p) ? "" : "secondary", "data-flip-target": p,
        onclick: () => act({ seat: { seat: me.seat, action: "flip", target: p === "center" ? "center" : seatOf(p) } }) },
        "I flip " + placeName(view, p)))));
  }

  function seat(view, el) {
    const me = view.me;
    if (!me) return;
    const parts = [];
    if (me.is_prince) {
      parts.push(h("div", { class: "tk-card" }, h("div", { class: "tk-role" }, mark("heart"), " You are the Prince"),
        h("div", {}, me.goal)));
      if (me.can_ask) {
        parts.push(askForm(view, (body) => act({ seat: { seat: me.seat, action: "ask", ...body } }), me.ask_to));
      }
      if (view.phase === "questions") parts.push(princeNotes(view, me), princeFlip(view, me));
    } else if (me.role) {
      parts.push(h("div", { class: "tk-card" }, h("div", { class: "tk-role" }, mark(me.team), " " + me.role_name),
        h("div", {}, me.truth), h("div", {}, me.goal)));
    } else {
      parts.push(h("div", { class: "tk-card" }, me.goal));
    }
    if (view.flip) parts.push(result(view.flip));
    const q = questions(view);
    if (q) parts.push(q);
    el.append(h("div", { class: "tk" }, ...parts));
  }

  // ----- host ----------------------------------------------------------------------
  function host(view, el) {
    const hv = view.host;
    const doHost = (body) => act({ host: body });
    const targetSelect = (name) => h("select", { name }, ...view.positions.map((p) =>
      h("option", { value: p === "center" ? "center" : seatOf(p) }, placeName(view, p))));
    const targetValue = (s) => (s.value === "center" ? "center" : Number(s.value));
    const rows = view.positions.map((p) => h("tr", {}, h("td", {}, placeName(view, p)),
      h("td", {}, hv.placed[p] ? hv.coasters[hv.placed[p]].name : h("span", { class: "muted" }, "not down")),
      h("td", {}, view.flip && view.flip.position === p ? "flipped" : "")));
    const parts = [header(view), h("table", { class: "data" }, ...rows)];

    if (view.phase === "deal") {
      const where = targetSelect("place-at");
      const role = h("select", { name: "place-role" }, ...hv.in_play.map((r) => h("option", { value: r }, hv.coasters[r].name)));
      parts.push(h("div", { class: "tk-form" }, "Record a coaster:", where, role,
        h("button", { onclick: () => doHost({ action: "place", target: targetValue(where), role: role.value }) }, "Record")));
      const who = h("select", { name: "prince" }, ...view.players.map((p) => h("option", { value: p.seat }, p.name)));
      parts.push(h("div", { class: "tk-form" }, "Prince this round:", who,
        h("button", { class: "secondary", onclick: () => doHost({ action: "set_prince", seat: Number(who.value) }) }, "Make Prince")));
    }
    if (view.phase === "questions") {
      if (view.budget && view.budget.left) {
        const targets = view.budget.unasked.length ? view.budget.unasked
          : view.players.map((p) => p.seat).filter((s) => s !== view.prince.seat);
        parts.push(askForm(view, (body) => doHost({ action: "ask", ...body }), targets));
      }
      const where = targetSelect("flipped");
      parts.push(h("div", { class: "tk-form" }, "The Prince flipped:", where,
        h("button", { onclick: () => doHost({ action: "flip", target: targetValue(where) }) }, "Set flip")));
    }
    if (view.flip && hv.options.reveal !== "never" && !view.roles) {
      parts.push(h("button", { class: "secondary", onclick: () => doHost({ action: "reveal_all" }) }, "Reveal all roles on the TV"));
    }
    parts.push(h("div", { class: "tk-form" }, "Soybeans:", ...view.players.map((p) => h("span", {}, p.name + " ",
      h("button", { class: "secondary", onclick: () => doHost({ action: "adjust_soybeans", seat: p.seat, delta: -1 }) }, "\u22121"),
      h("button", { class: "secondary", onclick: () => doHost({ action: "adjust_soybeans", seat: p.seat, delta: 1 }) }, "+1")))));
    if (view.flip) parts.push(result(view.flip));
    const q = questions(view);
    if (q) parts.push(q);
    parts.push(history(view));
    el.append(h("div", { class: "tk" }, ...parts));
  }

  // The simulator's pads: every reader offers the coasters in play, which are the first of the game's
  // cards after the Prince's (his never lies on a reader); which one a seat was dealt is its secret.
  function pads(view, cards) {
    return { "*": cards.slice(1, 1 + (view.coasters_in_play || 0)).map((card) => {
      const role = card.split("/")[1];
      return [card, role[0].toUpperCase() + role.slice(1)];
    }) };
  }

  window.TofuGames["tofu-kingdom"] = { tv, seat, host, activeSeat, cues, pads };
})();
