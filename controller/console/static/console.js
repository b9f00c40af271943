// Dealer console: draws the server's snapshot, sends one-touch commands (docs/console.md).
// The server is authoritative: the page only shows what the table sends and offers its actions.
"use strict";

const $ = (id) => document.getElementById(id);
const { el, keyed, setText, api } = Croupier;

// ---------------------------------------------------------------- client identity and sequence
const store = window.sessionStorage;
const client = store.getItem("console-client") || Math.random().toString(36).slice(2, 12);
store.setItem("console-client", client);
let cseq = Number(store.getItem("console-cseq") || "0");
const inFlight = new Map(); // cseq -> message, resent after a reconnect (the server answers once)

let view = null;
let socket = null;
let widget = null; // the open picker or form: {command, ...}
let role = null; // "dealer" or "pit_boss": the pit boss also acknowledges alerts here
let me = null; // the signed-in user
let waiting = null; // a remote player's turn: {box, name, deadline} (tickWaiting)

// ---------------------------------------------------------------- money and cards
function money(minor) {
  return minor === null || minor === undefined ? "" : Croupier.money(minor, view.currency);
}
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const cardText = (card) => (card && card.length === 2 && SUITS[card[1]] ? (card[0] === "T" ? "10" : card[0]) + SUITS[card[1]] : "face down");
const sentence = (text) => { const t = String(text || ""); return t ? t[0].toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".") : ""; };
function cardEl(card) {
  if (card === null) return el("span", { class: "card back", title: "face down", "data-card": "hidden" });
  const rank = card[0] === "T" ? "10" : card[0];
  const red = card[1] === "H" || card[1] === "D";
  return el("span", { class: "card" + (red ? " red" : ""), "data-card": card, text: rank + SUITS[card[1]] });
}
const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
function numberEl(n) {
  const c = n === "0" || n === "00" ? "n-green" : RED.has(Number(n)) ? "n-red" : "n-black";
  return el("span", { class: c, text: n });
}

// ---------------------------------------------------------------- socket
function connect() {
  if (socket) socket.close();
  socket = Croupier.live(`/ws?client=${encodeURIComponent(client)}`, {
    open: () => {
      socket.send({ type: "snapshot" });
      for (const msg of inFlight.values()) socket.send(msg);
    },
    state: (up) => setText($("link"), up ? "live" : "reconnecting…"),
    unauthorised: showLogin,
    message: (msg) => {
      if (msg.type === "snapshot") { view = msg.view; render(); }
      else if (msg.type === "layout") for (const layout of Croupier.layouts()) layout.keep(msg.layout);
      else if (msg.type === "result") showResult(msg);
      else if (msg.type === "sim") setText($("sim-status"), msg.message);
    },
  });
}

function send(command, args = {}) {
  cseq += 1;
  store.setItem("console-cseq", String(cseq));
  const msg = { type: "command", cseq, round: view ? view.round : null, command, args };
  inFlight.set(cseq, msg);
  setResult("", `${command.replaceAll("_", " ")}…`);
  if (socket) socket.send(msg);
  return cseq;
}

function showResult(msg) {
  inFlight.delete(msg.cseq);
  if (msg.ok) setResult("ok", `✔ ${msg.message}`);
  else setResult("refused", `refused: ${msg.message}`);
}
function setResult(kind, text) {
  // the answer shows where the dealer looks: in the recall while it is open (it covers the prompt)
  for (const r of [$("result"), $("recall-result")]) {
    r.className = kind;
    r.textContent = text;
    r.dataset.kind = kind;
  }
}

// ---------------------------------------------------------------- sign-in
function showLogin() {
  if (socket) { socket.close(); socket = null; }
  $("login").hidden = false;
  $("signout-btn").hidden = true;
  $("user").focus();
}
function signedIn(body) {
  $("login").hidden = true;
  $("signout-btn").hidden = false;
  setText($("who"), `(${body.user})`);
  role = body.role;
  me = body.user;
  connect();
}
async function logout() {
  if (socket) { socket.close(); socket = null; }
  await Croupier.signOut();
  location.reload();
}

