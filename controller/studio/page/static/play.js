// The player's page (docs/studio.md, "The player's page"): one player at one table, from home.
// It joins over the studio's WebSocket /v1/play with the launch token of its own address (the
// fragment, or ?token=; taken out of the address bar at once), draws the table's betting spots
// (roulette: the rules' layout, drawn by the console's own RouletteFelt), keeps the player's bets
// on a slip until "Place bets" sends them in one request, counts the table's deadline down, and
// says in words what the studio answers: accepted, refused (PlayerWords), bets closed, the
// result, what was paid and the balance; the player's rounds below. Text nodes only.
"use strict";
(() => {
  const { el, setText, keyed, betWords } = Croupier;
  const W = PlayerWords;
  const $ = (id) => document.getElementById(id);
  const table = decodeURIComponent(location.pathname.split("/")[2] || "");
  const HISTORY = 20;
  //: the studio closes a connection silent for its idle_s (120 s by default): a page only watching asks for its
  //: last round now and then (keep idle_s over a minute)
  const KEEPALIVE_MS = 45_000;
  const portrait = window.matchMedia("(orientation: portrait)");

  // The launch token, from "#token=..." or "?token=...", then gone from the address bar and the browser's history.
  function takeToken() {
    const found = new URLSearchParams(location.hash.slice(1)).get("token") || new URLSearchParams(location.search).get("token");
    if (location.hash || location.search) history.replaceState(null, "", location.pathname);
    return found || "";
  }
  const token = takeToken();

  const s = {
    desc: null, currency: { code: "EUR", digits: 2 }, balance: null, joined: false, ended: false, online: false,
    //: the round settled without the operator's balance ("balance": null), until its `balance` push or a newer balance
    awaiting: null, paidWords: "", rounds: [],
    pushed: new Map(), // round -> the balance its push gave, for a history answer read before the push
    betting: null, endsAt: null, chip: null, box: 1,
    slip: new Map(), // kind -> amount, not sent yet
    placed: new Map(), // kind -> amount, accepted on this round
    request: null, sentAs: null, pending: false, socket: null, attempt: 0, lastSent: 0,
  };
  const money = (minor) => Croupier.money(minor, s.currency);
  const total = (bets) => [...bets.values()].reduce((a, b) => a + b, 0);
  const open = () => Boolean(s.online && s.joined && !s.ended && s.betting && s.betting.status === "open" && s.betting.round);
  const canBet = () => open() && !s.pending && s.placed.size === 0;

  // ------------------------------------------------------------------ the socket
  function send(message) {
    if (!s.socket || s.socket.readyState !== WebSocket.OPEN) return false;
    s.socket.send(JSON.stringify({ v: 1, ...message }));
    s.lastSent = Date.now();
    return true;
  }
  function connect() {
    if (!token) { end(`This page was opened without a game link. ${W.RELAUNCH}`); return; }
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/v1/play`);
    s.socket = ws;
    ws.onopen = () => { s.online = true; s.attempt = 0; setText($("link"), "joining…"); send({ type: "join", token, table }); };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg && typeof msg === "object" && HANDLERS[msg.type]) HANDLERS[msg.type](msg);
      else if (msg && typeof msg === "object") PlayerSeats.handle(msg);
      draw();
    };
    ws.onclose = () => {
      s.socket = null;
      asked.length = 0;
      s.online = false;
      s.pending = false;
      if (s.ended) return;
      // a session's token joins once: a page that had joined learns on the way back that its session ended
      setText($("link"), "connection lost: reconnecting…");
      draw();
      setTimeout(connect, Croupier.retryDelay(s.attempt++, 500, 8000));
    };
  }
  function end(sentence) {
    s.ended = true;
    s.slip.clear();
    const banner = $("ended");
    setText(banner, sentence);
    banner.hidden = false;
    setText($("link"), "session ended");
    if (s.socket) s.socket.close();
    draw();
  }
  // history asked and not answered yet, in order: true for a keep-alive (its one round is not drawn)
  const asked = [];
  function askHistory(keepAlive = false) {
    if (send({ type: "history", limit: keepAlive ? 1 : HISTORY })) asked.push(keepAlive);
  }
  setInterval(() => { if (s.joined && !s.ended && Date.now() - s.lastSent > KEEPALIVE_MS) askHistory(true); }, 5000);

  // ------------------------------------------------------------------ what the studio says
  function notice(text, kind = "info") {
    const node = $("notice");
    setText(node, text);
    node.dataset.kind = kind;
  }
  // A balance the studio gives with an answer: newer than any a slow wallet still owes for a past round
  function takeBalance(value) { if (typeof value === "number") { s.balance = value; s.awaiting = null; } }
  function showPaid(round) {
    const said = s.awaiting === round ? W.CONFIRMING : `Balance: ${money(s.balance)}.`;
    setText($("outcome-paid"), `${s.paidWords} ${said}`);
  }

  const HANDLERS = {
    joined(msg) {
      s.joined = true;
      s.currency = { code: msg.currency, digits: s.currency.digits };
      takeBalance(msg.balance);
      setText($("player-name"), msg.name);
      setText($("link"), "live");
      askHistory();
    },
    betting(msg) {
      const before = s.betting;
      if (!before || before.round !== msg.round) { s.placed.clear(); s.request = null; s.sentAs = null; }
      if (msg.status === "open" && (!before || before.round !== msg.round || before.status !== "open")) {
        s.slip.clear();
        notice(s.joined ? "Betting is open: place your bets." : "");
        $("outcome").hidden = true;
      }
      if (msg.status !== "open" && before && before.status === "open" && before.round === msg.round) {
        notice(s.slip.size && !s.placed.size ? "Bets closed before these bets were placed: nothing was taken." : "Bets closed.");
        s.slip.clear();
      }
      s.betting = msg;
      s.currency = { code: msg.currency, digits: msg.digits };
      s.endsAt = typeof msg.countdown_ms === "number" ? Date.now() + msg.countdown_ms : null;
    },
    accepted(msg) {
      s.pending = false;
      s.placed.clear();
      for (const b of msg.bets) s.placed.set(b.kind, (s.placed.get(b.kind) || 0) + b.amount);
      s.slip.clear();
      takeBalance(msg.balance);
      notice(`Your bets are in: ${money(msg.stake)} on this round.`, "ok");
    },
    refused(msg) {
      s.pending = false;
      if (W.ends(msg.reason)) { end(W.refusal(msg.reason)); return; }
      const decision = PlayerSeats.refusedDecision(msg);
      if (decision) { notice(decision, "refused"); return; }
      const said = msg.reason === "limits" ? outsideLimits() : null;
      if (msg.reason === "late" || msg.reason === "table_closed") s.slip.clear();
      notice(said ? `${W.refusal(msg.reason)} ${said}` : W.refusal(msg.reason), "refused");
    },
    result(msg) {
      $("outcome").hidden = false;
      $("outcome").dataset.round = msg.round;
      setText($("outcome-result"), msg.status === "void" ? "Round void: every bet is returned."
        : W.result(msg.outcome, s.desc && s.desc.game));
      setText($("outcome-paid"), "");
    },
    settled(msg) {
      takeBalance(msg.balance);
      if (typeof msg.balance !== "number") s.awaiting = msg.round;  // the operator's wallet has not answered yet
      $("outcome").hidden = false;
      const stake = msg.bets.reduce((a, b) => a + b.amount, 0);
      s.paidWords = W.paid(stake, msg.paid, msg.refunded, money);
      showPaid(msg.round);
      askHistory();
    },
    // A slow wallet's answer for a round settled without it: the balance shown if nothing newer came
    // since; a past round's only fills in its history row
    balance(msg) {
      if (typeof msg.balance !== "number") return;
      s.pushed.set(msg.round, msg.balance);
      if (s.pushed.size > HISTORY) s.pushed.delete(s.pushed.keys().next().value);
      if (s.rounds.some((r) => r.round === msg.round)) drawHistory(s.rounds);
      if (s.awaiting !== msg.round) return;
      takeBalance(msg.balance);
      showPaid(msg.round);
    },
    history(msg) { if (!asked.shift()) drawHistory(msg.rounds); },
  };

  // ------------------------------------------------------------------ betting on the felt
  function bet(kind, amount) {
    if (!canBet() || !amount) return;
    s.slip.set(kind, (s.slip.get(kind) || 0) + amount);
    notice("");
    draw();
  }
  function placeBets() {
    if (!canBet() || !s.slip.size) return;
    const bets = [...s.slip].map(([kind, amount]) => ({ kind, amount }));
    const as = JSON.stringify([s.betting.round, bets]);
    if (s.sentAs !== as) { s.request = requestId(); s.sentAs = as; } // the same bets again are a retry, safe
    s.pending = send({ type: "bet", request: s.request, round: s.betting.round, bets });
    notice(s.pending ? "Sending your bets…" : "Not connected: your bets were not sent.", s.pending ? "info" : "refused");
    draw();
  }
  function requestId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  // The first bet of the slip outside the table's published limits, said with them ("Red takes
  // 5.00 EUR to 1,000.00 EUR."); null when the table's limits do not say which
  function outsideLimits() {
    const limits = (s.betting && s.betting.limits) || {};
    for (const [kind, amount] of s.slip) {
      const limit = limits[kind.split(/[:@]/)[0]];
      if (!Array.isArray(limit) || (amount >= limit[0] && amount <= limit[1])) continue;
      const words = betWords(kind.split(/[:@]/)[0]);
      return `${words[0].toUpperCase()}${words.slice(1)} takes ${money(limit[0])} to ${money(limit[1])}.`;
    }
    return null;
  }
  const stakeOf = (kind) => (s.placed.get(kind) || 0) + (s.slip.get(kind) || 0);

  // ------------------------------------------------------------------ drawing
  function drawRoulette() {
    const layout = s.desc.layout;
    const update = (node, cell) => RouletteFelt.stake(node, stakeOf(cell.kind), money, canBet());
    const onCell = (cell) => bet(cell.kind, s.chip * cell.units);
    $("roulette").hidden = false;
    RouletteFelt.drawGrid($("roulette-grid"), layout, layout.cells.filter((c) => !c.strip), onCell, update, portrait.matches);
    // the race track's named bets; a bet per pocket (neighbours of, both on) is the console's only
    const named = layout.cells.filter((c) => c.strip && !c.spread && c.type !== "both_on");
    keyed($("roulette-sectors"), named, (c) => c.kind, (c) => RouletteFelt.cellButton(c, null, onCell), update);
    $("roulette-sectors").hidden = named.length === 0;
  }
  function spotKinds() {
    if (s.desc.side_bets) {  // a box's own bets once the player sits there, and the side bets on its deal
      const own = PlayerSeats.mine().includes(s.box) ? s.desc.seat_bets || [] : [];
      const behind = PlayerSeats.behindKind(s.box);  // another player's box: a Bet Behind, as the owner allows
      return [...own.map((k) => `${k}@${s.box}`), ...(behind ? [behind] : []), ...s.desc.side_bets.map((k) => `${k}@${s.box}`)]
        .map((kind) => ({ kind, name: W.kind(kind) }));
    }
    return (s.desc.spots || []).map((kind) => ({ kind, name: W.kind(kind) }));
  }
  function drawSpots() {
    const spots = spotKinds();
    $("spots").hidden = spots.length === 0;
    $("box-picker").hidden = !s.desc.side_bets;
    PlayerSeats.drawPresets(s.box, (before, after) => {  // a Bet Behind on the slip takes the presets chosen
      if (before && after && s.slip.has(before)) { s.slip.set(after, s.slip.get(before)); s.slip.delete(before); }
      draw();
    });
    setText($("box"), `box ${s.box}`);
    keyed($("spots"), spots, (x) => x.kind,
      (x) => el("button", { class: `spot spot-${x.kind.split("@")[0].replace(/[^a-z0-9]/g, "")}`, onclick: () => bet(x.kind, s.chip) },
        el("span", { class: "spot-name" }), el("span", { class: "spot-stake" })),
      (node, x) => {
        node.setAttribute("aria-label", x.name);
        setText(node.querySelector(".spot-name"), x.name);
        setText(node.querySelector(".spot-stake"), stakeOf(x.kind) ? money(stakeOf(x.kind)) : "");
        node.classList.toggle("staked", Boolean(stakeOf(x.kind)));
        node.disabled = !canBet();
      });
  }
  function moveBox(step) {
    const n = s.desc.boxes || 1;
    s.box = ((s.box - 1 + step + n) % n) + 1;
    draw();
  }

  function drawPhase() {
    const b = s.betting;
    let words;
    if (s.ended) words = "Session ended.";
    else if (!s.online) words = "Connection lost: reconnecting…";
    else if (!s.joined || !b) words = "Joining the table…";
    else if (b.status === "open") words = s.placed.size ? "Your bets are in. Betting is open." : "Place your bets.";
    else if (b.status === "none") words = "No betting open at this table just now.";
    else if ($("outcome").dataset.round === b.round) words = "Round over: the next one opens soon.";
    else if (PlayerSeats.waiting()) {
      const t = PlayerSeats.waiting();
      words = t.you ? `Your turn at box ${t.box}: decide.` : `Box ${t.box}: ${t.name} decides.`;
    }
    else words = "No more bets: waiting for the result.";
    setText($("phase"), words);
    const over = Boolean(b && b.round && $("outcome").dataset.round === b.round && b.status !== "open");
    $("phase").dataset.status = over ? "over" : b ? b.status : "none";
    if (b && b.round) setText($("table-name"), `${table} · round ${b.round}`);
    else setText($("table-name"), table);
  }
  function tick() {
    const node = $("countdown");
    const b = s.betting;
    if (open() && s.endsAt !== null) { RouletteFelt.countdown(node, s.endsAt, Date.now()); return; }
    node.classList.remove("closing");
    node.classList.add("said");
    node.removeAttribute("aria-label");
    setText(node, s.ended ? "" : b && b.round && (b.status === "sealing" || b.status === "closed") ? "bets closed"
      : open() ? "betting open" : "");
  }

  function draw() {
    drawPhase();
    setText($("balance"), s.awaiting !== null ? "Balance: confirming…" : s.balance === null ? "" : `Balance ${money(s.balance)}`);
    if (s.desc) {
      if (s.chip === null || !s.desc.chips.includes(s.chip)) s.chip = s.desc.chips[0];
      RouletteFelt.drawChips($("chips"), s.desc.chips, s.chip, money, (c) => { s.chip = c; draw(); });
      if (s.desc.layout) drawRoulette();
      else drawSpots();
    }
    PlayerSeats.draw();
    const slip = s.placed.size ? s.placed : s.slip;
    setText($("slip-text"), slip.size
      ? `${s.placed.size ? "Placed" : "Your bets"}: ${[...slip].map(([k, a]) => `${W.kind(k)} ${money(a)}`).join(", ")} · total ${money(total(slip))}`
      : canBet() ? "Choose a chip, then touch the layout to bet." : "");
    $("place").disabled = !canBet() || s.slip.size === 0;
    $("clear").disabled = !canBet() || s.slip.size === 0;
    for (const chip of $("chips").children) chip.disabled = s.ended;
    tick();
  }

  function drawHistory(rounds) {
    s.rounds = rounds;
    $("history-empty").hidden = rounds.length > 0;
    keyed($("history-list"), rounds, (r) => `${r.table}/${r.round}`, () => el("li", { class: "round" },
      el("div", { class: "h-head" }, el("span", { class: "h-round" }), el("span", { class: "h-verdict" })),
      el("div", { class: "h-result" }), el("div", { class: "h-bets" }), el("div", { class: "h-money" })),
    (node, r) => {
      const cur = { code: r.currency, digits: s.currency.digits };
      const m = (v) => Croupier.money(v, cur);
      const verdict = W.verdict(r.status, r.stake, r.paid);
      const after = r.balance ?? s.pushed.get(r.round) ?? null;
      node.dataset.verdict = verdict;
      setText(node.querySelector(".h-round"), `Round ${r.round}`);
      setText(node.querySelector(".h-verdict"), verdict);
      setText(node.querySelector(".h-result"), r.outcome ? W.result(r.outcome, s.desc && s.desc.game) : "no result yet");
      setText(node.querySelector(".h-bets"), r.bets.map((b) => `${W.kind(b.kind)} ${m(b.amount)}`).join(", "));
      setText(node.querySelector(".h-money"), [`staked ${m(r.stake)}`,
        r.paid === null ? null : `paid ${m(r.paid)}`,
        after !== null ? `balance after ${m(after)}` : W.finished(r.status) ? "balance pending" : null,
      ].filter(Boolean).join(" · "));
    });
  }

  // ------------------------------------------------------------------ start
  async function start() {
    setText($("table-name"), table);
    $("place").addEventListener("click", placeBets);
    $("clear").addEventListener("click", () => { s.slip.clear(); notice(""); draw(); });
    $("box-down").addEventListener("click", () => moveBox(-1));
    $("box-up").addEventListener("click", () => moveBox(1));
    portrait.addEventListener("change", draw);
    PlayerSeats.init({ send, notice, requestId, seats: () => Boolean(s.desc && s.desc.seats),
      behind: () => Boolean(s.desc && s.desc.seats && s.desc.behind) });
    setInterval(tick, 250);
    for (let attempt = 0; !s.desc; attempt++) {
      try {
        const response = await fetch(`/play/${encodeURIComponent(table)}/table.json`, { credentials: "omit" });
        if (response.status === 404) { end("This table is not open at this studio."); return; }
        if (response.ok) s.desc = await response.json();
      } catch (e) { /* the studio out of reach: asked again */ }
      if (!s.desc) await new Promise((resolve) => { setTimeout(resolve, Croupier.retryDelay(attempt, 500, 8000)); });
    }
    document.body.dataset.game = s.desc.game;
    draw();
    connect();
  }
  start();
})();
