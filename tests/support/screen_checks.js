// Run in a page by tests/support/screens.py: what a sofa would notice is wrong with this screen.
// Returns a list of problems (strings); empty when the screen is fine.
(opts) => {
  const problems = [];
  // the screen's own size (a phone's layout viewport widens to fit a page that is too wide)
  const W = opts.width || innerWidth, H = opts.height || innerHeight;
  const doc = document.documentElement;
  const describe = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    if (el.className && typeof el.className === "string") s += "." + el.className.trim().split(/\s+/).join(".");
    const text = (el.innerText || el.getAttribute("alt") || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return text ? `${s} "${text}"` : s;
  };
  const shown = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === "none" || cs.visibility === "hidden" || Number(cs.opacity) === 0) return false;
    }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };

  // nothing scrolls: the page fits the screen (a phone may scroll down, never sideways)
  if (doc.scrollWidth > W + 1) problems.push(`the page is ${doc.scrollWidth}px wide on a ${W}px screen`);
  if (opts.tv && doc.scrollHeight > H + 1) problems.push(`the page is ${doc.scrollHeight}px tall on a ${H}px screen`);

  // nothing is cut: no box that hides overflow has more content than room, no text leaves the screen
  for (const el of document.querySelectorAll("body *")) {
    if (!shown(el) || el.closest("[aria-hidden=true]")) continue;
    const cs = getComputedStyle(el);
    const hides = (v) => v === "hidden" || v === "clip" || v === "auto" || v === "scroll";
    if ((hides(cs.overflowY) && el.scrollHeight > el.clientHeight + 2) ||
        (hides(cs.overflowX) && el.scrollWidth > el.clientWidth + 2)) {
      problems.push(`cut off: ${describe(el)} holds ${el.scrollWidth}x${el.scrollHeight}px in ${el.clientWidth}x${el.clientHeight}px`);
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const minPx = opts.minTextPx;
  const small = new Set(), outside = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (!el || !shown(el) || el.closest("script, style, [aria-hidden=true]")) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (minPx && size < minPx - 0.5) small.add(`${describe(el)} at ${size.toFixed(1)}px`);
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width && (r.right > W + 1 || r.bottom > H + 1 || r.left < -1 || r.top < -1)) { outside.add(describe(el)); break; }
    }
  }
  // a value the page forgot to put in words ("null" where a timer was missing)
  const leaked = new Set();
  const walker3 = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker3.nextNode(); node; node = walker3.nextNode()) {
    const el = node.parentElement;
    if (el && shown(el) && !el.closest("script, style") && /^(null|undefined|NaN|\[object Object\])$/.test(node.textContent.trim())) {
      leaked.add(describe(el));
    }
  }
  if (leaked.size) problems.push("a raw value shown as text: " + [...leaked].slice(0, 6).join("; "));
  if (small.size) problems.push(`text under ${minPx}px: ` + [...small].slice(0, 6).join("; "));
  if (opts.tv && outside.size) problems.push("text off the screen: " + [...outside].slice(0, 6).join("; "));

  // the TV's prompt: at most two lines (counted as the distinct lines its text is laid out on)
  const prompt = document.getElementById("prompt");
  if (opts.tv && prompt && shown(prompt)) {
    const range = document.createRange();
    range.selectNodeContents(prompt);
    const lines = new Set([...range.getClientRects()].filter((r) => r.width).map((r) => Math.round(r.top))).size;
    if (lines > 2) problems.push(`the prompt takes ${lines} lines: ${describe(prompt)}`);
  }

  // as many seat codes shown as there are players to join (none between games and at the end)
  if (opts.seatCodes !== undefined) {
    const codes = [...document.querySelectorAll(".seat-code")].filter(shown).length;
    if (codes !== opts.seatCodes) problems.push(`${codes} seat codes shown for ${opts.seatCodes} seats`);
  }

  // every seat code the page shows is whole, on screen, uncovered and big enough to scan
  for (const img of document.querySelectorAll(opts.codes || ".seat-code")) {
    const r = img.getBoundingClientRect();
    if (!shown(img)) { problems.push(`seat code hidden: ${describe(img)}`); continue; }
    if (r.left < 0 || r.top < 0 || r.right > W || r.bottom > H) problems.push(`seat code off the screen: ${describe(img)}`);
    if (opts.minCodePx && Math.min(r.width, r.height) < opts.minCodePx - 0.5)
      problems.push(`seat code ${Math.round(r.width)}px, under ${opts.minCodePx}px: ${describe(img)}`);
    for (const [x, y] of [[0.5, 0.5], [0.1, 0.1], [0.9, 0.9]]) {
      const top = document.elementFromPoint(r.left + r.width * x, r.top + r.height * y);
      if (top && top !== img && !img.contains(top)) { problems.push(`seat code covered by ${describe(top)}`); break; }
    }
    if (!img.complete || !img.naturalWidth) problems.push(`seat code not loaded: ${describe(img)}`);
  }

  // contrast: every text at least WCAG AA against the colour behind it (4.5:1, or 3:1 for large text:
  // 24 px, or 18.66 px bold); the background is the nearest one painted, blended over what lies below
  const rgba = (c) => { const m = c.match(/[\d.]+/g) || [0, 0, 0, 0]; return [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1]; };
  const over = (top, below) => top.slice(0, 3).map((v, i) => v * top[3] + below[i] * (1 - top[3]));
  const luminance = (c) => { const l = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                             return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]; };
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const bg = rgba(getComputedStyle(e).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    return layers.reverse().reduce((below, top) => over(top, below), [255, 255, 255]);
  };
  const faint = new Set();
  const walker2 = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker2.nextNode(); node; node = walker2.nextNode()) {
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (!el || !shown(el) || el.closest("script, style, [aria-hidden=true], :disabled, option")) continue;
    const cs = getComputedStyle(el);
    const bg = behind(el);
    const fg = over(rgba(cs.color), bg);
    const [a, b] = [luminance(fg), luminance(bg)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
    const large = size >= 24 * (opts.pxScale || 1) - 0.5 || (bold && size >= 18.66 * (opts.pxScale || 1) - 0.5);
    if (ratio < (large ? 3 : 4.5) - 0.01) faint.add(`${describe(el)} at ${ratio.toFixed(2)}:1`);
  }
  if (faint.size) problems.push("contrast under WCAG AA: " + [...faint].slice(0, 8).join("; "));

  // notices and the narrator's caption: never over each other, the game's own part (its box and
  // whatever in it spills out), the newest event or a button
  const notices = [...document.querySelectorAll(".notice, .caption")].filter(shown);
  const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const keep = [...document.querySelectorAll(opts.keepClear || "#game-area, #game-area *, #events li:last-child, button")]
    .filter(shown);
  notices.forEach((n, i) => {
    const r = n.getBoundingClientRect();
    notices.slice(i + 1).forEach((m) => { if (overlap(r, m.getBoundingClientRect())) problems.push(`notices overlap: ${describe(n)}`); });
    keep.forEach((k) => { if (!n.contains(k) && overlap(r, k.getBoundingClientRect())) problems.push(`notice over ${describe(k)}`); });
  });
  return problems;
}