// ---------------------------------------------------------------- rendering
// What each part of the page was last drawn from: a part whose data is the same in the next
// snapshot is not touched (no DOM work, no style or layout for the browser, a press on it held
// through the update), so a card dealt redraws its box and little else.
const drawnFrom = new Map();
function changed(part, ...data) {
  const said = JSON.stringify(data);
  if (drawnFrom.get(part) === said) return false;
  drawnFrom.set(part, said);
  return true;
}

let shownStep = null; // the round and phase the shown answer was given in
let shownHold = null; // the hold shown
function render() {
  const v = view;
  // a refusal is about the step it was given in, an answer about the play before a hold: both
  // are stale once the table moved on
  const step = `${v.round}/${v.phase}`;
  if (step !== shownStep) {
    if (shownStep !== null && $("result").dataset.kind === "refused") setResult("", "");
    shownStep = step;
  }
  const held = v.hold ? v.hold.message : null;
  if (held !== shownHold) {
    if (held && $("result").dataset.kind === "ok") setResult("", "");
    shownHold = held;
  }
  setText($("table-name"), `${v.table} · ${v.game}`);
  setText($("round"), v.round ? `round ${v.round}` : "no round");
  setText($("phase"), v.phase);
  setText($("dealer"), v.dealer ? `dealer ${v.dealer}` : "no dealer signed in");
  setText($("prompt"), v.prompt);
  waiting = v.waiting || null;
  tickWaiting();
  const off = $("offline-banner");
  off.hidden = v.offline.length === 0;
  setText(off, v.offline.length ? `OFFLINE: ${v.offline.join(", ")} — check the cable and power` : "");
  const hold = $("hold-banner");
  hold.hidden = !v.hold || v.restart;
  // the prompt says what happened and the ways out (they are the only buttons): the banner only
  // marks the hold and shows the held cards, so nothing is said twice
  if (v.hold) setText(hold, "HOLD" + (v.hold.cards.length ? ` — held cards: ${v.hold.cards.map(cardText).join(" ")}` : ""));
  renderNotice(v);
  renderRestart(v);
  renderFelt(v);
  for (const layout of Croupier.layouts()) layout.render($("felt"), v, { send, money }); // the game's own, if any
  renderActions(v);
  renderFooter(v);
  $("recall-btn").hidden = !v.recall_allowed;
  const sim = $("simulator");
  sim.hidden = !v.simulator;
  if (v.simulator) $("sim-status").dataset.state = v.simulator.state;
}

// what the pit did to the table: every act the dealer has not read yet, until Got it; what the
// page said before it (a result, a refusal) is stale once the pit acted
let noticeShown = null;
function renderNotice(v) {
  const read = Number(store.getItem("console-notice-read") || "0");
  const unread = (v.pit_notices || []).filter((n) => n.seq > read);
  $("notice").hidden = unread.length === 0;
  if (!unread.length) return;
  const newest = unread[unread.length - 1];
  if (newest.seq !== noticeShown) {
    noticeShown = newest.seq;
    if (newest.sender !== me) setResult("", "");  // the sender's own answer is not stale
  }
  keyed($("notice-text"), unread, (n) => n.seq, (n) => el("div", { "data-notice": n.seq }), (node, n) => setText(node, sentence(n.text)));
  $("notice").dataset.seq = newest.seq;
}
function noticeRead() {
  store.setItem("console-notice-read", $("notice").dataset.seq || "0");
  $("notice").hidden = true;
}

function renderRestart(v) {
  const dlg = $("restart-dialog");
  dlg.hidden = !v.restart;
  if (!v.restart) return;
  setText($("restart-text"), sentence(v.hold.message));
  keyedActions($("restart-actions"), v.actions);
}

