// What a touch screen shows, measured from element boxes (tests/support/screen.py): one
// expression, evaluated in the page, returning every problem found as a line of text.
// Options: lists (selectors of lists that scroll inside themselves: a row scrolled out is not a
// problem, the list must be on screen), numbers (selector of the cells that must be at least numberPx on their short side),
// small (selector of targets exempt from touchPx, held to smallPx instead; the numbers are held
// to numberPx), must (selectors of
// parts that must be shown and whole on screen), touchPx, numberPx, smallPx.
(options) => {
  const o = Object.assign({ touchPx: 48, numberPx: 40, smallPx: 24, numbers: "", small: "", must: [], lists: [],
    boxes: ".spot" }, options);
  const W = window.innerWidth, H = window.innerHeight;
  const problems = [];
  const name = (e) => {
    const label = e.getAttribute("aria-label") || (e.textContent || "").trim().slice(0, 40) || e.id || e.className;
    return `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""} "${label}"`;
  };
  const shown = (e) => {
    if (!e.getClientRects().length) return false;
    const s = getComputedStyle(e);
    return s.visibility !== "hidden" && s.display !== "none" && Number(s.opacity) > 0.05;
  };
  // the part of e's box that can be seen: the viewport, cut by every ancestor that clips
  const visibleRect = (e) => {
    const r = e.getBoundingClientRect();
    let box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.position === "fixed") break;
      if (s.overflowX !== "visible" || s.overflowY !== "visible") {
        const c = a.getBoundingClientRect();
        box = { left: Math.max(box.left, c.left), top: Math.max(box.top, c.top),
          right: Math.min(box.right, c.right), bottom: Math.min(box.bottom, c.bottom) };
      }
    }
    return { left: Math.max(box.left, 0), top: Math.max(box.top, 0), right: Math.min(box.right, W),
      bottom: Math.min(box.bottom, H), whole: r };
  };
  const whole = (e) => {
    const v = visibleRect(e), r = v.whole;
    return v.left <= r.left + 1 && v.top <= r.top + 1 && v.right >= r.right - 1 && v.bottom >= r.bottom - 1;
  };
  const doc = document.scrollingElement || document.documentElement;
  if (doc.scrollHeight > H + 1 || doc.scrollWidth > W + 1) problems.push(`the page scrolls: ${doc.scrollWidth}x${doc.scrollHeight}`);
  for (const id of ["felt", "controls", "stage", "table-side"]) {
    const e = document.getElementById(id);
    if (e && shown(e) && (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1)) {
      problems.push(`#${id} scrolls: ${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight}`);
    }
  }
  // an open dialog covers the page: only what is in it counts
  const dialogs = [...document.querySelectorAll(".overlay")].filter(shown);
  const scope = dialogs.length ? dialogs[dialogs.length - 1] : document.body;
  const controls = [...scope.querySelectorAll("button, input, select, textarea, a[href]")].filter(shown);
  const small = o.small ? new Set(scope.querySelectorAll(o.small)) : new Set();
  const numberCells = o.numbers ? new Set(scope.querySelectorAll(o.numbers)) : new Set();
  // a list meant to scroll inside its box (recall's rounds): the list is on screen, its rows scroll
  const lists = o.lists.map((sel) => document.querySelector(sel)).filter(Boolean);
  for (const c of controls) {
    const r = c.getBoundingClientRect();
    if (lists.some((l) => l.contains(c)) && !whole(c)) continue;
    if (!whole(c)) problems.push(`off screen: ${name(c)} at ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    if (c.disabled) continue;  // not a target now (the layout while the wheel spins): only where it is counts
    const least = small.has(c) ? o.smallPx : numberCells.has(c) ? o.numberPx : o.touchPx;
    if (Math.min(r.width, r.height) < least - 0.5) problems.push(`target under ${least} px: ${name(c)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const top = x >= 0 && y >= 0 && x < W && y < H ? document.elementFromPoint(x, y) : null;
    if (top && !c.contains(top) && !(top.tagName === "LABEL" && top.contains(c))) problems.push(`covered: ${name(c)} under ${name(top)}`);
    if (!c.getAttribute("aria-label") && !(c.textContent || "").trim() && !(c.labels && c.labels.length) && !c.title) {
      problems.push(`no accessible name: ${name(c)}`);
    }
  }
  if (o.numbers) {
    for (const n of [...scope.querySelectorAll(o.numbers)].filter(shown)) {
      const r = n.getBoundingClientRect();
      if (Math.min(r.width, r.height) < o.numberPx - 0.5) problems.push(`number under ${o.numberPx} px: ${name(n)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  if (!dialogs.length) {
    for (const b of [...document.querySelectorAll(o.boxes)].filter(shown)) {
      if (!whole(b)) problems.push(`box off screen: ${name(b)}`);
    }
  }
  for (const sel of o.must) {
    const e = scope.querySelector(sel);
    if (!e || !shown(e)) problems.push(`not shown: ${sel}`);
    else if (!whole(e)) problems.push(`not whole on screen: ${sel}`);
  }
  // text cut off: an element whose own text is wider than its box where it clips
  for (const e of scope.querySelectorAll("body *")) {
    if (!shown(e) || e.tagName === "svg" || e.closest("svg")) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const s = getComputedStyle(e);
    const clips = s.overflowX !== "visible" || s.textOverflow === "ellipsis";
    if (clips && e.scrollWidth > e.clientWidth + 1) problems.push(`text cut off: ${name(e)} (${e.scrollWidth} > ${e.clientWidth})`);
    if (clips && s.overflowY !== "visible" && e.scrollHeight > e.clientHeight + 1 && s.overflowY === "hidden") {
      problems.push(`text cut off below: ${name(e)}`);
    }
  }
  return problems;
}
