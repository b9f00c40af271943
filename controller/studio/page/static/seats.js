// Seats on the player's page (docs/studio.md, "Seats"), at the tables that have them (blackjack,
// Three Card Blackjack, Russian poker, Catch a Wave): the boxes to sit at or leave, the cards as
// they are dealt, and at the player's turn the legal decisions with the table's decision time
// counted down (the turn's decision_ms, on the page's own clock). A table without seats never
// sends "seats", and this part stays hidden. Loaded after words.js; play.js hands it the page.
"use strict";
const PlayerSeats = (() => {
  const { el, setText, keyed } = Croupier;
  const W = PlayerWords;
  const $ = (id) => document.getElementById(id);
  const DECISION_TIME = { closes: "your time to decide ends", last: "deciding now" };
  // {send, notice, requestId, seats(): whether the table seats remote players, behind(): whether it takes Bet Behind}
  let page = null;
  // sent: the turn a decision was sent for (its buttons wait for the table); request: that decide's id
  const s = { boxes: 0, seats: [], turn: null, endsAt: null, cards: null, round: null, sent: null, request: null };
  // what a Bet Behind follows of the owner's decisions (docs/studio.md, "Bet Behind"): the protocol's defaults
  const presets = { double: true, split: true, insurance: false };
  const PRESET_WORDS = { double: "follow a double", split: "follow a split", insurance: "take insurance with the owner" };

  const mine = () => s.seats.filter((x) => x.you).map((x) => x.box);
  const seatOf = (box) => s.seats.find((x) => x.box === box);

  function drawSeats() {
    const root = $("seat");
    root.hidden = s.boxes === 0 || !page.seats();
    if (root.hidden) return;
    const boxes = Array.from({ length: s.boxes }, (_, i) => i + 1);
    keyed($("seat-boxes"), boxes, (b) => b, (b) => el("button", { class: "seat-box", onclick: () => touch(b) }), (node, b) => {
      const seat = seatOf(b);
      const words = !seat ? `Sit at box ${b}` : seat.you ? `Leave box ${b}` : `Box ${b}: ${seat.name}${seat.connected ? "" : " (away)"}`;
      setText(node, !seat ? `box ${b}: free` : seat.you ? `box ${b}: you` : `box ${b}: ${seat.name}`);
      node.setAttribute("aria-label", words);
      node.classList.toggle("yours", Boolean(seat && seat.you));
      node.disabled = Boolean(seat && !seat.you);
    });
    // the owner's switch, per box the player sits at: others may Bet Behind it, or not
    const own = page.behind() ? s.seats.filter((x) => x.you) : [];
    keyed($("behind-allowed"), own, (x) => x.box, (x) => el("button", { class: "behind-switch",
      onclick: () => page.send({ type: "behind_allowed", box: x.box, allowed: !seatOf(x.box).behind_allowed }) }),
    (node, x) => {
      setText(node, `Bet Behind on box ${x.box}: ${x.behind_allowed ? "allowed" : "not allowed"}`);
      node.setAttribute("aria-label", `let others bet behind box ${x.box}`);
      node.setAttribute("aria-pressed", String(x.behind_allowed));
    });
    setText($("cards"), s.cards ? W.result(s.cards) : "");
    const turn = s.turn;
    const waiting = Boolean(turn && !turn.decided);
    $("turn").hidden = !waiting;
    if (!waiting) return;
    setText($("turn-who"), turn.you ? `Your turn: box ${turn.box}, hand ${turn.hand}` : `Box ${turn.box}: ${turn.name} decides`);
    keyed($("decisions"), turn.you ? turn.decisions : [], (d) => d, (d) => el("button", { class: "decision", onclick: () => decide(d) }),
      (node, d) => {
        setText(node, W.decision(d));
        node.disabled = s.sent === turnKey(turn);
      });
    tick();
  }
  function tick() {
    if (!s.turn || s.turn.decided || s.endsAt === null) return;
    RouletteFelt.countdown($("turn-timer"), s.endsAt, Date.now(), DECISION_TIME);
  }
  const turnKey = (t) => `${t.round}/${t.box}/${t.hand}`;

  function touch(box) {
    const seat = seatOf(box);
    if (seat && !seat.you) return;
    page.send({ type: seat ? "leave" : "sit", box });
  }
  function decide(decision) {
    const t = s.turn;
    if (!t || !t.you || s.sent === turnKey(t)) return;
    s.sent = turnKey(t);
    s.request = page.requestId();
    page.send({ type: "decide", request: s.request, round: t.round, box: t.box, hand: t.hand, decision });
    page.notice(`Sent: ${W.decision(decision).toLowerCase()}.`);
    drawSeats();
  }

  const HANDLERS = {
    seats(msg) { s.boxes = msg.boxes; s.seats = msg.seats; },
    seated(msg) { page.notice(`You sit at box ${msg.box}: bet on it while betting is open.`, "ok"); },
    left(msg) { page.notice(`You left box ${msg.box}.`); },
    turn(msg) {
      s.turn = { ...msg, decided: false };
      s.endsAt = Date.now() + msg.decision_ms;
    },
    decided(msg) {
      if (s.turn && turnKey(s.turn) === turnKey(msg)) s.turn.decided = true;
      page.notice(W.decided(msg, mine().includes(msg.box)), msg.refunded ? "refused" : "info");
    },
    hands(msg) { s.cards = msg.cards; s.round = msg.round; },
  };

  // play.js: the page's hooks, and each message of the studio (true when it was one of seats)
  function init(hooks) {
    page = hooks;
    setInterval(tick, 250);
  }
  function handle(msg) {
    if (!HANDLERS[msg.type]) return false;
    HANDLERS[msg.type](msg);
    return true;
  }
  // A Bet Behind ``box`` takes now (another player's seated box that allows it), as the book's kind
  // with its presets ("behind@5+double+split", "behind_stay@5"); null when it takes none
  function behindKind(box) {
    const seat = seatOf(box);
    if (!page.behind() || !seat || seat.you || !seat.behind_allowed) return null;
    const on = ["double", "split", "insurance"].filter((p) => presets[p]);
    return on.length ? `behind@${box}+${on.join("+")}` : `behind_stay@${box}`;
  }
  // The presets' toggles, shown while a Bet Behind is on offer; onChange(before, after) with the kinds
  function drawPresets(box, onChange) {
    const shown = behindKind(box) !== null;
    $("behind-presets").hidden = !shown;
    if (!shown) return;
    keyed($("behind-presets"), Object.keys(PRESET_WORDS), (p) => p, (p) => el("button", { class: "preset",
      onclick: () => { const before = behindKind(box); presets[p] = !presets[p]; onChange(before, behindKind(box)); } }),
    (node, p) => {
      setText(node, PRESET_WORDS[p]);
      node.setAttribute("aria-label", `Bet Behind: ${PRESET_WORDS[p]}`);
      node.setAttribute("aria-pressed", String(presets[p]));
    });
  }
  // A refusal of the player's last decision (its words), the turn's decisions open again; null
  // when the refusal was not of a decision
  function refusedDecision(msg) {
    if (!msg.request || msg.request !== s.request) return null;
    s.request = null;
    s.sent = null;
    return W.decisionRefusal(msg.reason);
  }
  // The turn the table waits on now, or null
  const waiting = () => (s.turn && !s.turn.decided ? s.turn : null);
  return { init, handle, draw: drawSeats, mine, behindKind, drawPresets, waiting, refusedDecision };
})();
if (typeof module !== "undefined") module.exports = PlayerSeats;