// what a settled bet came to, in the dealer's words: the win over the stake told apart from
// what was returned
function settledWords(stake, payout) {
  if (payout === null || payout === undefined) return "";
  if (payout === 0) return "lost";
  if (payout < stake) return `${money(payout)} returned`;
  if (payout === stake) return `stake returned (${money(payout)})`;
  // a bet over several chips (a sector, a neighbours bet) wins on some of them: what it returned
  // in all, and how much more than its whole stake that is
  return `won ${money(payout - stake)} over the stake, ${money(payout)} returned`;
}

function betsEl(bets) {
  return el("div", { class: "bets" }, ...bets.map((b) => el("div", {},
    `${kindWords(b.kind)}${b.player ? " · " + b.player : ""}: `, el("span", { class: "money", text: money(b.stake) }),
    b.payout === null ? "" : ` → ${settledWords(b.stake, b.payout)}`)));
}

// a box as it was last drawn (its data, whether it is the one expected, the currency)
const boxDrawn = new WeakMap();
function drawBox(node, b, expected, currency) {
  const said = JSON.stringify([b, expected, currency]);
  if (boxDrawn.get(node) === said) return;
  boxDrawn.set(node, said);
  node.className = "spot box" + (expected ? " expected" : "");
  node.replaceChildren(el("h3", { text: `Box ${b.box}${b.owner ? " · " + b.owner : ""}` }),
    ...b.hands.map((h) => el("div", { class: "hand", "data-hand": h.hand },
      el("div", { class: "cards" }, ...h.cards.map(cardEl),
        h.total !== null && h.cards.length ? el("span", { class: "total", text: h.total }) : null),
      h.state && h.cards.length ? el("div", { class: "state", "data-state": h.state, text: h.state }) : null,
      betsEl(h.bets))));
}

function renderFelt(v) {
  const exp = v.expect || {};
  if (changed("house", v.house)) {
    $("house").replaceChildren(...v.house.map((h) => el("div", { class: "spot house", "data-spot": h.name },
      el("h3", { text: h.name }), el("div", { class: "cards" }, ...h.cards.map(cardEl)),
      h.total !== null && h.cards.length ? el("span", { class: "total", text: h.total }) : null)));
  }
  // in place, box by box: a card dealt redraws the box it went to
  keyed($("boxes"), v.boxes, (b) => b.box, (b) => el("div", { "data-box": b.box }),
    (node, b) => drawBox(node, b, exp.box === b.box, v.currency));
  // the spin's balls and multipliers once there are some (its phase is in the top bar and the Wheel panel;
  // one ball is the prompt's winning number: shown there, once)
  if (!changed("spin", v.spin)) return;
  const spin = $("spin");
  spin.hidden = !v.spin || (v.spin.balls.length < 2 && !Object.keys(v.spin.multipliers).length);
  if (!spin.hidden) {
    spin.replaceChildren(...[el("h2", { text: `Spin: ${v.spin.phase}` }),  // the DOM's own call writes a null as "null"
      v.spin.balls.length ? el("div", { class: "numbers" }, "balls ", ...v.spin.balls.map(numberEl)) : null,
      Object.keys(v.spin.multipliers).length ? el("div", { text: "multipliers " +
        Object.entries(v.spin.multipliers).map(([n, x]) => `${n}:${x}x`).join(" ") }) : null].filter(Boolean));
  }
}

function actionButton(a) {
  const button = el("button", { class: a.style || "", "data-command": a.command, text: a.label });
  button.onclick = () => act(a);
  return button;
}

function act(a) {
  if (a.widget) { widget = a; renderWidget(); return; }
  const question = CONFIRM[a.command];
  if (question) { ask(a.label, question(view), () => run(a)); return; }
  run(a);
}
function run(a) {
  widget = null;
  $("widget").replaceChildren();
  send(a.command, a.args || {});
}

