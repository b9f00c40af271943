// Roulette layout of the dealer console (docs/console.md, "Roulette"): the table's own layout,
// race track and double-ball bets as the server offers them (only what the rules take; sent
// once in a layout message, the snapshots name it by spin.layout_id), a chip tray from the
// table's limits, the betting window's countdown in the table's clock (the last numbers, hot
// and cold are the result boards', beside the layout: console.js). Every cell is a button named by what it bets ("17", "split 17-20",
// "voisins"); the DOM is built once per offer and updated in place.
"use strict";
const RouletteLayout = (() => {
  const { el, keyed, setText } = Croupier;
  let chip = null; // the selected chip, minor units
  let box = 1; // the box (player position) a touch bets for
  const players = new Map(); // box -> the player card id typed for it (else the box's seat)
  let spread = null; // neighbours each side
  let view = null;
  let hooks = null;
  let offset = 0; // the table's clock minus this page's, ms
  let timer = null;
  let kept = null; // the last layout offer the console was sent
  // the strips under the layout: their named bets always shown, their per-pocket bets (a
  // neighbours bet on each pocket, both balls on each number) behind a toggle, so the layout
  // fits the screen
  const STRIPS = {
    racetrack: { id: "roulette-racetrack", label: "race track", toggle: "neighbours…", spread: true },
    double_ball: { id: "roulette-double-ball", label: "double ball", toggle: "both on…", spread: false },
  };
  const open = { racetrack: false, double_ball: false };
  const perPocket = (cell) => Boolean(cell.spread) || cell.type === "both_on";

  // ------------------------------------------------------------------ building (once)
  function skeleton(root) {
    if (root.dataset.built) return;
    root.dataset.built = "1";
    root.append(
      el("div", { class: "rl-top" },
        el("div", { id: "roulette-countdown", class: "rl-countdown", role: "timer", "aria-live": "off" }),
        el("div", { id: "roulette-chips", class: "rl-chips", role: "group", "aria-label": "chips" }),
        el("div", { class: "rl-box", role: "group", "aria-label": "box" },
          el("button", { id: "roulette-box-down", "aria-label": "previous box", text: "◀", onclick: () => moveBox(-1) }),
          el("span", { id: "roulette-box" }),
          el("button", { id: "roulette-box-up", "aria-label": "next box", text: "▶", onclick: () => moveBox(1) }),
          el("input", { id: "roulette-player", class: "rl-player", type: "text", maxlength: "64", autocomplete: "off",
            oninput: (e) => { players.set(box, e.target.value.trim()); } }))),
      el("div", { id: "roulette-fit", class: "rl-fit" }, el("div", { id: "roulette-grid", class: "rl-grid" })),
      ...Object.entries(STRIPS).map(([place, strip]) => el("div", { id: strip.id, class: "rl-strip", role: "group",
        "aria-label": strip.label },
        el("div", { id: `${strip.id}-named`, class: "rl-named" }),
        el("button", { id: `${strip.id}-toggle`, class: "rl-toggle", "aria-expanded": "false",
          "aria-controls": `${strip.id}-pockets`, text: strip.toggle, onclick: () => { open[place] = !open[place]; draw(); } }))),
      ...Object.values(STRIPS).map((strip) => el("div", { id: `${strip.id}-pockets`, class: "rl-pockets", hidden: "" },
        strip.spread ? el("div", { class: "rl-spread", id: "roulette-spread-row" },
          el("button", { id: "roulette-spread-down", "aria-label": "fewer neighbours", text: "−", onclick: () => moveSpread(-1) }),
          el("span", { id: "roulette-spread" }),
          el("button", { id: "roulette-spread-up", "aria-label": "more neighbours", text: "+", onclick: () => moveSpread(1) })) : null,
        el("div", { id: `${strip.id}-cells`, class: "rl-pocket-cells" }))));
  }

  const cellButton = (cell) => RouletteFelt.cellButton(cell, null, place);

  // ------------------------------------------------------------------ touches
  function place(cell) {
    if (!view || chip === null) return;
    const units = cell.spread ? 2 * spread + 1 : cell.units;
    const kind = cell.spread ? `${cell.kind}:${spread}` : cell.kind;
    hooks.send("bet", { box, amount: chip * units, kind, player: players.get(box) || `seat ${box}` });
  }
  function moveBox(step) {
    const layout = view.spin.layout;
    box = ((box - 1 + step + layout.boxes) % layout.boxes) + 1;
    document.getElementById("roulette-player").value = players.get(box) || "";
    draw();
  }
  function moveSpread(step) {
    const n = view.spin.layout.neighbours;
    spread = Math.min(n.max, Math.max(n.min, spread + step));
    draw();
  }

  // ------------------------------------------------------------------ drawing (in place)
  function stakes(v) {
    const on = new Map();
    for (const b of v.boxes) if (b.box === box) for (const h of b.hands) for (const bet of h.bets) {
      if (bet.payout !== null) continue;
      const kind = bet.kind.startsWith("neighbours:") ? bet.kind.split(":").slice(0, 2).join(":") : bet.kind;
      on.set(kind, (on.get(kind) || 0) + bet.stake);
    }
    return on;
  }

  function draw() {
    const v = view;
    const layout = v.spin.layout;
    const money = hooks.money;
    if (chip === null || !layout.chips.includes(chip)) chip = layout.chips[0];
    if (spread === null) spread = layout.neighbours.default;
    if (box > layout.boxes) box = 1;
    const betting = v.actions.some((a) => a.command === "bet");
    // betting closed: the layout is only to look at, and gives its room to the settled bets (roulette.css)
    document.getElementById("roulette").classList.toggle("closed", !betting);

    RouletteFelt.drawChips(document.getElementById("roulette-chips"), layout.chips, chip, money, (c) => { chip = c; draw(); });
    setText(document.getElementById("roulette-box"), `box ${box}`);
    const player = document.getElementById("roulette-player");
    player.placeholder = `seat ${box} or card`;
    player.setAttribute("aria-label", `player of box ${box}: seat or player card id`);
    setText(document.getElementById("roulette-spread"), `neighbours: ${spread} each side`);

    const on = stakes(v);
    const byPlace = { grid: [], racetrack: [], double_ball: [] };
    for (const c of layout.cells) byPlace[c.strip || "grid"].push(c);
    document.getElementById("roulette").style.setProperty("--rl-ratio", String(layout.size[0] / layout.size[1]));
    const update = (node, cell) => RouletteFelt.stake(node, on.get(cell.kind), money, betting);
    RouletteFelt.drawGrid(document.getElementById("roulette-grid"), layout, byPlace.grid, place, update);
    for (const [place, strip] of Object.entries(STRIPS)) {
      const cells = byPlace[place];
      const named = cells.filter((c) => !perPocket(c));
      const pockets = cells.filter(perPocket);
      keyed(document.getElementById(`${strip.id}-named`), named, (c) => c.kind, (c) => cellButton(c), update);
      keyed(document.getElementById(`${strip.id}-cells`), pockets, (c) => c.kind, (c) => cellButton(c), update);
      const toggle = document.getElementById(`${strip.id}-toggle`);
      toggle.hidden = pockets.length === 0;
      toggle.setAttribute("aria-expanded", String(open[place]));
      document.getElementById(strip.id).hidden = cells.length === 0;
      document.getElementById(`${strip.id}-pockets`).hidden = !open[place] || pockets.length === 0;
    }
    // a short screen shows the per-pocket bets in the layout's place (roulette.css)
    document.getElementById("roulette").classList.toggle("pockets-open",
      Object.keys(STRIPS).some((place) => open[place] && byPlace[place].some(perPocket)));

    tick();
  }

  // the betting window, counted down in the table's clock
  function tick() {
    const node = document.getElementById("roulette-countdown");
    if (!node || !view) return;
    const w = view.betting;
    node.classList.remove("closing");
    node.removeAttribute("aria-label");
    node.classList.toggle("said", !w || !w.ends);  // words, not a count: smaller type
    if (!w) { setText(node, view.spin && view.spin.phase !== "betting" ? "no more bets" : ""); return; }
    const now = Date.now() + offset;
    if (!w.ends) {
      setText(node, `bets open ${Math.max(0, Math.floor((now - Date.parse(w.opened)) / 1000))} s`);
      return;
    }
    RouletteFelt.countdown(node, Date.parse(w.ends), now);
  }

  // The console calls this with each snapshot: root is the layout's section.
  function render(root, v, given) {
    hooks = given;
    const id = v.spin && v.spin.layout_id;
    const offer = v.spin && (v.spin.layout || (kept && kept.id === id ? kept : null));
    if (offer) v.spin.layout = offer;
    root.hidden = !offer;
    if (!offer) { view = null; return; }
    skeleton(root);
    view = v;
    if (v.betting && v.betting.now) offset = Date.parse(v.betting.now) - Date.now();
    if (timer === null) timer = setInterval(tick, 250);
    draw();
  }

  // The layout offer comes apart from the snapshots, once and again only when it changes; the
  // snapshots name it by its id (spin.layout_id).
  function keep(offer) { kept = offer; }

  return { render, keep };
})();
// the console's part of the game: the layout's section at the head of the felt, made on the first snapshot
Croupier.registerLayout("roulette", {
  render(felt, v, given) {
    let root = document.getElementById("roulette");
    if (!root) felt.prepend(root = Croupier.el("section", { id: "roulette", "aria-label": "roulette layout", hidden: "" }));
    RouletteLayout.render(root, v, given);
  },
  keep: RouletteLayout.keep,
});
if (typeof module !== "undefined") module.exports = RouletteLayout;
