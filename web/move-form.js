// A form built from the running game's declared moves (GET /api/games, docs/adding-a-game.md):
// the moves of one sender legal in the view's phase, one field per argument by its kind. The host
// page's "Any correction" is its host moves; a phone whose game draws no controls of its own gets
// the seat moves, so a new game needs no page code to be played. Half-typed fields survive state
// updates.
const TofuMoveForm = (() => {
  const { h, act, nameOf, keepDrafts } = TofuTable;

  // Whether `input` ("host" or "seat") may make `move` in `view`'s phase (phases null: every
  // phase but the end).
  function legalNow(move, view, input = "host") {
    if (move.input !== input) return false;
    if (view.phase === "over") return move.after_the_end;
    return move.phases === null || move.phases.includes(view.phase);
  }

  function hint(arg) {
    const range = arg.minimum !== null || arg.maximum !== null ? ` ${arg.minimum ?? ""}..${arg.maximum ?? ""}` : "";
    const list = arg.kind === "list" ? " (separate with commas)" : "";
    return arg.help + range + list;
  }

  // The field for one argument; its name is "arg-<name>".
  function field(arg, view) {
    const name = "arg-" + arg.name;
    const blank = arg.optional || arg.nullable ? [h("option", { value: "" }, "\u2014")] : [];
    if (arg.kind === "choice") {
      return h("select", { name }, ...blank, ...arg.choices.map((c, i) => h("option", { value: "c" + i }, String(c))));
    }
    if (arg.kind === "seat") {
      return h("select", { name }, ...blank,
        ...view.players.map((p) => h("option", { value: "s" + p.seat }, nameOf(view, p.seat))),
        ...arg.choices.map((c, i) => h("option", { value: "c" + i }, String(c))));
    }
    if (arg.kind === "bool") return h("input", { type: "checkbox", name });
    if (arg.kind === "int") return h("input", { type: "number", name, step: 1, min: arg.minimum, max: arg.maximum, placeholder: hint(arg) });
    return h("input", { type: "text", name, placeholder: hint(arg), "aria-label": arg.help });
  }

  // The argument's value from its field; undefined leaves an optional argument out.
  function valueOf(arg, el) {
    if (el.type === "checkbox") return el.checked;
    const raw = el.value.trim();
    if (raw === "") return arg.nullable ? null : undefined;
    if (arg.kind === "choice" || (arg.kind === "seat" && raw[0] === "c")) return arg.choices[Number(raw.slice(1))];
    if (arg.kind === "seat") return Number(raw.slice(1));
    if (arg.kind === "int") return Number(raw);
    if (arg.kind === "list") {
      return raw.split(",").map((s) => s.trim()).filter(Boolean).map((x) => (arg.items === "int" ? Number(x) : x));
    }
    if (arg.kind === "object" || arg.kind === "any") return JSON.parse(raw);   // a SyntaxError names the mistake
    return raw;
  }

  let chosenName = null;   // the move the person picked, kept across state updates

  // Fill `container` with the form for `view` of `game` (its /api/games description): the host's
  // moves, or with `seat` that seat's moves, sent as that seat.
  function show(view, game, container, seat = null) {
    const input = seat === null ? "host" : "seat";
    const moves = game ? game.moves.filter((m) => legalNow(m, view, input)) : [];
    keepDrafts(container, () => {
      container.replaceChildren();
      if (!moves.length) return;
      const chosen = h("select", { name: "move" }, ...moves.map((m) =>
        h("option", { value: m.name, selected: m.name === chosenName }, m.help)));
      const fields = h("div", { class: "correction-args" });
      const fill = () => {
        chosenName = chosen.value;
        const move = moves.find((m) => m.name === chosen.value);
        fields.replaceChildren(...move.args.map((a) => h("label", {}, a.help + " ", field(a, view))));
      };
      chosen.addEventListener("change", fill);
      const send = async () => {
        const move = moves.find((m) => m.name === chosen.value);
        const body = { action: move.name };
        try {
          for (const a of move.args) {
            const value = valueOf(a, fields.querySelector(`[name="arg-${a.name}"]`));
            if (value !== undefined) body[a.name] = value;
          }
        } catch (e) {
          return TofuTable.notice(document.getElementById("notices"), "That is not valid JSON: " + e.message);
        }
        await act(seat === null ? { host: body } : { seat: { seat, ...body } });
      };
      container.append(h("h3", {}, seat === null ? "Any correction" : "Your move"),
        h("p", { class: "muted" }, seat === null ? "What the game takes from the host now, as it declares it."
          : "What the game takes from your phone now."),
        h("div", { class: "correction" }, chosen, fields,
          h("button", { type: "button", class: seat === null ? "secondary" : "", onclick: send }, "Send")));
      fill();
    });
  }

  return { show, legalNow };
})();