// ---------------------------------------------------------------- what cannot be undone asks first
function voidSaid(v) {
  let back = 0, backN = 0, stands = 0, standsN = 0;
  for (const b of v.boxes) for (const h of b.hands) for (const bet of h.bets) {
    if (bet.payout === null) { back += bet.stake; backN += 1; } else { stands += bet.payout; standsN += 1; }
  }
  const n = (k) => `${k} bet${k === 1 ? "" : "s"}`;
  const returned = backN ? `Returned to the players: ${n(backN)}, ${money(back)}.` : "No bet is riding: nothing is returned.";
  const stand = standsN ? ` Already settled and standing: ${n(standsN)}, ${money(stands)} paid.` : " Nothing settled before stands.";
  return `Round ${v.round} is called off. ${returned}${stand} This cannot be undone.`;
}
const CONFIRM = {
  void_round: voidSaid,
  new_shoe: (v) => (v.shoe ? `Shoe ${v.shoe.number} is retired with ${v.shoe.dealt} cards dealt; the next card starts a new shoe. This cannot be undone.`
    : "This cannot be undone."),
};
let confirmed = null;
function ask(label, text, yes) {
  confirmed = yes;
  setText($("confirm-title"), `${label}?`);
  setText($("confirm-text"), text);
  setText($("confirm-yes"), label);
  $("confirm-dialog").hidden = false;
}
function answer(ok) {
  $("confirm-dialog").hidden = true;
  const yes = confirmed;
  confirmed = null;
  if (ok && yes) yes();
}

// in place: a button the table still offers is the same element (a press held through an update registers)
function keyedActions(parent, actions) {
  keyed(parent, actions, (a) => `${a.command}:${JSON.stringify(a.args || {})}`, actionButton, (node, a) => {
    setText(node, a.label);
    node.className = a.style || "";
    node.onclick = () => act(a);
  });
}

function renderActions(v) {
  if (!changed("actions", v.actions, v.phase, v.refused)) return;
  // in place: a button the table still offers is the same element (a press held through an update registers)
  keyedActions($("actions"), v.actions.filter((a) => !a.elsewhere));  // a bet keyed on the layout has no button
  // between rounds, why the table does not take what is not offered (the table's offer says)
  const why = v.phase === "idle" ? (v.refused || []) : [];
  setText($("why"), why.map((r) => `${r.label}: ${r.reason}`).join(" · "));
  $("why").hidden = why.length === 0;
  if (widget) {
    // a picker or form stays open (and keeps what was keyed) while the table still offers it
    const still = v.actions.find((a) => a.command === widget.command && a.widget);
    if (!still) { widget = null; $("widget").replaceChildren(); }
    else if (JSON.stringify(still) !== JSON.stringify(widget)) { widget = still; renderWidget(); }
  }
}

function cardPicker(cards, onPick) {
  const allowed = new Set(cards);
  const grid = el("div", { class: "picker", id: "card-picker" });
  for (const s of "SHDC") for (const r of "A23456789TJQK") {
    const c = r + s;
    const b = cardEl(c);
    const btn = el("button", { "data-card": c, onclick: () => onPick(c) }, b);
    if (!allowed.has(c)) btn.disabled = true;
    grid.append(btn);
  }
  return grid;
}

function renderWidget() {
  const w = widget;
  const box = $("widget");
  if (w.widget === "cards") {
    box.replaceChildren(el("h2", { text: `${w.label}: the cards still in the shoe` }),
      cardPicker(w.cards, (c) => { send("key_card", { card: c }); }));
  } else if (w.widget === "numbers") {
    box.replaceChildren(el("h2", { text: w.label }), el("div", { class: "picker", id: "number-picker" },
      ...w.numbers.map((n) => el("button", { "data-number": n, onclick: () => send("key_result", { number: n }) },
        numberEl(n)))));
  } else if (w.widget === "bet") {
    renderBetForm(w, box);
  }
}

