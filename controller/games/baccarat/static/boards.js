// Baccarat's result boards (docs/pit.md, "Result boards"): the bead plate, the big road, big eye
// boy, small road and cockroach pig, and what each side's next win would write on the derived
// roads, drawn from controller/games/baccarat/board.py's JSON. Each road cell carries data-col /
// data-row (its place on the six-row grid) and what it shows, so a reader (or a test) can check
// the drawing against the computed road. Registered with Boards (controller/web/static/boards.js).
"use strict";
(() => {
  const { el, svg } = Croupier;
  const { grid, section, centre, count, CELL } = Boards;
  const COLOURS = { banker: "#e5484d", player: "#4c8dd6", tie: "#3fb37f", red: "#e5484d", blue: "#4c8dd6" };
  const LETTER = { banker: "B", player: "P", tie: "T" };
  const WORD = { banker: "Banker", player: "Player", tie: "Tie" };
  const ROAD_NAMES = { big_eye_boy: "Big eye boy", small_road: "Small road", cockroach_pig: "Cockroach pig" };

  function pairDots(c, x, y) {
    const dots = [];
    if (c.banker_pair) dots.push(svg("circle", { class: "pair banker", cx: x - 6, cy: y - 6, r: 2.2, fill: COLOURS.banker }));
    if (c.player_pair) dots.push(svg("circle", { class: "pair player", cx: x + 6, cy: y + 6, r: 2.2, fill: COLOURS.player }));
    return dots;
  }

  function marks(c) {
    return [c.natural ? "natural" : "", c.banker_pair ? "banker pair" : "", c.player_pair ? "player pair" : ""].filter(Boolean);
  }

  function beadPlate(plate, counts) {
    const out = grid("bead plate", plate.rows, plate.width,
      `Bead plate: ${count(counts.hands, "hand")}, banker ${counts.banker}, player ${counts.player}, tie ${counts.tie}`);
    for (const c of plate.cells) {
      const x = centre(c.col), y = centre(c.row);
      const g = svg("g", { class: `bead ${c.winner}`, "data-col": c.col, "data-row": c.row, "data-winner": c.winner,
        "data-natural": c.natural ? "1" : "0" },
      svg("title", { text: [WORD[c.winner], ...marks(c)].join(", ") }),
      svg("circle", { cx: x, cy: y, r: CELL / 2 - 1.5, fill: COLOURS[c.winner] }),
      svg("text", { x, y: y + 4, "text-anchor": "middle", class: "letter", text: LETTER[c.winner] }),
      c.natural ? svg("circle", { class: "natural", cx: x + 6, cy: y - 6, r: 2.4, fill: "#e0a526" }) : null,
      ...pairDots(c, x, y));
      out.append(g);
    }
    return section("Bead plate", out);
  }

  function bigRoad(road) {
    const label = `Big road: ${count(road.cells.length, "win")} in ${count(road.columns.length, "column")}`
      + (road.leading_ties ? `, ${road.leading_ties} tie${road.leading_ties > 1 ? "s" : ""} before the first win` : "");
    const out = grid("big road", road.rows, road.width, label);
    for (const c of road.cells) {
      const x = centre(c.col), y = centre(c.row);
      out.append(svg("g", { class: `road-cell ${c.winner}`, "data-col": c.col, "data-row": c.row, "data-winner": c.winner,
        "data-ties": c.ties, "data-natural": c.natural ? "1" : "0" },
      svg("title", { text: [WORD[c.winner], c.ties ? `${c.ties} tie${c.ties > 1 ? "s" : ""}` : "", ...marks(c)].filter(Boolean).join(", ") }),
      svg("circle", { cx: x, cy: y, r: CELL / 2 - 2.5, fill: "none", stroke: COLOURS[c.winner], "stroke-width": 2.5 }),
      c.ties ? svg("line", { class: "tie", x1: x - 6, y1: y + 6, x2: x + 6, y2: y - 6, stroke: COLOURS.tie, "stroke-width": 2 }) : null,
      c.ties > 1 ? svg("text", { class: "tie-count", x, y: y + 4, "text-anchor": "middle", text: String(c.ties) }) : null,
      c.natural ? svg("circle", { class: "natural", cx: x + 6, cy: y - 6, r: 2.2, fill: "#e0a526" }) : null,
      ...pairDots(c, x, y)));
    }
    const note = road.leading_ties && !road.cells.length
      ? el("p", { class: "board-note", text: `${road.leading_ties} tie${road.leading_ties > 1 ? "s" : ""}, no win yet` }) : null;
    return section("Big road", out, note);
  }

  function derivedRoad(road) {
    const name = ROAD_NAMES[road.name] || road.name;
    const reds = road.cells.filter((c) => c.colour === "red").length;
    const small = CELL * 0.7;
    const out = grid(road.name, road.rows, road.width, `${name}: ${reds} red, ${road.cells.length - reds} blue`, small);
    for (const c of road.cells) {
      const x = centre(c.col, small), y = centre(c.row, small), colour = COLOURS[c.colour];
      const mark = road.name === "small_road" ? svg("circle", { cx: x, cy: y, r: small / 2 - 2, fill: colour })
        : road.name === "cockroach_pig" ? svg("line", { x1: x - 4, y1: y + 4, x2: x + 4, y2: y - 4, stroke: colour, "stroke-width": 2 })
          : svg("circle", { cx: x, cy: y, r: small / 2 - 2.5, fill: "none", stroke: colour, "stroke-width": 2 });
      out.append(svg("g", { class: `derived-cell ${c.colour}`, "data-col": c.col, "data-row": c.row, "data-colour": c.colour },
        svg("title", { text: c.colour }), mark));
    }
    return section(name, out);
  }

  function askLine(ask) {
    const parts = ["banker", "player"].filter((side) => ask[side] && Object.keys(ask[side]).length).map((side) =>
      `${WORD[side]} next: ${Object.entries(ask[side]).map(([road, colour]) => `${ROAD_NAMES[road] || road} ${colour}`).join(", ")}`);
    return parts.length ? el("p", { class: "board-ask", text: parts.join(" · ") }) : null;
  }

  function baccarat(b) {
    const c = b.counts;
    return [
      el("p", { class: "board-counts", text: `${count(c.hands, "hand")} · banker ${c.banker} · player ${c.player} · tie ${c.tie}`
        + ` · naturals ${c.naturals} · banker pairs ${c.banker_pairs} · player pairs ${c.player_pairs}` }),
      beadPlate(b.bead_plate, c), bigRoad(b.big_road),
      el("div", { class: "derived" }, derivedRoad(b.big_eye_boy), derivedRoad(b.small_road), derivedRoad(b.cockroach_pig)),
      askLine(b.ask),
    ].filter(Boolean);  // no ask line on a new shoe: no child (the DOM writes a null as "null")
  }

  Boards.register("baccarat", baccarat);
})();
