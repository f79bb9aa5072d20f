// Food for Thought's own screen parts: TV (public boards, market, receipts), seat (what the rules
// allow now, as forms) and host (act for anyone, corrections, camera boards, card entry).
// Views come from server/games/food_for_thought/views.py; the page draws prompt, players and events.
(() => {
  const { h, act, nameOf } = TofuTable;

  const style = document.createElement("style");
  style.textContent = `
    .ft { display: flex; flex-direction: column; gap: 0.5em; }
    .ft-sample { background: var(--alarm); color: var(--white); font-weight: bold; padding: 0.2em 0.6em; border-radius: 0.3em;
                 letter-spacing: 0.08em; }
    .ft-head { display: flex; gap: 1em; align-items: center; flex-wrap: wrap; }
    .ft-row { display: flex; gap: 0.6em; flex-wrap: wrap; align-items: flex-start; }
    .ft-box { background: var(--soft); border-radius: 0.5em; padding: 0.4em 0.6em; }
    .ft-box h4 { margin: 0 0 0.3em 0; font-size: 0.9em; color: var(--accent); }
    .ft-card { background: var(--card); color: var(--card-ink); border-radius: 0.4em; padding: 0.25em 0.45em; margin: 0.15em 0;
               font-size: 0.85em; }
    .ft-card .vp { float: right; font-weight: bold; margin-left: 0.5em; }
    .ft-tok { display: inline-block; min-width: 1.2em; padding: 0 0.25em; margin: 0.05em; border-radius: 0.6em;
              background: var(--token); color: var(--white); text-align: center; }
    .ft-tok.empty { background: transparent; border: 1px dashed currentColor; color: inherit; }
    .ft-spaces { display: flex; flex-wrap: wrap; gap: 0.3em; margin: 0.2em 0 0.5em; }
    .ft .ft-spaces button.ft-space { margin: 0; min-height: 0; padding: 0.3em 0.5em; font-size: 1em; text-align: left;
                                     background: var(--card); color: var(--card-ink); border: 0.15em solid var(--card); line-height: 1.2; }
    .ft .ft-spaces button.ft-space.picked { background: var(--accent); border-color: var(--card-ink); font-weight: bold; }
    .ft-space small { display: block; font-size: 0.8em; color: var(--wood); }
    .ft-kitchen { margin: 0.2em 0; }
    .ft-kitchen div { padding-left: 0.8em; }
    .ft-choice { display: flex; flex-direction: column; gap: 0.1em; margin-bottom: 0.4em; }
    .ft-choice button { align-self: flex-start; }
    .ft-player { min-width: 14em; flex: 1 1 14em; }
    .ft-player.turn { outline: 3px solid var(--accent); }
    .ft-group { display: flex; justify-content: space-between; gap: 0.4em; }
    .ft-dice { font-size: 1.6em; font-weight: bold; }
    .ft-rollgrid { display: grid; grid-template-columns: repeat(6, minmax(0, 1fr)); gap: 0.3em; }
    .ft .ft-rollgrid button.ft-roll { margin: 0; min-height: 3.1em; padding: 0.1em 0; display: flex; flex-direction: column;
                                      align-items: center; justify-content: center; font-size: 1em; line-height: 1.1; }
    .ft-roll .faces { font-size: 1.75em; letter-spacing: -0.08em; }
    .ft-roll b { font-size: 1.15em; white-space: nowrap; }
    .ft-receipts { display: flex; gap: 0.8em; flex-wrap: wrap; }
    .ft-receipt { background: var(--card); color: var(--card-ink); padding: 0.5em 0.7em; border-radius: 0.3em; min-width: 14em;
                  font-family: monospace; font-size: 0.85em; flex: 1 1 14em; }
    .ft-receipt .line { display: flex; justify-content: space-between; gap: 0.6em; }
    .ft-receipt .total { border-top: 2px dashed var(--card-ink); font-weight: bold; margin-top: 0.3em; padding-top: 0.2em; }
    .ft-receipt.win { box-shadow: 0 0 0.8em var(--accent); }
    .ft-why { font-size: 0.85em; color: var(--muted); }
    .ft-form { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; margin: 0.3em 0; }
    .ft-form select, .ft-form input { max-width: 100%; }
    .ft-warn { color: var(--warn); }
    .ft-split { display: grid; grid-template-columns: minmax(0, 1.15fr) minmax(0, 1fr); gap: 0.6em; align-items: start; }
    .fttv { display: flex; flex-direction: column; gap: 0.6rem; height: 100%; }
    .fttv .ft-head { gap: 1.2rem; font-size: 1.2rem; }
    .fttv .ft-dice { font-size: 1.4rem; }
    .fttv-players { display: grid; grid-template-columns: repeat(var(--n), minmax(0, 1fr)); gap: 0.6rem; }
    .fttv-player { background: var(--soft); border-radius: 0.6rem; padding: 0.4rem 0.6rem; border: 0.2rem solid transparent; }
    .fttv-player.turn { border-color: var(--accent); }
    .fttv-player h3 { display: flex; justify-content: space-between; font-size: 1.3rem; margin: 0; }
    .fttv-player .line { overflow-wrap: anywhere; }
    .fttv-muted { color: var(--muted); }
    .fttv-group { display: grid; grid-template-columns: 5.2rem 1fr; align-items: center; gap: 0.3rem; }
    .fttv-dots { display: flex; gap: 0.15rem; }
    .fttv-dots i { width: 0.8rem; height: 0.8rem; border-radius: 50%; border: 0.12rem solid var(--line); }
    .fttv-dots i.on { background: var(--accent); border-color: var(--accent); }
    .fttv-strip { display: grid; gap: 0.3rem; }
    .fttv-strip b { color: var(--accent); }
    .fttv-steps { list-style: decimal; padding-left: 1.6rem; margin: 0; display: grid; gap: 0.2rem; }
    .fttv-end { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.2fr); gap: 1.2rem; align-items: start; }
    .fttv-receipts { display: grid; grid-template-columns: 1fr 1fr; gap: 0.5rem; }
    .fttv-receipt { background: var(--card); color: var(--card-ink); border-radius: 0.4rem; padding: 0.3rem 0.6rem; }
    .fttv-receipt .line { display: flex; justify-content: space-between; gap: 0.5rem; }
    .fttv-receipt .total { border-top: 0.12rem dashed var(--card-ink); font-weight: bold; }
    .fttv-tap { background: var(--card); color: var(--card-ink); border: 0.3rem solid var(--accent); border-radius: 0.6rem;
                padding: 0.4rem 0.9rem; font-size: 1.7rem; line-height: 1.25; }
    .fttv-tap h4 { margin: 0 0 0.2rem 0; font-size: 1em; color: var(--card-ink); }
    .fttv-tap .count { font-weight: bold; white-space: nowrap; }
    .fttv-tap .cover { font-size: 0.8em; }
    .fttv .fttv-put-back, .fttv .fttv-dining-unsure { font-size: 1.7rem; line-height: 1.25; border: 0.3rem solid var(--warn);
                border-radius: 0.6rem; padding: 0.4rem 0.9rem; }
    .fttv .fttv-put-back h4, .fttv .fttv-dining-unsure h4 { margin: 0 0 0.2rem 0; font-size: 1em; }
  `;
  document.head.append(style);

  // A token in words: a food by its name, a player's action marker ("marker2") by whose it is.
  const BOARD_TOKENS = { marker: "an action marker", covered: "a shopping token", die: "a die" };
  const food = (view, id) => (view.foods && view.foods[id]) || BOARD_TOKENS[id]
    || (/^marker\d$/.test(id) ? nameOf(view, Number(id.slice(6))) + "'s marker" : id);
  const short = (view, id) => food(view, id).split(/[ (]/)[0];   // "Fats & Oils" -> "Fats" on crowded screens
  const tok = (view, f) => h("span", { class: "ft-tok" + (f ? "" : " empty"), title: f ? food(view, f) : "empty" },
    f ? short(view, f) : "·");
  const tokens = (view, v) => (Array.isArray(v) ? (v.length ? v.map((f) => food(view, f)).join(", ") : "empty")
                                                : (v ? food(view, v) : "empty"));
  const WILDS = { wild: "any food", wild2: "2 of one other food", wild1or2: "1-2 of one other food" };
  const needText = (view, need) => WILDS[need] || need.split("|").map((n) => short(view, n)).join(" or ");

  function card(view, c, extra, corner) {
    return h("div", { class: "ft-card" }, h("span", { class: "vp" }, corner || c.vp + " VP"),
      h("b", {}, c.id + " "), c.name, h("div", {}, (c.needs || c.foods || []).map((n) => needText(view, n)).join(", ")),
      c.icon ? h("div", {}, "icon: " + c.icon) : null,
      c.does_text || c.ability ? h("div", { class: "ft-why" }, (c.end_game_vp ? `end of game +${c.end_game_vp} VP: ` : "") + (c.does_text || c.ability)) : null,
      extra || null);
  }

  function sampleBadge(view) {
    if (!view.data_label) return null;
    return h("span", { class: "ft-sample", title: "Still invented sample data: " + view.sample_kinds.join(", ") },
      view.data_label);
  }

  function header(view) {
    const mods = Object.entries(view.options).filter(([k, v]) => v === true).map(([k]) => k.replace("_", " "));
    return h("div", { class: "ft-head" }, sampleBadge(view), h("b", {}, `Round ${view.round} of ${view.rounds}`),
      h("span", {}, view.board_name), mods.length ? h("span", {}, "modules: " + mods.join(", ")) : null,
      view.turn ? h("span", {}, "Now: " + nameOf(view, view.turn)) : null,
      view.goals.length ? h("span", {}, "Goals: " + view.goals.map((g) => `${g.name} (1st ${g.first}, 2nd ${g.second})`).join("; ")) : null);
  }

  // The shopping list's open spaces as toggles, cheapest first (the dice's rows and columns are on
  // sale), each with its row and column on the board; a phone-wide list, not the board's 6x6 grid.
  function shoppingSpaces(view, picked, onPick) {
    const open = view.shopping.filter((s) => !s.covered)
      .sort((a, b) => (a.price || 0) - (b.price || 0) || a.space.localeCompare(b.space, undefined, { numeric: true }));
    const prices = [...new Set(open.map((s) => s.price))];
    const covered = view.shopping.length - open.length;
    return h("div", {}, ...prices.map((price) => h("div", {},
      h("div", {}, price === 1 ? "On sale, $1 (the dice's rows and columns):" : `$${price} each:`),
      h("div", { class: "ft-spaces" }, ...open.filter((s) => s.price === price).map((s) => {
        const on = picked.has(s.space);
        const [row, col] = s.space.split(".");
        return h("button", { class: "ft-space" + (on ? " picked" : ""), "aria-pressed": String(on), onclick: () => onPick(s.space) },
          (on ? "\u2713 " : "") + food(view, s.food) + " $" + price, h("small", {}, `row ${row} \u00B7 column ${col}`));
      })))),
      covered ? h("div", { class: "ft-why" }, `${covered} space${covered === 1 ? " is" : "s are"} covered this round.`) : null);
  }

  // The kitchen in words: what lies in it and after which round it goes to the trash (every token
  // moves one space right at the end of a round; the last space's go to the trash).
  function kitchenLines(view, p) {
    const n = p.kitchen.length;
    const lines = p.kitchen.map((col, i) => (col.length ? h("div", {}, col.map((f) => food(view, f)).join(", ") +
      (i === n - 1 ? ": to the trash at the end of this round" : `: to the trash after round ${view.round + n - 1 - i}`)) : null));
    return h("div", { class: "ft-kitchen" }, lines.some(Boolean) ? "Kitchen:" : "Kitchen: empty", ...lines);
  }

  function playerBoard(view, p) {
    const groups = p.groups.map((g) => {
      const n = g.tokens.length;
      const vp = n ? g.spaces[Math.min(n, g.spaces.length) - 1] : g.zero_vp;
      return h("div", { class: "ft-group" }, h("span", {}, (g.tile ? "\u26A0 " : "") + g.name),
        h("span", {}, ...g.tokens.map((f) => tok(view, f)), ` ${n}/${g.spaces.length} → ${vp > 0 ? "+" : ""}${vp}`));
    });
    const kitchen = kitchenLines(view, p);
    return h("div", { class: "ft-box ft-player" + (view.turn === p.seat ? " turn" : "") },
      h("h4", {}, `${p.name} — ${(view.players.find((x) => x.seat === p.seat) || {}).score} VP`),
      h("div", { class: "ft-why" }, (p.assistants.map((a) => a.name).join(", ") || "no assistant yet")
        + ` · ${p.actions_left} action${p.actions_left === 1 ? "" : "s"} left` + (p.passed ? " · passed" : "")
        + (p.allergy ? " · tile: " + p.allergy : "")),
      ...groups, kitchen,
      p.trash.length ? h("div", { class: "ft-warn" }, `Trash: ${p.trash.length} (${p.trash.length * -2} VP)`) : null,
      p.freezer.length || p.thaw.length ? h("div", {}, "Freezer: ", ...p.freezer.map((f) => tok(view, f)),
        " Thaw: ", ...p.thaw.map((f) => tok(view, f))) : null,
      h("div", { class: "ft-row" },
        ...p.recipes.map((r) => card(view, r, h("div", {}, "on it: ", ...r.tokens.map((f) => tok(view, f))))),
        ...p.activities.map((a) => card(view, a, h("div", {}, "on it: ", ...a.tokens.map((t) => tok(view, t && t.join("+"))))))),
      h("div", { class: "ft-why" }, `Done: ${p.recipes_done.length} recipe(s), ${p.activities_done.length} activit${p.activities_done.length === 1 ? "y" : "ies"}`
        + (p.activities_done.length ? " (" + p.activities_done.map((a) => a.icon).join(", ") + ")" : "")));
  }

  function receipts(view) {
    const winners = new Set(view.winners);
    return h("div", { class: "ft-receipts" }, ...view.receipts.map((r) => h("div", { class: "ft-receipt" + (winners.has(r.name) ? " win" : "") },
      h("div", {}, h("b", {}, r.name)),
      ...r.lines.map((l) => h("div", { class: "line" }, h("span", {}, l.label), h("span", {}, (l.vp > 0 ? "+" : "") + l.vp))),
      h("div", { class: "line total" }, h("span", {}, "TOTAL"), h("span", {}, r.total)))));
  }

  // One slot the table wants put right, in words: "Main board, action pizza: should hold Ann's
  // marker, holds Ann's marker, Ben's marker".
  function putBackLine(view, d) {
    const diet = /^diet-(\d)$/.exec(d.board);
    const board = diet ? nameOf(view, Number(diet[1])) + "'s board" : d.board === "shop" ? "Shopping list"
      : d.board === "main" ? "Main board" : d.board;
    return `${board}, ${d.slot.replace(/[._]/g, " ")}: should hold ${tokens(view, d.recorded)}, holds ${tokens(view, d.seen)}`;
  }

  // What the table wants put back before it records anything, on the TV for everyone to see.
  function tvPutBack(view) {
    if (!view.put_back || !view.put_back.length) return [];
    const more = view.put_back.length - 3;
    return [h("div", { class: "ft-box ft-warn fttv-put-back" },
      h("h4", {}, view.phase === "round_end" ? "Still to tidy before the next round" : "Put back: the table shows no legal action"),
      ...view.put_back.slice(0, 3).map((d) => h("div", {}, putBackLine(view, d))),
      more > 0 ? h("div", {}, `and ${more} more (the host page lists them)`) : null)];
  }

  // A card completed by a tap whose food still lies on it: where the food goes, until the camera sees it there.
  function tvToConfirm(view) {
    const c = view.to_confirm;
    if (!c || !c.lines.length) return [];
    return [h("div", { class: "ft-box fttv-to-confirm" }, h("h4", {}, `${nameOf(view, c.seat)}: ${c.words}`),
      ...c.lines.slice(0, 3).map((d) => h("div", {}, putBackLine(view, d))))];
  }

  // Dining-out tokens the camera could not take as laid out: what it could not see, and who confirms.
  function tvDiningUnsure(view) {
    if (!view.dining_unsure) return [];
    return [h("div", { class: "ft-box ft-warn fttv-dining-unsure" },
      h("h4", {}, "Dining out: the camera could not take these tokens"),
      ...view.dining_unsure.map((line) => h("div", {}, line)),
      h("div", {}, view.turn == null ? "Straighten them, or the host confirms dining out as it lies."
        : `Straighten them, or ${nameOf(view, view.turn)} (or the host) confirms dining out as it lies.`))];
  }

  function tableNotes(view) {
    const parts = [...tvDiningUnsure(view)];
    if (view.cleanup.length) {
      parts.push(h("div", { class: "ft-box" }, h("h4", {}, "Clean-up: the table does these by hand"),
        h("ol", {}, ...view.cleanup.map((s) => h("li", {}, s)))));
    }
    if (view.put_back && view.put_back.length) {
      parts.push(h("div", { class: "ft-box ft-warn" }, h("h4", {}, view.phase === "round_end" ? "Still to tidy before the next round"
        : "Put back: the table shows no legal action"),
        ...view.put_back.slice(0, 8).map((d) => h("div", {}, putBackLine(view, d)))));
    }
    if (view.question) {
      parts.push(h("div", { class: "ft-box" }, h("h4", {}, `${nameOf(view, view.question.seat)}: which action was it? (answer on the phone)`),
        h("ol", {}, ...view.question.options.map((o) => h("li", {}, o)))));
    }
    for (const [board, diff] of Object.entries(view.disagreements || {})) {
      parts.push(h("div", { class: "ft-box ft-warn" }, h("h4", {}, `Camera and record disagree on ${board}`),
        ...diff.slice(0, 8).map((d) => h("div", {}, `${d.slot}: recorded ${tokens(view, d.recorded)}, camera sees ${tokens(view, d.seen)}`))));
    }
    return parts;
  }

  // ----- TV: whose turn, the action in progress, the boards at a glance, the scores -----------------
  // (the cards' details, the shopping grid and every form are on the phones)
  const shortName = (name) => name.split(/[ (,]/)[0];

  function activeSeat(view) { return view.turn || null; }

  function tvHead(view) {
    return h("div", { class: "ft-head" }, sampleBadge(view), h("b", {}, `Round ${view.round} of ${view.rounds}`),
      view.turn ? h("span", {}, "Now: " + nameOf(view, view.turn)) : null,
      view.dice ? h("span", { class: "ft-dice" }, "\u2680 " + view.dice.join("  ")) : null);
  }

  function tvPlayer(view, p, full) {
    const score = (view.players.find((x) => x.seat === p.seat) || {}).score;
    const kitchen = p.kitchen.flat().length;
    const doing = p.passed ? "passed" : view.phase === "actions" ? `${p.actions_left} action${p.actions_left === 1 ? "" : "s"} left` : "";
    return h("div", { class: "fttv-player" + (view.turn === p.seat ? " turn" : "") },
      h("h3", {}, h("span", {}, p.name), h("span", {}, `${score} VP`)),
      h("div", { class: "line fttv-muted" }, p.assistants.map((a) => a.name).join(", ") || "no assistant yet"),
      doing ? h("div", { class: "line" }, doing) : null,
      p.allow_once.length ? h("div", { class: "line" }, "Host allows once: " + p.allow_once.map((l) => l.replace(/_/g, " ")).join(", ")) : null,
      ...(full ? p.groups.map((g) => h("div", { class: "fttv-group" },
        h("span", {}, (g.tile ? "\u26A0" : "") + shortName(g.name)),
        h("span", { class: "fttv-dots", "aria-label": `${g.tokens.length} of ${g.spaces.length}` },
          ...g.spaces.map((_, i) => h("i", { class: i < g.tokens.length ? "on" : "" }))))) : []),
      h("div", { class: "line" }, `Kitchen ${kitchen} \u00B7 recipes ${p.recipes_done.length}/${p.recipes_done.length + p.recipes.length}` +
        ` \u00B7 activities ${p.activities_done.length}/${p.activities_done.length + p.activities.length}`),
      p.trash.length ? h("div", { class: "line ft-warn" }, `Trash ${p.trash.length} (${p.trash.length * -2} VP)`) : null);
  }

  function tvStrip(view) {
    const names = (cards) => cards.map((c) => c.name.replace(/^Sample /, "")).join(" \u00B7 ") || "none";
    return h("div", { class: "fttv-strip" },
      view.phase === "assistants" ? h("div", {}, h("b", {}, "Assistants free: "), view.assistants_free.map((a) => a.name).join(", ") || "none") : null,
      h("div", {}, h("b", {}, "Recipe book: "), names(view.recipe_book)),
      h("div", {}, h("b", {}, "Daily planner: "), names(view.planner)),
      h("div", {}, h("b", {}, "Farmers market: "), names(view.market)),
      h("div", {}, h("b", {}, "Shopping list: "), `${view.shopping_spaces.used} of ${view.shopping_spaces.total} spaces used`));
  }

  // Physical draws: the cards the group must still reveal and tap before the round's first action,
  // in letters big enough to read across the room (the table learns these draws only from the taps).
  const TO_TAP = {
    market: (t) => `the ${t.of} farmers market cards you draw at random`,
    out_of_stock: (t) => `the top ${t.of} out of stock cards`,
  };
  function tvToTap(view) {
    if (!view.to_tap || !view.to_tap.length) return [];
    return [h("div", { class: "fttv-tap" }, h("h4", {}, "Before the first action, tap on a card reader:"),
      ...view.to_tap.map((t) => h("div", { class: "fttv-tap-" + t.kind }, TO_TAP[t.kind](t) + ": ",
        h("span", { class: "count" }, `${t.tapped} of ${t.of} tapped`),
        t.cover.length ? h("div", { class: "cover" }, "and cover " + t.cover.map((sp) => {
          const [row, col] = sp.split(".");
          return `row ${row} \u00B7 column ${col}`;
        }).join(", ") + " with shopping tokens") : null)))];
  }

  function tvProblems(view) {
    return Object.entries(view.disagreements || {}).map(([board, diff]) => h("div", { class: "ft-warn" },
      `Camera and record disagree on ${board} (${diff.length} slot${diff.length === 1 ? "" : "s"}): the host page shows what to put back.`));
  }

  // The end: the ranking, and each receipt summed by section (every line is on the phones).
  function tvEnd(view, ctx) {
    const receipts = view.receipts.map((r) => {
      const sections = {};
      r.lines.forEach((l) => { sections[l.section] = (sections[l.section] || 0) + l.vp; });
      return h("div", { class: "fttv-receipt" }, h("b", {}, r.name),
        ...Object.entries(sections).map(([k, vp]) => h("div", { class: "line" }, h("span", {}, k), h("span", {}, (vp > 0 ? "+" : "") + vp))),
        h("div", { class: "line total" }, h("span", {}, "total"), h("span", {}, r.total)));
    });
    return h("div", { class: "fttv-end" }, h("div", {}, TofuTV.finalRanking(view, ctx.unit, !!ctx.prev),
      view.rating ? h("div", { class: "ft-dice" }, "Solo rating: " + view.rating) : null),
      h("div", { class: "fttv-receipts" }, ...receipts));
  }

  function tv(view, el, ctx = {}) {
    const box = h("div", { class: "ft fttv" }, tvHead(view), ...tvToTap(view));
    el.append(box);
    if (view.over) { box.append(tvEnd(view, ctx)); return; }
    const cleanup = view.phase === "cleanup" && view.cleanup.length;
    // what the group must straighten comes first: below the boards it would fall off a full screen
    box.append(...tvDiningUnsure(view), ...tvPutBack(view), ...tvToConfirm(view),
      h("div", { class: "fttv-players", style: "--n:" + view.seats.length }, ...view.seats.map((p) => tvPlayer(view, p, !cleanup))),
      ...tvProblems(view),
      cleanup ? h("ol", { class: "fttv-steps" }, ...view.cleanup.map((step) => h("li", {}, step))) : tvStrip(view));
  }

  // ----- forms: shared by the phone (a player's own seat) and the host (acting for a seat) ---------
  const drafts = {};   // per seat: choices kept across re-renders (every state update redraws)
  const draftOf = (seat) => (drafts[seat] = drafts[seat] || { buy: new Set(), special: [], freeze: [], fields: {}, v: 0 });
  // Keep what the player chose in a form field across redraws (checkboxes, selects, inputs).
  function keep(seat, key, input) {
    const fields = draftOf(seat).fields;
    const box = input.type === "checkbox";
    if (key in fields) { if (box) input.checked = fields[key]; else input.value = fields[key]; }
    const store = () => {            // into the current draft: it may have been renewed since this was drawn
      const now = draftOf(seat);
      now.fields[key] = box ? input.checked : input.value;
      now.v += 1;
    };
    input.addEventListener("change", store);
    input.addEventListener("input", store);
    return input;
  }

  function select(name, options, labels) {
    return h("select", { name }, ...options.map((o, i) => h("option", { value: o }, labels ? labels[i] : o)));
  }

  function controls(view, me, mine, doActRaw) {
    const seat = me.seat;
    const d = draftOf(seat);
    const doAct = async (body) => {
      const sent = draftOf(seat);
      const version = sent.v;
      const r = await doActRaw(body);
      // the action went through: start the next one afresh, unless the player already began it
      if (r.ok && drafts[seat] === sent && sent.v === version) drafts[seat] = null;
      return r;
    };
    const foodIds = Object.keys(view.foods);
    const foodSel = (name) => select(name, foodIds, foodIds.map((f) => food(view, f)));
    const parts = [];
    const btn = (label, body) => h("button", { onclick: () => doAct(body) }, label);
    if (me.can.includes("dining_as_seen")) {
      parts.push(h("div", { class: "ft-form" }, "The camera could not take dining out: " + me.dining_unsure.join("; "),
        btn("Dining out lies as the camera read it", { action: "dining_as_seen" })));
    }
    if (me.can.includes("roll")) {
      // one tap: each unordered pair of faces is a button, in the row of the lower die and the column of the higher
      const face = (n) => String.fromCodePoint(0x267f + n);
      const pairs = [];
      for (let a = 1; a <= me.roll.faces; a++) {
        for (let b = a; b <= me.roll.faces; b++) {
          pairs.push(h("button", { class: "ft-roll", style: `grid-row: ${a}; grid-column: ${b}`, "aria-label": `${a} and ${b}`,
            onclick: () => doAct({ action: "roll", dice: [a, b] }) }, h("span", { class: "faces" }, face(a) + face(b)), h("b", {}, `${a}+${b}`)));
        }
      }
      parts.push(h("div", { class: "ft-box" }, h("h4", {}, "Your roll: tap the two dice you rolled"), h("div", { class: "ft-rollgrid" }, ...pairs)));
    }
    if (me.can.includes("answer")) {
      parts.push(h("div", { class: "ft-form" }, "Which action was it?",
        ...me.answer.options.map((o, i) => btn(o, { action: "answer", choice: i + 1 }))));
    }
    if (me.can.includes("assistant")) {
      const a = me.assistant;
      if (a.pick === 1) {
        parts.push(h("div", {}, h("div", {}, "Pick your assistant:"),
          ...a.choices.map((c) => h("div", { class: "ft-choice" },
            h("button", { onclick: () => doAct({ action: "assistant", card: c.id, cards: [c.id] }) }, c.name),
            h("div", { class: "ft-why" }, (c.does.length ? c.does.map((d) => d.text) : c.options).join(" / "))))));
      } else {
        const boxes = a.choices.map((c) => h("label", { class: "ft-choice" }, h("span", {}, h("input", { type: "checkbox", value: c.id }), c.name),
          h("span", { class: "ft-why" }, (c.does.length ? c.does.map((d) => d.text) : c.options).join(" / "))));
        parts.push(h("div", {}, h("div", {}, `Pick ${a.pick} assistants:`), ...boxes,
          h("button", { onclick: () => doAct({ action: "assistant", cards: boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.value) }) }, "Pick")));
      }
      if (a.not_again.length) parts.push(h("div", { class: "ft-why" }, "Not again this round: " + a.not_again.join(", ")));
    }
    if (me.can.includes("buy")) {
      const pick = (space) => {
        const now = draftOf(seat);      // the draft may have been renewed since this was drawn
        now.buy.has(space) ? now.buy.delete(space) : now.buy.add(space);
        now.v += 1;
        TofuTable.renderGame(mine.kind, mine.view, mine.el);
      };
      const cost = [...d.buy].reduce((t, s) => t + (view.shopping.find((x) => x.space === s).price || 0), 0) + 5 * d.special.length;
      const spec = foodSel("special");
      parts.push(h("div", { class: "ft-box" }, h("h4", {}, `Shopping: dice ${me.buy.dice.join(" and ")}, $${cost} of $${me.buy.budget}`),
        shoppingSpaces(view, d.buy, pick),
        h("div", { class: "ft-form" }, "Special order ($5):", spec, h("button", { onclick: () => { draftOf(seat).special.push(spec.value); draftOf(seat).v += 1; TofuTable.renderGame(mine.kind, mine.view, mine.el); } }, "Add"),
          d.special.map((f) => food(view, f)).join(", ")),
        view.options.freezer ? h("div", { class: "ft-form" }, "Freeze (comma separated):",
          h("input", { name: "freeze", value: d.freeze.join(","), onchange: (e) => { const now = draftOf(seat); now.freeze = e.target.value.split(",").map((x) => x.trim()).filter(Boolean); now.v += 1; } })) : null,
        h("button", { onclick: () => {
          const now = draftOf(seat);
          return doAct({ action: "buy", items: [...[...now.buy].map((sp) => ({ space: sp })), ...now.special.map((f) => ({ special: f }))],
                         freeze: now.freeze });
        } }, "Buy"), h("button", { onclick: () => { drafts[seat] = null; TofuTable.renderGame(mine.kind, mine.view, mine.el); } }, "Clear")));
    }
    if (me.can.includes("shop")) {
      const d1 = keep(seat, "die1", h("input", { type: "number", min: 1, max: 6, size: 2, placeholder: "die" }));
      const d2 = keep(seat, "die2", h("input", { type: "number", min: 1, max: 6, size: 2, placeholder: "die" }));
      parts.push(h("div", { class: "ft-form" }, "Grocery shopping:", view.options.dice === "physical" ? "enter your dice" : "(leave empty to roll here)", d1, d2,
        h("button", { onclick: () => doAct(d1.value && d2.value ? { action: "shop", dice: [Number(d1.value), Number(d2.value)] } : { action: "shop" }) }, "Shop")));
    }
    if (me.can.includes("market")) {
      parts.push(...view.market.map((m) => {
        const wilds = m.foods.filter((f) => f === "wild").map((_, i) => keep(seat, `market.${m.id}.${i}`, foodSel("wild" + i)));
        return h("div", { class: "ft-form" }, `Market: ${m.name} (${m.foods.map((f) => food(view, f)).join(", ")} → ${m.to})`, ...wilds,
          btn("Visit", { action: "market", card: m.id, wild: wilds.map((w) => w.value) }));
      }));
    }
    if (me.can.includes("pizza")) parts.push(h("div", { class: "ft-form" }, btn("Pizza To Go (all its food to your body)", { action: "pizza" })));
    if (me.can.includes("buffet")) {
      parts.push(h("div", { class: "ft-form" }, "Chinese Buffet:", ...view.buffet.map((r, i) => r.length ? btn(`Row ${i + 1}`, { action: "buffet", row: i + 1 }) : null)));
    }
    const mineP = view.seats.find((p) => p.seat === seat);
    if (me.can.includes("snack")) {
      const choices = [...new Set(mineP.kitchen.flat())].concat([...new Set(mineP.thaw)].map((f) => "thaw:" + f));
      if (choices.length) {
        const label = (c) => (c.startsWith("thaw:") ? food(view, c.slice(5)) + " (thawed)" : food(view, c));
        const s = keep(seat, "snack", select("food", choices, choices.map(label)));
        parts.push(h("div", { class: "ft-form" }, "Snack:", s, h("button", { onclick: () => doAct(s.value.startsWith("thaw:")
          ? { action: "snack", food: s.value.slice(5), from: "thaw" } : { action: "snack", food: s.value }) }, "Eat")));
      } else {
        parts.push(h("div", { class: "ft-why" }, "Snack: nothing in your kitchen to eat."));
      }
    }
    if (me.can.includes("cook")) {
      const takes = view.recipe_book.map((c) => h("label", {}, keep(seat, "cook.take." + c.id, h("input", { type: "checkbox", value: c.id })), c.id + " " + c.name));
      const mineRecipes = [...mineP.recipes.map((r) => r.id), ...view.recipe_book.map((c) => c.id)];
      const freezer = view.options.freezer;
      const rows = [0, 1, 2].map((i) => [keep(seat, "cook.recipe" + i, select("recipe", ["", ...mineRecipes])),
                                          keep(seat, "cook.food" + i, select("food", ["", ...Object.keys(view.foods)])),
                                          keep(seat, "cook.from" + i, select("from", ["kitchen", "thaw"]))]);
      const thaws = freezer ? [0, 1].map((i) => keep(seat, "cook.thaw" + i, select("thaw", ["", ...mineP.freezer],
                                                                              ["", ...mineP.freezer.map((f) => food(view, f))]))) : [];
      parts.push(h("div", { class: "ft-box" }, h("h4", {}, "Recipes & Cook: take up to 3, move up to 3 kitchen tokens"),
        h("div", { class: "ft-form" }, "Take:", ...takes),
        freezer ? h("div", { class: "ft-form" }, "Thaw first (counts among the 3):", ...thaws) : null,
        ...rows.map((r) => h("div", { class: "ft-form" }, "Put", r[1], freezer ? r[2] : null, "on", r[0])),
        h("button", { onclick: () => doAct({ action: "cook",
          take: takes.map((t) => t.firstChild).filter((i) => i.checked).map((i) => i.value),
          thaw: thaws.map((t) => t.value).filter(Boolean),
          place: rows.filter((r) => r[0].value && r[1].value).map((r) => ({ recipe: r[0].value, food: r[1].value, from: r[2].value })) }) }, "Cook")));
    }
    if (me.can.includes("workout")) {
      const takes = view.planner.map((c) => h("label", {}, keep(seat, "work.take." + c.id, h("input", { type: "checkbox", value: c.id })), c.id + " " + c.name));
      const mineActs = [...mineP.activities.map((a) => a.id), ...view.planner.map((c) => c.id)];
      // with an allergy tile, a token may come off the tile counted as the food the tile forbids
      const tile = me.tile;
      const from = (i) => (tile ? keep(seat, "work.from" + i, select("group", ["", tile.group],
        ["from your body", `from your tile, as ${tile.forbidden.map((f) => food(view, f)).join(" or ")}`])) : null);
      const rows = [0, 1, 2].map((i) => [keep(seat, "work.activity" + i, select("activity", ["", ...mineActs])),
                                          keep(seat, "work.food" + i, select("food", ["", ...Object.keys(view.foods)])),
                                          keep(seat, "work.count" + i, select("count", ["1", "2"])), from(i)]);
      parts.push(h("div", { class: "ft-box" }, h("h4", {}, "Activities & Work Out: take up to 2, move up to 3 body tokens"),
        h("div", { class: "ft-form" }, "Take:", ...takes), ...rows.map((r) => h("div", { class: "ft-form" }, "Put", r[2], "x", r[1], r[3], "on", r[0])),
        h("button", { onclick: () => doAct({ action: "workout",
          take: takes.map((t) => t.firstChild).filter((i) => i.checked).map((i) => i.value),
          place: rows.filter((r) => r[0].value && r[1].value).map((r) => ({ activity: r[0].value, food: r[1].value, count: Number(r[2].value),
                                                                            ...(r[3] && r[3].value ? { group: r[3].value } : {}) })) }) }, "Work out")));
    }
    if (me.can.includes("pass")) parts.push(h("div", { class: "ft-form" }, btn("Pass for the rest of the round", { action: "pass" })));
    if (me.can.includes("skip")) parts.push(h("div", { class: "ft-form" }, btn("Skip the extra Pizza To Go action", { action: "skip" })));
    // Abilities: a completed recipe's (once, then it flips) and each assistant option, with the
    // choices the ability asks for (a food, a column, a space, another player, a die, a face);
    // shown when they may be used: in the player's own turn, or at the round's end.
    const myTurn = ["actions", "pizza_extra"].includes(view.phase) && view.turn === seat;
    const now = (u) => (u.when === "end_of_round" ? ["cleanup", "round_end"].includes(view.phase) : myTurn);
    const others = view.seats.filter((p) => p.seat !== seat);
    const choiceInput = (c) => ({
      food: () => foodSel("food"), target: () => select("target", others.map((p) => String(p.seat)), others.map((p) => p.name)),
      die: () => select("die", ["1", "2"]), value: () => select("value", ["1", "2", "3", "4", "5", "6"]),
      column: () => select("column", (mineP ? mineP.kitchen : []).map((_, i) => String(i + 1))),
      space: () => h("input", { name: "space", placeholder: "row.col", size: 4 }),
    }[c])();
    const useRow = (label, u, body) => {
      if (!now(u)) return;
      const inputs = u.choices.map((c) => [c, choiceInput(c)]);
      const values = () => Object.fromEntries(inputs.map(([c, i]) => [c, ["space", "food"].includes(c) ? i.value : Number(i.value)]));
      parts.push(h("div", { class: "ft-form" }, ...inputs.map(([, i]) => i),
        h("button", { onclick: () => doAct({ action: "use_ability", ...body, ...values() }) }, `${label}: ${u.text}`)));
    };
    (mineP ? mineP.recipes_done : []).filter((r) => r.usable).forEach((r) => useRow(`Use ${r.name}`, r.usable, { recipe: r.id }));
    (mineP ? mineP.assistants : []).forEach((a) => a.does.forEach((u, i) => {
      if (!(a.declared && u.when === "end_of_round")) useRow(`${a.name} ${i + 1}`, u, { assistant: a.id, option: i + 1 });
    }));
    const why = Object.entries(me.why_not || {});
    if (why.length) parts.push(h("div", { class: "ft-why ft-whynot" }, ...why.map(([k, v]) => h("div", {}, (k === "all" ? "" : k + ": ") + v))));
    return parts;
  }

  // The allergy tile's substitution, the player's own choice at any time: each food the tile takes
  // goes on the tile first (while it has room) or on its own group.
  function tileChoice(view, me, doAct) {
    const tile = me.tile;
    if (!tile || view.over) return null;
    const first = new Set(tile.first);
    return h("div", { class: "ft-box" }, h("h4", {}, `Your ${tile.name} tile`),
      h("div", {}, "Tap a food to choose where it goes in your body:"),
      h("div", { class: "ft-spaces" }, ...tile.foods.map((f) => {
        const on = first.has(f);
        const next = tile.foods.filter((x) => (x === f ? !on : first.has(x)));
        return h("button", { class: "ft-space" + (on ? " picked" : ""), "aria-pressed": String(on),
                             onclick: () => doAct({ action: "tile_first", foods: next }) },
          (on ? "\u2713 " : "") + food(view, f), h("small", {}, on ? "on the tile first" : "on its own group first"));
      })));
  }

  function seat(view, el) {
    const me = view.me;
    if (!me) return;
    const mine = { kind: "seat", view, el };
    const doAct = (body) => act({ seat: { seat: me.seat, ...body } });
    const p = view.seats.find((x) => x.seat === me.seat);
    const helpers = p ? p.assistants.map((a) => h("div", { class: "ft-why" }, `${a.name}: ${(a.does.length ? a.does.map((d) => d.text) : a.options).join(" / ")}`)) : [];
    el.append(h("div", { class: "ft" }, header(view), ...controls(view, me, mine, doAct), tileChoice(view, me, doAct), ...helpers,
      view.over ? receipts(view) : null, p ? h("div", { class: "ft-row" }, playerBoard(view, p)) : null));
  }

  // ----- host ---------------------------------------------------------------------------------------
  let hostPinned = null;   // the seat the host chose to act for; otherwise the seat whose move it is
  let dataInfo = null;
  let dataKind = "recipes";
  const entryDraft = {};   // typed values survive the redraws that state updates cause

  async function loadData(redraw) {
    const r = await fetch("/api/food-for-thought/data", { headers: { Authorization: "Bearer " + TofuTable.token } });
    dataInfo = r.ok ? await r.json() : { error: (await r.json()).error.message };
    await TofuTable.loadGame("food-for-thought-boards");   // the diet board form (loadGame loads a script of web/games/ once)
    redraw();
  }

  const kindLabel = (k, info) => (info.source === "owner" ? `${k} (yours, ${info.count})`
    : info.entered ? `${k} (sample; ${info.entered} of yours entered)` : `${k} (sample, ${info.count})`);

  // The owner's card entry form; `view` is the running game's host view (null between games),
  // `redraw` draws the part holding the form again.
  function entryForm(view, redraw) {
    if (!dataInfo) return h("button", { onclick: () => loadData(redraw) }, "Open the card entry form");
    if (dataInfo.error) return h("div", { class: "ft-warn" }, dataInfo.error);
    const kinds = Object.keys(dataInfo.kinds);
    const kindSel = select("kind", kinds, kinds.map((k) => kindLabel(k, dataInfo.kinds[k])));
    kindSel.value = dataKind;
    kindSel.onchange = () => { dataKind = kindSel.value; redraw(); };
    const fields = dataInfo.kinds[dataKind].fields;
    const inputs = Object.entries(fields).map(([name, f]) => {
      const typ = Array.isArray(f.type) ? f.type.join("|") : f.type;
      const key = dataKind + "." + name;
      const input = h("input", { name, placeholder: typ + (f.required ? " (required)" : ""), size: 30,
                                 value: entryDraft[key] || "", oninput: (e) => { entryDraft[key] = e.target.value; } });
      if (typ !== "ability" && typ !== "abilities") return [name, typ, input];
      // an ability (JSON) previews in words as the owner types it
      const said = h("div", { class: "ft-why" });
      const show = async () => {
        let does;
        try { does = JSON.parse(input.value); } catch (e) { said.textContent = input.value.trim() ? "not JSON yet" : ""; return; }
        const r = await fetch("/api/food-for-thought/ability", { method: "POST",
          headers: { "Content-Type": "application/json", Authorization: "Bearer " + TofuTable.token },
          body: JSON.stringify({ kind: dataKind, does }) });
        const b = await r.json();
        said.textContent = r.ok ? (b.text ? "In words: " + b.text.join(" / ") : b.problems.join("; ")) : b.error.message;
      };
      input.addEventListener("input", show);
      if (input.value) show();
      return [name, typ, input, h("span", {}, input, said)];
    });
    const result = h("div", { class: "ft-why" });
    const submit = async () => {
      const record = {};
      for (const [name, typ, input] of inputs) {
        if (!input.value.trim()) continue;
        const v = input.value.trim();
        if (["int", "count", "round", "die"].includes(typ)) record[name] = Number(v);
        else if (typ === "bool") record[name] = v === "true";
        else if (typ === "measure" && v.startsWith("{")) {
          try { record[name] = JSON.parse(v); } catch (e) { record[name] = v; }
        }
        else if (["text", "id", "slug", "food", "food_id", "dest", "module", "measure"].includes(typ) || typ.includes("|")) record[name] = v;
        else {
          try { record[name] = JSON.parse(v); } catch (e) { record[name] = v.split(",").map((x) => x.trim()); }
        }
      }
      const r = await fetch("/api/food-for-thought/cards", { method: "POST",
        headers: { "Content-Type": "application/json", Authorization: "Bearer " + TofuTable.token },
        body: JSON.stringify({ kind: dataKind, record }) });
      const body = await r.json();
      if (r.ok) {
        dataInfo = body;
        Object.keys(entryDraft).filter((k) => k.startsWith(dataKind + ".")).forEach((k) => delete entryDraft[k]);
        redraw();
        return;
      }
      else result.textContent = (body.error.problems || [body.error.message]).join("\n");
    };
    const changed = view && view.options.data === "owner" && !view.over && dataInfo.fingerprint !== (view.host || {}).data_fingerprint;
    return h("div", { class: "ft-box" }, h("h4", {}, "Enter a real card into " + dataInfo.owner_dir),
      changed ? h("div", { class: "ft-warn" }, "The data files differ from the ones this game started with: an undo " +
        "or a restart replays this game with the new files. Finish the game before entering more cards.") : null,
      h("div", { class: "ft-why" }, dataInfo.sample.length ? "Still sample data: " + dataInfo.sample.join(", ") : "No sample data left."),
      h("div", { class: "ft-why" }, "Lists: comma separated or JSON; foods: " + dataInfo.foods.join(", ")),
      h("div", { class: "ft-form" }, "Kind:", kindSel),
      ...(dataKind === "boards" ? [TofuDietBoardForm.form(dataInfo, (body) => { dataInfo = body; redraw(); })] : [
        ...inputs.map(([name, , input, shown]) => h("div", { class: "ft-form" }, h("label", {}, name + " "), shown || input)),
        h("button", { onclick: submit }, "Check and save")]), result,
      completeBox(redraw, result),
      ...(dataInfo.problems || []).map((p) => h("div", { class: "ft-warn" }, p)));
  }

  // A kind stays sample until the owner marks it complete: the first card entered never replaces a deck.
  function completeBox(redraw, result) {
    const info = dataInfo.kinds[dataKind];
    const mark = async (complete) => {
      const r = await fetch("/api/food-for-thought/complete", { method: "POST",
        headers: { "Content-Type": "application/json", Authorization: "Bearer " + TofuTable.token },
        body: JSON.stringify({ kind: dataKind, complete }) });
      const body = await r.json();
      if (r.ok) { dataInfo = body; redraw(); }
      else result.textContent = (body.error.problems || [body.error.message]).join("\n");
    };
    const said = info.complete
      ? `Your ${info.entered} ${dataKind} are marked complete: new games use them.`
      : `Your ${dataKind} entered so far: ${info.entered}; new games use the sample ${dataKind} until you mark yours complete.`;
    return h("div", { class: "ft-why" }, said + " ",
      info.complete ? h("button", { onclick: () => mark(false) }, "Use the sample " + dataKind + " again")
        : info.entered ? h("button", { onclick: () => mark(true) }, "Mark " + dataKind + " complete") : null);
  }

  function host(view, el) {
    const hv = view.host || {};
    const seats = view.players.map((p) => p.seat);
    const acting = seats.find((s) => ((hv.options_by_seat || {})[String(s)] || { can: [] }).can.length) || seats[0];
    const hostSeat = seats.includes(hostPinned) ? hostPinned : acting;
    const doAct = async (body) => {
      const r = await act({ host: { seat: hostSeat, ...body } });
      if (r.ok) hostPinned = null;
      return r;
    };
    const mine = { kind: "host", view, el };
    const who = select("seat", seats.map(String), view.players.map((p) => "for " + p.name));
    who.value = String(hostSeat);
    who.onchange = () => { hostPinned = Number(who.value); TofuTable.renderGame("host", view, el); };
    const me = (hv.options_by_seat || {})[String(hostSeat)];
    const parts = [header(view)];
    if (view.phase === "cleanup") parts.push(h("button", { onclick: () => act({ host: { action: "continue" } }) }, "Clean-up done: start the next round"));
    parts.push(...tableNotes(view));
    parts.push(h("div", { class: "ft-box" }, h("h4", {}, "Act for a player"), who, ...(me ? controls(view, me, mine, doAct) : [])));
    const vp = h("input", { type: "number", size: 4, placeholder: "VP" });
    const reason = h("input", { size: 24, placeholder: "reason (shows on the receipt)" });
    parts.push(h("div", { class: "ft-form" }, "Adjust score:", vp, reason,
      h("button", { onclick: () => doAct({ action: "adjust", vp: Number(vp.value), reason: reason.value }) }, "Adjust")));
    const board = select("board", hv.boards || []);
    const slot = h("input", { size: 16, placeholder: "body.dairy.1" });
    const token = h("input", { size: 10, placeholder: "food or empty" });
    parts.push(h("div", { class: "ft-form" }, "Board:", board,
      h("button", { onclick: () => act({ host: { action: "watch_board", board: board.value, watched: !view.watched.includes(board.value) } }) }, "Camera watch on/off"),
      h("button", { onclick: () => act({ host: { action: "accept_board", board: board.value } }) }, "Accept camera view"),
      "Set slot", slot, "to", token,
      h("button", { onclick: () => act({ host: { action: "correct_board", board: board.value, slots: { [slot.value]: token.value.trim() || null } } }) }, "Correct")));
    if (view.options.food_allergy && view.round === 1) {
      const tile = select("tile", hv.allergy_tiles || []);
      parts.push(h("div", { class: "ft-form" }, "Allergy tile:", tile, h("button", { onclick: () => doAct({ action: "assign_allergy", tile: tile.value }) }, "Give")));
    }
    if (view.over) parts.push(receipts(view));
    parts.push(h("div", { class: "ft-why" }, `Bag: ${hv.bag_left} tokens; data: ` +
      Object.entries(hv.data_sources || {}).map(([k, v]) => `${k} ${v}`).join(", ")));
    parts.push(h("div", { class: "ft-row" }, ...view.seats.map((p) => playerBoard(view, p))));
    el.append(h("div", { class: "ft" }, ...parts));
  }

  // The host page's "Your cards and boards" part, in and between games (`view`: this game's, or null).
  function owner(el, view) {
    TofuTable.keepDrafts(el, () => el.replaceChildren(h("div", { class: "ft" }, entryForm(view, () => owner(el, view)))));
  }

  window.TofuGames["food-for-thought"] = { tv, seat, host, activeSeat, owner };
})();