// bet kinds as the dealer says them (the pages' one wording: croupier.js); a neighbours bet
// says its spread ("17 and 3 neighbours each side", not "neighbours 17 3")
function kindWords(kind) {
  const [name, spot, n] = String(kind).split(":");
  if (name === "neighbours" && spot && n) return `${spot} and ${n} neighbour${n === "1" ? "" : "s"} each side`;
  return Croupier.betWords(kind);
}

// one choice among buttons (box, bet kind): the chosen one is pressed
function choices(id, label, values, text, chosen, onPick) {
  const row = el("div", { class: "choices", id, role: "group", "aria-label": label });
  const mark = (v) => { for (const b of row.children) b.setAttribute("aria-pressed", String(b.dataset.value === String(v))); };
  for (const v of values) {
    row.append(el("button", { "data-value": v, "aria-label": `${label} ${text(v)}`, onclick: () => { onPick(v); mark(v); } }, text(v)));
  }
  mark(chosen);
  return row;
}

function renderBetForm(w, box) {
  const bet = { box: 1, kind: w.kinds[0], chips: [] };
  const total = () => bet.chips.reduce((a, b) => a + b, 0);
  const shown = el("span", { class: "money", id: "bet-amount", text: money(0) });
  const redraw = () => setText(shown, money(total()));
  const player = el("input", { id: "bet-player", type: "text", maxlength: "64", autocomplete: "off",
    placeholder: "seat 1 or player card", "aria-label": "player: seat or player card id" });
  const seat = (n) => { player.placeholder = `seat ${n} or player card`; };
  const boxes = Array.from({ length: w.boxes || 7 }, (_, i) => i + 1);
  const chipRow = el("div", { class: "chips", id: "bet-chips" }, ...w.chips.map((c) =>
    el("button", { "data-chip": c, "aria-label": `chip ${money(c)}`, onclick: () => { bet.chips.push(c); redraw(); } }, money(c))),
    el("button", { id: "bet-undo", "aria-label": "undo the last chip", onclick: () => { bet.chips.pop(); redraw(); } }, "undo chip"),
    el("button", { id: "bet-clear", "aria-label": "clear the amount", onclick: () => { bet.chips = []; redraw(); } }, "clear"));
  const place = el("button", { class: "primary", id: "bet-place", onclick: () => {
    if (total() <= 0) { setResult("refused", "refused: key an amount first"); return; }
    const who = player.value.trim() || `seat ${bet.box}`;
    send("bet", { box: bet.box, amount: total(), kind: bet.kind, player: who });
    bet.chips = []; redraw();
  } }, "Place bet");
  box.replaceChildren(el("h2", { text: "Key a bet" }),
    el("div", { class: "field" }, el("span", { class: "label", text: "box" }), choices("bet-box", "box", boxes, String, bet.box, (n) => { bet.box = n; seat(n); })),
    // one bet kind: nothing to choose (a left-out part is no child: the DOM writes a null as "null")
    ...(w.kinds.length > 1 ? [el("div", { class: "field" }, el("span", { class: "label", text: "bet" }),
      choices("bet-kind", "bet", w.kinds, kindWords, bet.kind, (k) => { bet.kind = k; }))] : []),
    el("div", { class: "field" }, el("span", { class: "label", text: "player" }), player),
    chipRow, el("div", { class: "field" }, "amount ", shown, place));
}

function renderShoe(shoe, v) {
  if (v.shoe) {
    shoe.replaceChildren(el("h2", { text: `Shoe ${v.shoe.number}` }),
      el("div", { id: "cards-dealt", text: `cards dealt: ${v.shoe.dealt}` }),
      el("div", { text: v.shoe.cut_seen ? "cut card: OUT" : "cut card: not yet" }),
      v.shoe.burn_left ? el("div", { text: `to burn: ${v.shoe.burn_left}` }) : "",
      el("div", { class: "state", text: v.shoe.id }));
  } else shoe.replaceChildren(el("h2", { text: "Wheel" }), el("div", { text: v.spin ? v.spin.phase : "no spin" }));
}

