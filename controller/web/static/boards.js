// Result boards, drawn from what controller/boards computes (docs/pit.md, "Result boards").
// Shared by the pit dashboard and the dealer console: Boards.render(container, boards) draws the
// boards of one table into container, redrawing only when they changed, by the drawing its game
// registered (Boards.register(game, draw), from the game's own script in
// controller/games/<game>/static/, which the page loads as its game declares). This module names
// no game: it holds the drawing's shared parts (the six-row grid, a titled board, counts). Every
// node is built from text (Croupier.el / Croupier.svg).
"use strict";
const Boards = (() => {
  const { el, svg } = Croupier;
  const CELL = 18;
  const MIN_COLUMNS = 14; // an empty or short road still reads as a board
  const drawings = new Map(); // game -> its boards' JSON -> the nodes drawn
  const count = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

  // A six-row grid of width columns, in an SVG with an accessible name.
  function grid(name, rows, width, label, cell = CELL) {
    width = Math.max(width, MIN_COLUMNS);
    const w = width * cell, h = rows * cell;
    const out = svg("svg", { class: "board-grid", viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: "img",
      "aria-label": label });
    for (let r = 1; r < rows; r++) out.append(svg("line", { x1: 0, x2: w, y1: r * cell, y2: r * cell, class: "rule" }));
    for (let c = 1; c < width; c++) out.append(svg("line", { x1: c * cell, x2: c * cell, y1: 0, y2: h, class: "rule" }));
    return out;
  }

  const centre = (n, cell = CELL) => n * cell + cell / 2;

  function section(name, ...body) {
    return el("figure", { class: "board", "data-board": name }, el("figcaption", { text: name }), ...body);
  }

  // A game's drawing of its boards: draw(boards) -> the nodes (its script calls this on load).
  function register(game, draw) { drawings.set(game, draw); }

  // Draw boards (the JSON of controller/boards.boards_for) into container; nothing for a game
  // that keeps no board or whose drawing this page did not load.
  function render(container, boards) {
    const json = JSON.stringify(boards || {});
    if (container.dataset.drawn === json) return;
    container.dataset.drawn = json;
    const draw = boards && boards.game ? drawings.get(boards.game) : undefined;
    const kids = draw ? draw(boards) : [];
    container.replaceChildren(...kids);
    container.hidden = kids.length === 0;
  }

  return { render, register, grid, section, centre, count, CELL };
})();
