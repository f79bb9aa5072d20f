// The host's diet board form (Food for Thought's card entry, kind "boards"): a board's name and kind, its
// food groups (foods from the food list, the VP of each space as a row of numbers, the VP with none) and its
// kitchen (columns, the column each food enters), checked by the server as the owner types
// (POST /api/food-for-thought/check) and drawn as a small board; "Save the board" posts the same record
// (POST /api/food-for-thought/cards), the one schema data.py checks. One form a page: what the owner typed
// lives in its model, and the form is the same element at each of the host page's redraws.
(() => {
  const { h, api } = TofuTable;
  const style = document.createElement("style");
  style.textContent = `
    .ftb { display: flex; flex-direction: column; gap: 0.5em; }
    .ftb fieldset { border: 1px solid var(--line); border-radius: 0.4em; padding: 0.4em 0.6em; margin: 0; min-width: 0; }
    .ftb legend { font-weight: bold; }
    .ftb .row { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; margin: 0.25em 0; }
    .ftb input.vp { width: 3.6em; }
    .ftb input.name { width: 12em; max-width: 100%; }
    .ftb input.id { width: 9em; }
    .ftb .foods label { display: inline-block; margin-right: 0.7em; white-space: nowrap; }
    .ftb .taken { color: var(--muted); font-size: 0.85em; }
    .ftb .problems { color: var(--warn); margin: 0.2em 0; padding-left: 1.2em; }
    .ftb .ready { color: var(--good-bright); }
    .ftb .saved { color: var(--good-bright); font-weight: bold; }
    .ftb button.secondary { border: 1px solid var(--line); padding: 0.3em 0.7em; }
    .ftb-group { display: grid; grid-template-columns: minmax(6em, 9em) 1fr; gap: 0.4em; align-items: center;
                 padding: 0.2em 0; border-bottom: 1px solid var(--soft); }
    .ftb-preview .spaces { display: flex; flex-wrap: wrap; gap: 0.2em; }
    .ftb-preview .space { display: inline-flex; align-items: center; justify-content: center; width: 2em; height: 2em;
                          border-radius: 50%; border: 2px solid var(--line); font-weight: bold; font-size: 0.85em; }
    .ftb-preview .plus { color: var(--good-bright); border-color: var(--good-bright); }
    .ftb-preview .minus { color: var(--bad-bright); border-color: var(--bad-bright); }
    .ftb-preview .none { border-style: dashed; }
    .ftb-kitchen { display: flex; flex-wrap: wrap; gap: 0.4em; }
    .ftb-kitchen div { background: var(--soft); border-radius: 0.3em; padding: 0.2em 0.5em; min-width: 7em; }`;
  document.head.append(style);

  const slug = (text) => text.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40);
  const newGroup = () => ({ name: "", id: "", idTyped: false, foods: [], spaces: ["", "", "", ""], zero_vp: "" });
  const blank = () => ({ name: "", id: "", idTyped: false, kind: "standard", groups: [newGroup()], columns: "4", entry: {} });

  let model = blank();
  let info = null;        // the data summary (foods and their names)
  let onSaved = null;     // the entry form's: the summary after a save
  let root = null;
  let timer = null;
  let asked = 0;          // the newest check sent: an older answer is not shown over a newer one
  let said = null;        // the last save's message, until the owner changes something

  // a whole number as typed, or the text itself (the server then says it is not a whole number)
  const num = (v) => (/^\s*-?\d+\s*$/.test(v) ? Number(v) : v.trim() === "" ? null : v);
  function record() {
    const m = model;
    return { id: m.id, name: m.name.trim(), kind: m.kind,
             groups: m.groups.map((g) => ({ id: g.id, name: g.name.trim(), foods: g.foods, zero_vp: num(g.zero_vp),
                                            spaces: g.spaces.map(num) })),
             kitchen: { columns: num(m.columns),
                        entry: Object.fromEntries(Object.entries(m.entry).filter(([, c]) => c !== "").map(([f, c]) => [f, Number(c)])) } };
  }

  // the server's problems in the form's words: "groups[1].foods: ..." -> "Group 2 (Dairy): foods: ..."
  function inWords(problem) {
    return problem.replace(/^new board: /, "")
      .replace(/groups\[(\d+)\]\.?/g, (_, i) => {
        const g = model.groups[Number(i)];
        return `Group ${Number(i) + 1}${g && g.name.trim() ? " (" + g.name.trim() + ")" : ""}: `;
      })
      .replace(/^field 'id'/, "The board's id").replace(/^field 'name'/, "The board's name").replace(/^groups: /, "")
      .replace(/: \s*is /, " is ").replace(/^kitchen\.entry\.(\w+)/, "The kitchen column of $1")
      .replace(/^kitchen\.entry /, "The kitchen ").replace(/^kitchen\.columns/, "The kitchen's columns")
      .replace(/^.*: there is already an entry with id (.*)$/, "Your boards already hold one with the id $1: give this one another id")
      .replace(/^./, (c) => c.toUpperCase());
  }

  const foodName = (f) => (info.food_names || {})[f] || f;

  // the board as a small drawing: each group's name, then its spaces as circles with their VP
  // (the dashed one first: what the group scores with no token), then the kitchen's columns
  function preview() {
    const space = (v, extra = "") => h("span", { class: "space " + extra + (num(v) > 0 ? " plus" : num(v) < 0 ? " minus" : "") },
      v === "" ? "?" : String(v));
    const cols = Math.max(0, Math.min(9, Number(model.columns) || 0));
    return h("div", { class: "ftb-preview", "aria-label": "The board as entered" },
      ...model.groups.map((g, i) => h("div", { class: "ftb-group" },
        h("div", {}, h("b", {}, g.name || `group ${i + 1}`),
          g.foods.length > 1 ? h("div", { class: "taken" }, g.foods.map(foodName).join(", ")) : null),
        h("div", { class: "spaces" }, space(g.zero_vp, "none"), ...g.spaces.map((v) => space(v))))),
      h("p", {}, h("b", {}, "Kitchen"), " (a food enters its column):"),
      h("div", { class: "ftb-kitchen" }, ...Array.from({ length: cols }, (_, c) => h("div", {}, h("b", {}, `column ${c + 1}`), h("br"),
        info.foods.filter((f) => String(model.entry[f]) === String(c + 1)).map(foodName).join(", ") || "—"))));
  }

  // ----- the form, drawn from the model; a change redraws it and asks the server what is wrong
  const changed = (redraw = false) => {
    said = null;
    root.querySelector(".save + span").textContent = "";
    if (redraw) draw();
    else { root.querySelector(".ftb-preview").replaceWith(preview()); }
    clearTimeout(timer);
    timer = setTimeout(check, 250);
  };
  const field = (name, cls, value, set, attrs = {}) => h("input", { name: "board-" + name, class: cls, value, ...attrs,
    oninput: (e) => { set(e.target.value); changed(); } });

  function groupBox(g, i) {
    const elsewhere = (f) => model.groups.find((o) => o !== g && o.foods.includes(f));
    return h("fieldset", {}, h("legend", {}, `Group ${i + 1}`),
      h("div", { class: "row" },
        h("label", {}, "Name ", field(`g${i}-name`, "name", g.name, (v) => { g.name = v; if (!g.idTyped) { g.id = slug(v); syncId(`g${i}-id`, g.id); } })),
        h("label", {}, "id ", field(`g${i}-id`, "id", g.id, (v) => { g.id = v; g.idTyped = true; })),
        h("button", { type: "button", class: "secondary", disabled: model.groups.length === 1,
                      onclick: () => { model.groups.splice(i, 1); changed(true); } }, "Remove this group")),
      // a food belongs to one group: those of other groups are named, not offered (untick one there to move it)
      h("div", { class: "row foods" }, "Foods:", ...info.foods.filter((f) => !elsewhere(f)).map((f) => h("label", {},
        h("input", { type: "checkbox", name: `board-g${i}-food-${f}`, checked: g.foods.includes(f),
                     onchange: (e) => { g.foods = e.target.checked ? [...g.foods, f] : g.foods.filter((x) => x !== f); changed(true); } }),
        " " + foodName(f)))),
      info.foods.some(elsewhere) ? h("div", { class: "taken" }, "In other groups: " + info.foods.filter(elsewhere).map(foodName).join(", ")) : null,
      h("div", { class: "row" }, "VP with none here:", field(`g${i}-zero`, "vp", g.zero_vp, (v) => { g.zero_vp = v; },
                                                          { type: "number", "aria-label": `group ${i + 1} VP with no token` })),
      h("div", { class: "row" }, "VP of each space, in the order they fill:",
        ...g.spaces.map((v, k) => field(`g${i}-s${k}`, "vp", v, (x) => { g.spaces[k] = x; },
                                        { type: "number", "aria-label": `group ${i + 1} space ${k + 1} VP` })),
        h("button", { type: "button", class: "secondary", onclick: () => { g.spaces.push(""); changed(true); } }, "+ space"),
        h("button", { type: "button", class: "secondary", disabled: g.spaces.length === 1,
                      onclick: () => { g.spaces.pop(); changed(true); } }, "− space")));
  }
  function syncId(name, value) {
    const input = root.querySelector(`input[name="board-${name}"]`);
    if (input) input.value = value;
  }

  function draw() {
    const m = model;
    const cols = Math.max(1, Math.min(9, Number(m.columns) || 1));
    const focused = root.contains(document.activeElement) ? document.activeElement.name : null;
    root.replaceChildren(
      h("div", { class: "row" },
        h("label", {}, "Board name ", field("name", "name", m.name, (v) => { m.name = v; if (!m.idTyped) { m.id = slug(v); syncId("id", m.id); } })),
        h("label", {}, "id ", field("id", "id", m.id, (v) => { m.id = v; m.idTyped = true; })),
        h("label", {}, "Kind ", h("select", { name: "board-kind", onchange: (e) => { m.kind = e.target.value; changed(); } },
          ...["standard", "alternate", "solo"].map((k) => h("option", { value: k, selected: m.kind === k }, k))))),
      h("p", { class: "taken" }, "Every food belongs to one group. A group's VP are those printed on its spaces, " +
        "first space first; \"VP with none here\" is what the group scores with no token on it."),
      ...m.groups.map(groupBox),
      h("div", { class: "row" }, h("button", { type: "button", class: "secondary", onclick: () => { m.groups.push(newGroup()); changed(true); } }, "Add a group")),
      h("fieldset", {}, h("legend", {}, "Kitchen"),
        h("div", { class: "row" }, "Columns:", field("columns", "vp", m.columns, (v) => { m.columns = v; draw(); },
                                                      { type: "number", min: 1, max: 9, "aria-label": "kitchen columns" })),
        h("div", { class: "row foods" }, "The column each food enters:", ...info.foods.map((f) => h("label", {}, foodName(f) + " ",
          h("select", { name: `board-entry-${f}`, onchange: (e) => { m.entry[f] = e.target.value; changed(); } },
            h("option", { value: "" }, "—"),
            ...Array.from({ length: cols }, (_, c) => h("option", { value: String(c + 1), selected: String(m.entry[f]) === String(c + 1) }, String(c + 1)))))))),
      h("h5", {}, "The board as entered"),
      h("p", { class: "taken" }, "Each group: first (dashed) the VP with no token on it, then its spaces in the order they fill."),
      preview(),
      h("ul", { class: "problems", "aria-live": "polite" }),
      h("div", { class: "row" }, h("button", { type: "button", class: "save", onclick: save }, "Save the board"),
        h("span", { class: said ? "saved" : "taken" }, said || "")));
    const again = focused && root.querySelector(`[name="${focused}"]`);   // a food ticked, a space added: keep the place
    if (again) again.focus();
    check();
  }

  function showProblems(problems) {
    const list = root.querySelector(".problems");
    list.className = problems.length ? "problems" : "problems ready";
    list.replaceChildren(...(problems.length ? problems.map((p) => h("li", {}, inWords(p)))
      : [h("li", {}, "Ready to save: the board follows the rules of a diet board.")]));
  }
  const post = (path) => api(path, { method: "POST", body: { kind: "boards", record: record() } });
  async function check() {
    const n = ++asked;
    const r = await post("/api/food-for-thought/check");
    if (n === asked) showProblems(r.ok ? r.body.problems : [r.body.error.message]);
  }
  async function save() {
    const r = await post("/api/food-for-thought/cards");
    if (!r.ok) { asked++; showProblems(r.body.error.problems || [r.body.error.message]); return; }
    said = `Saved "${model.name.trim()}" into ${r.body.kinds.boards.file}.`;
    model = blank();
    info = r.body;
    draw();
    onSaved(r.body);
  }

  // The form's element for the entry form: the same element each time, so typing survives redraws.
  function form(dataInfo, saved) {
    onSaved = saved;
    const fresh = !root || !info || info.foods.join() !== dataInfo.foods.join();
    info = dataInfo;
    if (fresh) {
      root = h("div", { class: "ftb" });
      // the model keeps what was typed: the page's own draft keeping (TofuTable.keepDrafts) would put
      // a saved board's text back into the fresh form; it still gives the focus back by field name
      for (const kind of ["input", "change"]) root.addEventListener(kind, (e) => e.stopPropagation());
      draw();
    }
    return root;
  }

  window.TofuDietBoardForm = { form };
})();