function renderFooter(v) {
  if (changed("shoe", v.shoe, v.spin ? v.spin.phase : null)) renderShoe($("shoe-info"), v);
  if (changed("devices", v.devices)) {
    $("devices").replaceChildren(el("h2", { text: "Devices" }), ...v.devices.map((d) =>
      el("div", { class: "device" + (d.online ? "" : " offline"), "data-device": d.name },
        `${d.name}: ${d.text}`)));
  }
  // in place: an alert still open keeps its element (and its Acknowledge button)
  setText($("alerts-title"), `Open alerts (${v.alerts.length})`);
  keyed($("alert-list"), v.alerts, (a) => a.seq, (a) =>
    el("div", { class: "alert", "data-alert": a.seq, "data-code": a.code },
      a.time ? [el("time", { class: "alert-time", text: a.time }), " "] : null, sentence(a.message), " ",
      role === "pit_boss" ? el("button", { "aria-label": `acknowledge: ${a.message}`,
        onclick: () => send("acknowledge_alert", { alert: a.seq }) }, "Acknowledge") : ""));
  // the result boards (controller/web/static/boards.js)
  if (typeof Boards !== "undefined" && changed("boards", v.boards)) Boards.render($("boards"), v.boards);
  if (!changed("history", v.boards && v.boards.game, v.history, v.limits, v.offered, v.currency)) return;
  const hist = $("history");
  // a game with result boards shows its last numbers or bead plate there, once (the boards panel)
  hist.hidden = Boolean(v.boards && v.boards.game);
  if (hist.hidden) hist.replaceChildren();
  else if (v.history.bead_plate) {
    hist.replaceChildren(el("h2", { text: "Bead plate" }), el("div", { class: "bead", id: "bead-plate" },
      ...v.history.bead_plate.map((b) => el("span", { class: b.winner || "", text: (b.winner || "?")[0].toUpperCase() }))));
  } else hist.replaceChildren(el("h2", { text: "Limits" }), ...Object.entries(v.limits)
    .filter(([k]) => !v.offered || v.offered.includes(k)).map(([k, l]) =>
      el("div", { text: `${kindWords(k)}: ${money(l.min)} – ${money(l.max)}` })));
}

// ---------------------------------------------------------------- recall and corrections
async function openRecall() {
  const body = (await api("/api/recall")).data;
  $("recall").hidden = false;
  const list = $("recall-list");
  if (!body.ok) { list.replaceChildren(el("p", { class: "error", text: body.message })); return; }
  if (!body.rounds.length) { list.replaceChildren(el("p", { text: "no closed rounds yet" })); return; }
  list.replaceChildren(...body.rounds.map(recallRound));
}

// a payout keyed in major units ("20", "20.50") as minor units; null when empty or not money
function keyedMinor(text) {
  const t = String(text).trim();
  const digits = view.currency.digits;
  const shape = digits ? new RegExp(`^\\d{1,9}(\\.\\d{1,${digits}})?$`) : /^\d{1,12}$/;
  if (!shape.test(t)) return null;
  const [whole, frac = ""] = t.split(".");
  return Number(whole) * 10 ** digits + Number((frac + "0".repeat(digits)).slice(0, digits) || "0");
}

