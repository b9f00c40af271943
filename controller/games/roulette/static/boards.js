// Roulette's result boards (docs/pit.md, "Result boards"): the last spins, hot and cold numbers
// and the counts, drawn from controller/games/roulette/board.py's JSON. Registered with Boards
// (controller/web/static/boards.js).
"use strict";
(() => {
  const { el } = Croupier;
  const { section, count } = Boards;

  const chip = (ball, extra = "") => el("span", { class: `chip ${ball.colour} ${extra}`.trim(), text: ball.number });

  function hits(list, name) {
    return section(name, el("ol", { class: "hits", "aria-label": `${name} numbers` }, ...list.map((n) =>
      el("li", { "data-number": n.number }, chip(n), ` ${n.hits}×`))));
  }

  function roulette(b) {
    if (!b.spins) return [el("p", { class: "board-note", text: "No spins yet." })];
    const c = b.counts;
    const over = b.window === 1 ? "last spin" : `last ${b.window}`;
    return [
      section(b.last.length === 1 ? "Last spin" : `Last ${b.last.length} spins (newest first)`, el("ol", { class: "last-spins" }, ...b.last.map((spin) =>
        el("li", { class: spin.newest ? "newest" : null, "data-numbers": spin.balls.map((x) => x.number).join(" ") },
          ...spin.balls.map((ball) => chip(ball)), spin.newest ? el("span", { class: "newest-tag", text: "newest" }) : null)))),
      hits(b.hot, `Hot (${over})`),
      // cold is only told once the window holds enough spins to say which numbers come up least
      b.cold.length ? hits(b.cold, `Cold (${over})`)
        : section("Cold", el("p", { class: "board-note", text: `not enough history yet (${b.window} of ${b.cold_after} spins)` })),
      el("p", { class: "board-counts", text: `over ${count(c.spins, "spin")}: red ${c.red} · black ${c.black} · zero ${c.zero}`
        + ` · odd ${c.odd} · even ${c.even} · low ${c.low} · high ${c.high}`
        + ` · dozens ${c.dozen.join("/")} · columns ${c.column.join("/")}` }),
    ];
  }

  Boards.register("roulette", roulette);
})();
