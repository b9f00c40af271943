// The roulette layout's drawing, shared by the dealer's console (roulette.js) and the player's
// page (controller/studio/page/): the cells of the rules' layout offer as buttons named by what
// they bet ("17", "split 17-20", "voisins"), placed on the offer's grid (turned a quarter for a
// phone held upright: 0 on top, 1-2-3 across), the chip tray, and the betting window's countdown.
// Loaded as a plain script (window.RouletteFelt) after /common/croupier.js.
"use strict";
const RouletteFelt = (() => {
  const { el, keyed, setText } = Croupier;
  const pct = (v, size) => `${(100 * v) / size}%`;

  // what the cell shows (its accessible name says it in full)
  function shortName(cell) {
    if (cell.type === "straight") return cell.name;
    if (cell.type === "neighbours") return cell.name.split(" ")[1];
    if (cell.type === "both_on") return cell.name.split(" ").pop();
    if (cell.type === "column") return `col ${cell.name.split(" ")[1]}`;
    if (cell.type === "low" || cell.type === "high") return cell.name.split(" ")[1];
    return cell.name;
  }

  // A cell's place on the grid: its box (or line spot) on the offer's size, the dealer's way, or
  // turned (x down the screen from 0, the dealer's top row on the right).
  function position(node, cell, size, turned) {
    const [w, h] = turned ? [size[1], size[0]] : size;
    const flip = (x, y) => (turned ? [size[1] - y, x] : [x, y]);
    if (cell.box) {
      const [a, b] = [flip(cell.box[0], cell.box[1]), flip(cell.box[2], cell.box[3])];
      const [x0, x1, y0, y1] = [Math.min(a[0], b[0]), Math.max(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[1], b[1])];
      Object.assign(node.style, { left: pct(x0, w), top: pct(y0, h), width: pct(x1 - x0, w), height: pct(y1 - y0, h) });
    } else if (cell.at) {
      const [x, y] = flip(cell.at[0], cell.at[1]);
      Object.assign(node.style, { left: pct(x, w), top: pct(y, h) });
    }
  }

  // One cell as a button; onPlace(cell) when touched.
  function cellButton(cell, size, onPlace, turned = false) {
    const b = el("button", { class: `rl-cell rl-${cell.type}` + (cell.colour ? ` n-${cell.colour}` : ""),
      "aria-label": cell.name, "data-kind": cell.kind, onclick: () => onPlace(cell) },
      el("span", { class: "rl-name", text: cell.strip || cell.box ? shortName(cell) : "" }),
      el("span", { class: "rl-stake" }));
    if (cell.at) b.classList.add("rl-point");
    if (size) position(b, cell, size, turned);
    return b;
  }

  // The grid's cells of ``layout`` in ``grid``, kept in place (update(node, cell) on each).
  function drawGrid(grid, layout, cells, onPlace, update, turned = false) {
    const [w, h] = turned ? [layout.size[1], layout.size[0]] : layout.size;
    grid.style.aspectRatio = `${w} / ${h}`;
    grid.classList.toggle("turned", turned);
    keyed(grid, cells, (c) => c.kind, (c) => cellButton(c, layout.size, onPlace, turned), (node, c) => {
      position(node, c, layout.size, turned);
      update(node, c);
    });
  }

  // A cell's stake (money(amount) on it, or nothing) and whether it takes a touch.
  function stake(node, amount, money, enabled) {
    setText(node.querySelector(".rl-stake"), amount ? money(amount) : "");
    node.classList.toggle("staked", Boolean(amount));
    node.disabled = !enabled;
  }

  // The chip tray: a button per chip, the chosen one pressed; onPick(chip).
  function drawChips(tray, chips, chosen, money, onPick) {
    keyed(tray, chips, (c) => c,
      (c) => el("button", { class: "rl-chip", onclick: () => onPick(c) }),
      (node, c) => {
        setText(node, money(c));
        node.setAttribute("aria-label", `chip ${money(c)}`);
        node.setAttribute("aria-pressed", String(c === chosen));
      });
  }

  // The seconds left to ``ends`` (ms, in the same clock as ``now``) in ``node``: "12 s", red
  // from 5 s, then "last bets" (the table calls no more bets any moment, not "0 s" on and on).
  // ``words``: what is counted down (a seated player's decision time says its own).
  const BETTING = { closes: "betting closes", last: "last bets" };
  function countdown(node, ends, now, words = BETTING) {
    const left = Math.max(0, Math.ceil((ends - now) / 1000));
    node.classList.toggle("closing", left <= 5);
    node.classList.toggle("said", left === 0);
    if (left === 0) {
      setText(node, words.last);
      node.setAttribute("aria-label", `${words.closes} any moment`);
      return left;
    }
    setText(node, `${left} s`);
    node.setAttribute("aria-label", `${words.closes} in ${left} seconds`);
    return left;
  }

  return { shortName, cellButton, drawGrid, stake, drawChips, countdown };
})();
if (typeof module !== "undefined") module.exports = RouletteFelt;