function recallRound(r) {
  const rows = r.bets.map((b) => {
    const what = `box ${b.box}.${b.hand} ${kindWords(b.kind)}`;
    const cells = [el("td", { text: `box ${b.box}.${b.hand}` }), el("td", { text: kindWords(b.kind) }),
      el("td", { text: b.player || "—" }), el("td", { text: money(b.stake) }), el("td", { text: settledWords(b.stake, b.payout) })];
    // a void round paid nothing and returned every stake: there is no payout to correct
    if (r.status === "void") return el("tr", {}, ...cells, el("td", { text: "void: nothing to correct" }));
    const input = el("input", { type: "text", inputmode: "decimal", "aria-label": `corrected payout of ${what}`, size: "8",
      placeholder: view.currency.code });
    const reason = el("input", { type: "text", class: "reason", maxlength: "200", autocomplete: "off",
      "aria-label": `reason for correcting ${what}`, placeholder: "reason" });
    const fix = el("button", { disabled: true, onclick: () => {
      const payout = keyedMinor(input.value);  // an empty or unreadable field is never a payout of 0
      if (payout === null) { setResult("refused", "refused: key the corrected payout first"); return; }
      const why = reason.value.trim();
      if (!why) { setResult("refused", "refused: say why the payout is corrected"); return; }
      const change = { box: b.box, hand: b.hand, kind: b.kind, payout };
      if (b.player) change.player = b.player;
      send("correct", { round: r.round, reason: why, changes: [change] });
    } }, "Request correction");
    const ready = () => { fix.disabled = keyedMinor(input.value) === null || !reason.value.trim(); };
    input.addEventListener("input", ready);
    reason.addEventListener("input", ready);
    return el("tr", {}, ...cells, el("td", {}, input, reason, fix));
  });
  return el("div", { class: "recall-round", "data-round": r.round },
    el("h2", { text: `Round ${r.round} · ${r.status} · closed ${r.closed}${r.dealer ? " · dealer " + r.dealer : ""}` }),
    el("div", { class: "outcome" }, ...r.lines.map((line) => el("div", { text: line }))),
    el("table", { class: "bets-table" }, el("tr", {}, ...["bet", "kind", "player", "stake", "result", ""].map((h) => el("th", { text: h }))), ...rows),
    r.corrections ? el("div", { text: `corrected ${r.corrections} time${r.corrections === 1 ? "" : "s"}` }) : null);
}

// ---------------------------------------------------------------- simulator panel
function sim(what, card) {
  if (socket) socket.send({ type: "sim", what, card });
}

// ---------------------------------------------------------------- start
window.addEventListener("DOMContentLoaded", async () => {
  Croupier.onUnauthorised = showLogin;
  Croupier.signInForm($("login-form"), $("login-error"), signedIn);
  $("signout-btn").addEventListener("click", logout);
  $("recall-btn").addEventListener("click", openRecall);
  $("recall-close").addEventListener("click", () => { $("recall").hidden = true; });
  $("notice-ok").addEventListener("click", noticeRead);
  $("confirm-yes").addEventListener("click", () => answer(true));
  $("confirm-no").addEventListener("click", () => answer(false));
  $("sim-next").addEventListener("click", () => sim("next"));
  $("sim-noread").addEventListener("click", () => sim("noread"));
  $("sim-choose").addEventListener("click", () => {
    const all = [];
    for (const s of "SHDC") for (const r of "A23456789TJQK") all.push(r + s);
    $("sim-picker").replaceChildren(cardPicker(all, (c) => { sim("card", c); $("sim-picker").replaceChildren(); }));
  });
  const me = await api("/api/me");
  if (me.data && me.data.table) {
    setText($("login-table"), `Table ${me.data.table} · ${me.data.game}`);
    document.title = `Croupier — ${me.data.table} — dealer console`;
  }
  if (me.ok) signedIn(Croupier.session(me.data));
  else showLogin();
});

// a remote player's turn: "box 3: Anna decides, 9 s", counted down to the table's own deadline
function tickWaiting() {
  if (!waiting) return;
  const left = Math.max(0, Math.ceil((Date.parse(waiting.deadline) - Date.now()) / 1000));
  $("prompt").textContent = `Box ${waiting.box}: ${waiting.name} decides, ${left} s`;
}
setInterval(tickWaiting, 500);
