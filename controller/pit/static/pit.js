// The pit dashboard page: floor view and table view over one WebSocket (docs/pit.md).
// Every node is built from text (Croupier.el): what a table publishes is shown, never run.
"use strict";
const { el, setText, keyed, currencyOf, money: formatMoney, api, errorText } = Croupier;
const $ = (id) => document.getElementById(id);
const state = { me: null, tiles: new Map(), alerts: [], live: null, table: null, refresh: null, fallback: undefined,
  sent: new Map(), early: new Map(), rounds: { query: "", page: 1 } };
const LABELS = { close_after_round: "Close after round", reopen: "Reopen", void_round: "Void round",
  approve_correction: "Approve correction", reject_correction: "Reject correction", acknowledge_alert: "Acknowledge",
  dismiss: "Dismiss" };
const ANSWER_WAIT_MS = 15000;
const isPitBoss = () => Boolean(state.me && state.me.role === "pit_boss");

const moneyOf = (currency) => (minor) => formatMoney(minor, currency);
const pct = (x) => (typeof x === "number" && Number.isFinite(x) ? (x * 100).toFixed(2) + " %" : "—");
// 24 h clock times, in the browser's time zone
const clockOf = (date) => date.toLocaleTimeString("en-GB", { hour12: false });
const time = (iso) => (iso ? clockOf(new Date(iso)) : "");
const timeOfSeconds = (s) => (typeof s === "number" && s > 0 ? clockOf(new Date(s * 1000)) : "—");
const text = (v, none = "—") => (v === null || v === undefined || v === "" ? none : String(v));
const tableFromPath = () => {
  const m = location.pathname.match(/^\/table\/([^/]+)$/);
  return m ? decodeURIComponent(m[1]) : null;
};

// -- words: what the feed says in codes, as a pit boss reads it -----------------------------------
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
// An alert's code as a title; a code not named here reads as its last words.
const CODE_WORDS = {
  "round.correction_pending": "Correction waits for the pit", "round.correction_applied": "Correction applied",
  "round.correction_rejected": "Correction rejected", "shoe.noread": "Card not read", "table.round.void": "Round void",
  "table.hold": "Table held", "table.restart": "Table restarted mid-round", "pit.alert_acknowledged": "Alert acknowledged",
  "pit.reopened": "Table reopened", "table.card.no_round": "Card with no round", "table.burned": "Card burned", "pit.feed_refused": "Feed message refused", "input.refused": "Input refused",
};
const SUFFIX_WORDS = { decision_pending: "Card drawn before the decision", noread: "Card not read" };
function codeWords(code) {
  const c = String(code || "");
  if (CODE_WORDS[c]) return CODE_WORDS[c];
  const parts = c.split(".").filter(Boolean);
  const last = parts[parts.length - 1] || "";
  if (SUFFIX_WORDS[last]) return SUFFIX_WORDS[last];
  const said = parts.slice(-2).join(" ").replaceAll("_", " ");
  return said ? said[0].toUpperCase() + said.slice(1) : "Alert";
}
// Who did it: "console:dana" -> "dana at the console", "pit:pat" -> "pat (pit)".
function whoWords(source) {
  const [where, ...rest] = String(source || "").split(":");
  const who = rest.join(":");
  if (!who) return where ? where : "—";
  if (where === "console") return who === "dealer" ? "the dealer at the console" : `${who} at the console`;
  if (where === "pit") return `${who} (pit)`;
  return `${who} (${where})`;
}
// A table's text with its cards as the felt shows them ("6S" -> "6♠"), sources and codes in words.
function said(value) {
  return String(value || "")
    .replace(/\b(10|[2-9TJQKA])([SHDC])\b/g, (_, rank, suit) => (rank === "T" ? "10" : rank) + SUITS[suit])
    .replace(/\b(console|pit):([\w.@-]+)/g, (m) => whoWords(m))
    .replace(/\b[a-z]+(?:_[a-z0-9]+)*(?:\.[a-z0-9]+(?:_[a-z0-9]+)*){1,3}\b/g, (m) => codeWords(m).toLowerCase())
    .replace(/ -> /g, " → ");
}
const gameLine = (t) => (t.preset && t.preset !== t.game ? `${text(t.game, "?")} · ${t.preset}` : text(t.game, "?"));
const dealerText = (d) => text(d, "no dealer signed in");

function notice(message, refused) {
  const n = $("notice");
  delete n.dataset.answer;
  setText(n, message);
  n.className = refused ? "refused" : "";
  n.hidden = false;
}

// -- sign-in ------------------------------------------------------------------------------------
function showLogin() {
  state.me = null;
  if (state.live) { state.live.close(); state.live = null; }
  $("login").hidden = false;
  $("floor").hidden = $("table").hidden = $("history").hidden = true;
  document.body.classList.remove("floor-page");
  setText($("who"), "");
  $("signout").hidden = true;
}
Croupier.onUnauthorised = showLogin;
Croupier.signInForm($("login"), $("login-error"), () => start());
setInterval(() => setText($("clock"), clockOf(new Date())), 1000);
setText($("clock"), clockOf(new Date()));
$("signout").addEventListener("click", async () => { await Croupier.signOut(); showLogin(); });

async function start() {
  const r = await api("/api/session");
  if (!r.ok) return;
  state.me = Croupier.session(r.data);
  state.fallback = currencyOf({ currency: r.data.currency, currency_digits: r.data.currency_digits });
  $("login").hidden = true;
  setText($("who"), `${r.data.user} (${String(r.data.role).replace("_", " ")})`);
  $("signout").hidden = false;
  state.table = tableFromPath();
  const onHistory = location.pathname === "/history";
  $("floor").hidden = state.table !== null || onHistory;
  $("table").hidden = state.table === null;
  $("history").hidden = !onHistory;
  document.body.classList.toggle("floor-page", !$("floor").hidden);
  connect();
  if (state.table) loadTable();
  if (onHistory) PitHistory.open();
}

// -- live ---------------------------------------------------------------------------------------
function connect() {
  state.live = Croupier.live("/ws", {
    state: setLink,
    unauthorised: showLogin,
    message: (msg) => {
      if (msg.type === "answer") { answered(msg); return; }
      if (msg.type === "floor") {
        state.tiles = new Map(msg.tables.map((t) => [t.table, t]));
      } else if (msg.type === "tiles") {
        for (const t of msg.tiles) state.tiles.set(t.table, t);
        for (const t of msg.gone) state.tiles.delete(t);
      } else return;
      state.alerts = msg.alerts || [];
      if (msg.totals) state.totals = msg.totals;
      if (msg.memory) state.memory = msg.memory;
      renderFloor();
      if (state.table && (msg.type === "floor" || msg.tiles.some((t) => t.table === state.table))) scheduleTable();
    },
  });
}

function setLink(up) {
  const b = $("link");
  setText(b, up ? "live" : "reconnecting");
  b.className = "badge " + (up ? "ok" : "bad");
}

// -- floor view ---------------------------------------------------------------------------------
const currencyOfTile = (t) => currencyOf(t, state.fallback);

// A tile's limits on one line: the lowest minimum to the highest maximum of the bets offered
// (the table view lists them bet by bet).
function limitsRange(limits, money) {
  const rows = Object.values(limits || {}).filter((v) => v && Number.isInteger(v.min) && Number.isInteger(v.max));
  if (!rows.length) return "—";
  const low = Math.min(...rows.map((v) => v.min)), high = Math.max(...rows.map((v) => v.max));
  return `${money(low)}–${money(high)}${rows.length > 1 ? ` (${rows.length} bets)` : ""}`;
}

function limitsText(limits, money) {
  return Object.entries(limits || {}).map(([k, v]) => `${Croupier.betWords(k)} ${money(v.min)}–${money(v.max)}`).join(", ") || "—";
}

// "pace 52/h of 60/h" from the state's pace; nothing while it is unknown
function paceOf(t) {
  const p = t.pace;
  if (!p || typeof p.rounds_per_hour !== "number" || !Number.isFinite(p.rounds_per_hour)) return null;
  const rate = Math.round(p.rounds_per_hour);
  const target = Number.isInteger(p.target) ? p.target : null;
  return { text: target === null ? `pace ${rate}/h` : `pace ${rate}/h of ${target}/h`,
    below: target !== null && p.rounds_per_hour < target };
}

function devicesNodes(devices) {
  const names = Object.keys(devices || {});
  if (!names.length) return ["—"];
  return names.flatMap((n) => {
    const d = devices[n] || {};
    const bad = !d.online || d.fault;
    return [el("span", { class: "dot" + (bad ? " bad" : "") }), n + (bad ? (d.fault ? ` (${d.fault})` : " offline") : ""), " "];
  });
}

// open, closing after the round, closed (the pit closed it and no round is open), or OFFLINE
function statusOf(t) {
  if (t.closing && !t.round) return { text: "closed", cls: "closed" };
  if (t.online === false) return { text: "OFFLINE", cls: "bad" };
  if (t.closing) return { text: "closing after round", cls: "closing" };
  return { text: t.online ? "open" : "?", cls: "ok" };
}

function holdText(ledger) {
  return ledger && ledger.stake_total ? pct((ledger.stake_total - ledger.payout_total) / ledger.stake_total) : "—";
}

function tileNodes(t) {
  const money = moneyOf(currencyOfTile(t));
  const status = statusOf(t);
  const top = t.alerts && t.alerts[0];
  const ledger = t.ledger || {};
  return [
    el("div", { class: "top" }, el("span", { class: "name", text: t.table }),
      el("span", { class: `badge ${status.cls} presence`, text: status.text })),
    el("div", { class: "game", text: gameLine(t) }),
    el("dl", {},
      el("dt", { text: "phase" }), el("dd", { class: "phase", text: text(t.phase) }),
      el("dt", { text: "dealer" }), el("dd", { text: dealerText(t.dealer) }),
      el("dt", { text: "limits" }), el("dd", { class: "limits", text: limitsRange(t.limits, money) }),
      el("dt", { text: "devices" }), el("dd", {}, ...devicesNodes(t.devices)),
      el("dt", { text: "rounds" }), el("dd", { class: "rounds-settled", text: `${text(ledger.rounds_settled)} settled · hold ${holdText(ledger)}` }),
      ...(t.remote ? [el("dt", { text: "remote" }), el("dd", { class: "remote",
        text: `drop ${money(t.remote.drop)} · win ${money(t.remote.win)}` })] : []),
      ...(paceOf(t) ? [el("dt", { text: "pace" }), el("dd", { class: "pace" + (paceOf(t).below ? " below" : ""),
        text: paceOf(t).text + (paceOf(t).below ? " · below target" : "") })] : []),
      el("dt", { text: "updated" }), el("dd", { class: "updated", text: timeOfSeconds(t.updated) }),
      el("dt", { text: "alerts" }), el("dd", { class: "alert-count", text: t.alerts_count ? `${t.alerts_count} open · ${codeWords(top && top.code)}` : "none" })),
    el("div", { class: "prompt", text: said(t.prompt) }),
  ];
}

const STATUS_WORDS = [["open", "open"], ["closing", "closing"], ["closed", "closed"], ["offline", "offline"]];

function renderTotals(totals) {
  const box = $("totals");
  if (!totals) return;
  const tables = totals.tables || {};
  const figures = [];
  for (const m of totals.money || []) {
    const money = moneyOf(currencyOf(m, state.fallback));
    const holdCls = typeof m.hold === "number" && m.hold < 0 ? "neg" : "";
    figures.push(figure(money(m.drop), "drop"), figure(money(m.win), "win", holdCls),
      figure(pct(m.hold), "hold", holdCls), figure(pct(m.edge), "theoretical edge"));
    if (m.remote_drop || m.remote_win) {
      figures.push(figure(money(m.remote_drop), "remote drop"), figure(money(m.remote_win), "remote win"));
    }
  }
  if (!figures.length) figures.push(figure(money0(0), "drop"));
  figures.push(figure(String(totals.rounds_last_hour ?? 0), "rounds in the last hour"),
    figure(STATUS_WORDS.filter(([k]) => k === "open" || k === "closed" || tables[k]).map(([k, w]) => `${tables[k] || 0} ${w}`)
      .join(" · "), "tables"),
    figure(timeOfSeconds(totals.updated), "last update"), figure(...memoryWords(state.memory)));
  box.replaceChildren(...figures);
}
const money0 = (x) => formatMoney(x, state.fallback);

// What the dashboard shows of the day: the whole gaming day (from the back office), or only
// since it started (no back office): the pit boss is told which.
function memoryWords(memory) {
  if (!memory) return ["—", "history"];
  if (memory.from === "store") return [`gaming day ${text(memory.day)}`, "shown since its start (back office)"];
  const since = time(memory.since);
  return [`since ${since}`, memory.error ? "history (back office not answering)" : "history (no back office)"];
}

function renderFloor() {
  renderTotals(state.totals);
  const names = [...state.tiles.keys()].sort();
  keyed($("tiles"), names, (n) => n,
    (name) => el("a", { "data-table": name, href: `/table/${encodeURIComponent(name)}` }),
    (node, name) => {
      const t = state.tiles.get(name);
      node.className = `tile ${t.closing && !t.round ? "closed" : t.online === false ? "offline" : ""} ${["critical", "error", "warning", "info"].includes(t.worst) ? t.worst : ""}`;
      node.replaceChildren(...tileNodes(t));
    });
  renderAlerts($("alerts"), state.alerts, true);
  $("ack-floor").hidden = !isPitBoss() || !warningsByTable(state.alerts).size;
  noticeNewErrors(state.alerts);
}

// A grouped warning is keyed by its table and code (its count changes, the line stays); an error by its seq.
function alertKey(a) {
  if (a.seq === null || a.seq === undefined) return `local:${a.table}:${a.code}:${a.source || ""}`;
  return a.severity === "warning" || a.severity === "info" ? `group:${a.table}:${a.severity}:${a.code}` : `${a.table}:${a.seq}`;
}

function whenText(a) {
  const last = time(a.ts), first = time(a.first_ts);
  if (a.count > 1) return first && first !== last ? `${a.count}× ${first}–${last}` : `${a.count}× ${last}`;
  return last;
}

function renderAlerts(list, alerts, withTable) {
  if (!alerts.length) { list.replaceChildren(el("li", { text: "No open alerts." })); return; }
  keyed(list, alerts, alertKey, (a) => el("li", {},
    el("span", { class: "sev" }), el("time", { class: "when" }), " ",
    withTable ? el("a", { href: `/table/${encodeURIComponent(a.table)}`, text: a.table }) : null,
    withTable ? " · " : null, el("span", { class: "what" }), el("div", { class: "ack" })), (node, a) => {
    node.className = ["critical", "error", "warning", "info"].includes(a.severity) ? a.severity : "info";
    setText(node.querySelector(".sev"), text(a.severity, ""));
    setText(node.querySelector(".when"), whenText(a));
    setText(node.querySelector(".what"), `${codeWords(a.code)}: ${said(a.message)}`);
    const seqs = (a.seqs || []).filter(Number.isInteger);
    const box = node.querySelector(".ack");
    const wanted = isPitBoss() && seqs.length ? (seqs.length === 1 ? `one:${seqs[0]}` : `many:${seqs.length}:${seqs[0]}`) : "";
    if (box.dataset.wanted === wanted) return;
    box.dataset.wanted = wanted;
    if (!wanted) { box.replaceChildren(); return; }
    box.replaceChildren(seqs.length === 1
      ? el("button", { "data-ack": seqs[0], "data-table": a.table, text: "Acknowledge",
        "aria-label": `Acknowledge alert ${seqs[0]} of ${a.table}` })
      : el("button", { "data-ack-many": seqs.join(","), "data-table": a.table, text: `Acknowledge all ${seqs.length}`,
        "aria-label": `Acknowledge ${seqs.length} alerts "${codeWords(a.code)}" of ${a.table}` }));
  });
}

// Acknowledge many alerts, table by table: the dashboard paces the commands under the table's rate limit.
async function acknowledgeMany(byTable) {
  for (const [table, seqs] of byTable) {
    const r = await api("/api/acknowledge", { table, alerts: seqs });
    if (!r.ok) { notice(`Acknowledge on ${table}: refused by the dashboard: ${errorText(r, String(r.status))}`, true); return; }
    notice(`Acknowledging ${seqs.length} alert${seqs.length === 1 ? "" : "s"} of ${table} as ${state.me.user}…`, false);
  }
}

function warningsByTable(alerts) {
  const byTable = new Map();
  for (const a of alerts) {
    if (a.severity !== "warning") continue;
    for (const seq of (a.seqs || []).filter(Number.isInteger)) {
      if (!byTable.has(a.table)) byTable.set(a.table, []);
      byTable.get(a.table).push(seq);
    }
  }
  return byTable;
}

document.addEventListener("click", (ev) => {
  const many = ev.target.closest("button[data-ack-many]");
  if (many) { acknowledgeMany(new Map([[many.dataset.table, many.dataset.ackMany.split(",").map(Number)]])); return; }
  const all = ev.target.closest("button[data-ack-warnings]");
  if (all) acknowledgeMany(warningsByTable(all.dataset.ackWarnings === "floor" ? state.alerts : state.tableAlerts || []));
});

// -- a new error: a flash, and a sound unless muted -------------------------------------------
const errorKeys = (alerts) => alerts.filter((a) => (a.severity === "error" || a.severity === "critical") && Number.isInteger(a.seq))
  .map((a) => `${a.table}:${a.seq}`);
state.errorsSeen = null;
state.muted = localStorage.getItem("pit.muted") === "1";

function noticeNewErrors(alerts) {
  const keys = errorKeys(alerts);
  const fresh = state.errorsSeen === null ? [] : keys.filter((k) => !state.errorsSeen.has(k));
  state.errorsSeen = new Set([...(state.errorsSeen || []), ...keys]);
  if (fresh.length) chime();
}

function chime() {
  const body = document.body;
  body.classList.remove("flash");
  void body.offsetWidth; // restart the animation
  body.classList.add("flash");
  body.dataset.flashes = String(Number(body.dataset.flashes || 0) + 1);
  setTimeout(() => body.classList.remove("flash"), 2000);
  if (state.muted) return;
  body.dataset.chimes = String(Number(body.dataset.chimes || 0) + 1);
  try {
    const audio = state.audio || (state.audio = new AudioContext());
    const tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.2, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.6);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.6);
  } catch (e) { /* no audio device: the flash still shows */ }
}

function showMute() {
  const b = $("mute");
  setText(b, state.muted ? "Sound off" : "Sound on");
  b.setAttribute("aria-pressed", state.muted ? "true" : "false");
  b.setAttribute("aria-label", state.muted ? "Alert sound muted: unmute it" : "Alert sound on: mute it");
}
$("mute").addEventListener("click", () => {
  state.muted = !state.muted;
  localStorage.setItem("pit.muted", state.muted ? "1" : "0");
  showMute();
});
showMute();

document.addEventListener("click", async (ev) => {
  const b = ev.target.closest("button[data-ack], button[data-command]");
  if (!b) return;
  const body = b.dataset.ack
    ? { table: b.dataset.table, command: "acknowledge_alert", alert: Number(b.dataset.ack) }
    : { table: state.table, command: b.dataset.command, round: b.dataset.round, correction: b.dataset.correction };
  if (body.command === "reject_correction") {
    const input = b.closest("li").querySelector("input[name=reject-reason]");
    body.reason = input.value.trim();
    if (!body.reason) {
      notice(`Give the reason correction ${body.correction} is rejected: the dealer is told it.`, true);
      input.focus();
      return;
    }
  }
  if (b.dataset.confirm && !confirm(b.dataset.confirm)) return;
  send(body);
});

// Send a pit command; the notice says it went, then what the table answered (answered()).
async function send(body) {
  const label = LABELS[body.command] || body.command;
  const r = await api("/api/command", body);
  if (!r.ok) { notice(`${label} on ${body.table}: refused by the dashboard: ${errorText(r, String(r.status))}`, true); return; }
  const id = r.data.sent.id;
  const timer = setTimeout(() => {
    if (state.sent.delete(id)) notice(`${label} on ${body.table}: no answer from the table yet (its feed may be down).`, true);
  }, ANSWER_WAIT_MS);
  state.sent.set(id, { label, table: body.table, timer });
  notice(`${label} on ${body.table}: sent as ${state.me.user}, waiting for the table's answer…`, false);
  const early = state.early.get(id);  // the table answered before the dashboard's own reply came
  if (early) { state.early.delete(id); answered(early); }
}

// An answer to a command this page has not heard back about yet is kept (a few, the newest):
// a fast table's answer can come over the socket before the dashboard's reply to the send.
const EARLY_KEPT = 20;

function answered(msg) {
  const sent = state.sent.get(msg.id);
  if (!sent) {
    state.early.set(msg.id, msg);
    if (state.early.size > EARLY_KEPT) state.early.delete(state.early.keys().next().value);
    return;
  }
  state.sent.delete(msg.id);
  clearTimeout(sent.timer);
  if (msg.answer === "accepted") notice(`${sent.label} on ${sent.table}: accepted by the table.`, false);
  else notice(`${sent.label} on ${sent.table}: refused by the table: ${text(msg.message, "no reason given")}`, true);
  $("notice").dataset.answer = msg.answer === "accepted" ? "accepted" : "refused";
  if (state.table) scheduleTable();
}

// -- table view ---------------------------------------------------------------------------------
function scheduleTable() {
  if (state.refresh) return;
  state.refresh = setTimeout(() => { state.refresh = null; loadTable(); }, 400);
}

async function loadTable() {
  const r = await api(`/api/table/${encodeURIComponent(state.table)}`);
  if (!r.ok) { $("table-head").replaceChildren(el("p", { text: errorText(r, "no such table") })); return; }
  renderTable(r.data);
}

function commandButton(spec) {
  return el("button", { "data-command": spec.command, class: spec.style || null, "data-confirm": spec.confirm || null,
    "data-round": spec.round || null, text: spec.label });
}

// The pit commands this table takes now: none for a dealer; Close only when open, Reopen only when closing.
function commandsOffered(t) {
  const cmds = (state.me && state.me.commands) || [];
  if (!isPitBoss()) return [];
  const offered = [];
  if (cmds.includes("close_after_round") && !t.closing) {
    offered.push({ command: "close_after_round", label: "Close after round", confirm: `Close ${t.table} after this round?` });
  }
  if (cmds.includes("reopen") && t.closing) offered.push({ command: "reopen", label: "Reopen", style: "primary" });
  if (cmds.includes("void_round") && t.round) offered.push({ command: "void_round", round: t.round, style: "danger",
    label: `Void round ${t.round}`, confirm: `Void round ${t.round}? Every stake still riding is refunded.` });
  return offered;
}

function changeLine(c, money) {
  return `${boxText(c)} ${Croupier.betWords(text(c.kind))}${c.player ? ` (${c.player})` : ""}: stake ${money(c.stake)}, `
    + `paid ${money(c.before)} → ${money(c.after)}`;
}

function renderCorrections(pending, money) {
  const list = $("corrections");
  if (!pending.length) { list.replaceChildren(el("li", { text: "None." })); return; }
  keyed(list, pending, (c) => c.correction, (c) => el("li", { "data-correction": c.correction },
    el("p", { class: "what" }), el("ul", { class: "changes" }),
    isPitBoss() ? el("div", { class: "correction-actions" },
      el("button", { "data-command": "approve_correction", "data-correction": c.correction, class: "primary",
        text: "Approve", "aria-label": `Approve correction ${c.correction}` }),
      el("input", { name: "reject-reason", maxlength: 200, placeholder: "reason to reject",
        "aria-label": `Reason to reject correction ${c.correction}` }),
      el("button", { "data-command": "reject_correction", "data-correction": c.correction, class: "danger",
        text: "Reject", "aria-label": `Reject correction ${c.correction}` })) : null),
  (node, c) => {
    const changes = c.changes || [];
    setText(node.querySelector(".what"), `Correction ${c.correction} of round ${c.round}, asked by ${whoWords(c.requested_by)}: ${said(c.reason)}`);
    keyed(node.querySelector(".changes"), changes, (x) => `${x.box}.${x.hand}.${x.kind}.${x.player || ""}`,
      () => el("li"), (li, x) => setText(li, changeLine(x, money)));
    const approve = node.querySelector("button[data-command=approve_correction]");
    if (approve) {
      const before = changes.reduce((n, x) => n + x.before, 0), after = changes.reduce((n, x) => n + x.after, 0);
      approve.dataset.confirm = `Approve correction ${c.correction} of round ${c.round}? `
        + `${changes.map((x) => changeLine(x, money)).join("; ")}. Paid in all ${money(before)} → ${money(after)}.`;
    }
  });
}

function renderTable(v) {
  const t = v.tile;
  const money = moneyOf(currencyOfTile(t));
  $("table-head").replaceChildren(
    el("div", { class: "top" }, el("span", { class: "name", text: t.table }),
      el("span", { class: `badge ${statusOf(t).cls} presence`, text: statusOf(t).text }),
      el("span", { text: gameLine(t) }),
      el("span", {}, "phase ", el("b", { class: "phase", text: text(t.phase) })),
      el("span", {}, "dealer ", el("b", { text: dealerText(t.dealer) })),
      el("span", { text: t.round ? `round ${t.round}` : "no round open" }),
      paceOf(t) ? el("span", { class: "pace" + (paceOf(t).below ? " below" : ""),
        text: paceOf(t).text + (paceOf(t).below ? " · below target" : "") }) : null),
    el("div", { class: "prompt-big", text: said(t.prompt) }),
    el("div", {}, `limits: ${limitsText(t.limits, money)} · devices: `, ...devicesNodes(t.devices)));
  keyed($("commands"), commandsOffered(t), (c) => c.command, commandButton, (node, c) => {
    setText(node, c.label);
    if (c.round) node.dataset.round = c.round;
    if (c.confirm) node.dataset.confirm = c.confirm;
  });
  $("commands-head").hidden = !isPitBoss();
  state.tableAlerts = v.alerts_open;
  renderAlerts($("table-alerts"), v.alerts_open, false);
  $("ack-table").hidden = !isPitBoss() || !warningsByTable(v.alerts_open).size;
  renderCorrections(v.corrections_pending, money);
  Boards.render($("boards"), v.boards);
  $("boards-head").hidden = $("boards").hidden;
  renderStats(v, money);
  loadRounds();
  $("shifts").replaceChildren(...shiftsNodes(v.shifts, money));
}

// "box 2", or "box 2.2" for a second hand (a split): a game of one hand a box says no hand
const boxText = (b) => `box ${text(b.box)}${Number.isInteger(b.hand) && b.hand > 1 ? `.${b.hand}` : ""}`;

function betLine(b, money) {
  const who = b.player ? ` ${b.player}` : "";
  const paid = b.result === "lost" ? "" : `, paid ${money(b.payout)}`;
  return `${boxText(b)} ${Croupier.betWords(text(b.kind))}${who} ${money(b.stake)}: ${text(b.result, "?")}${paid}`;
}

// The rounds list: newest first in table order, one page, filtered by the search box.
async function loadRounds() {
  const table = state.table, q = state.rounds.query;
  const params = new URLSearchParams({ q, page: String(state.rounds.page), tz: String(new Date().getTimezoneOffset()) });
  const r = await api(`/api/table/${encodeURIComponent(table)}/rounds?${params}`);
  if (!r.ok || table !== state.table || q !== state.rounds.query) return;
  const money = moneyOf(currencyOfTile(state.tiles.get(table) || {}));
  const d = r.data;
  state.rounds.page = d.page;
  const body = $("rounds").querySelector("tbody");
  if (!d.rows.length) body.replaceChildren(el("tr", {}, el("td", { colspan: 7, text: q ? "No round matches." : "No rounds yet." })));
  else keyed(body, d.rows, (row) => row.round, (row) => el("tr", { "data-round": row.round, tabindex: 0,
    "aria-label": `Recall round ${row.round}` },
    el("td", { class: "id" }), el("td", { class: "status" }), el("td", { class: "dealer" }),
    el("td", {}, el("div", { class: "outcome" }), el("div", { class: "bets" })),
    el("td", { class: "n drop" }), el("td", { class: "n paid" }), el("td", { class: "closed" })), (node, row) => {
    node.className = row.status === "void" ? "void" : "settled";
    setText(node.querySelector(".id"), text(row.round) + (row.corrected ? " ✎" : ""));
    setText(node.querySelector(".status"), text(row.status) + (row.corrected ? " (corrected)" : ""));
    setText(node.querySelector(".dealer"), dealerText(row.dealer));
    setText(node.querySelector(".outcome"), said(row.outcome));
    setText(node.querySelector(".bets"), row.bets.map((b) => betLine(b, money)).join("; "));
    setText(node.querySelector(".drop"), money(row.drop));
    setText(node.querySelector(".paid"), money(row.paid));
    setText(node.querySelector(".closed"), time(row.closed));
  });
  setText($("rounds-pages"), `page ${d.page} of ${d.pages} · ${d.total} round${d.total === 1 ? "" : "s"}${q ? " found" : ""}`);
  $("rounds-newer").disabled = d.page <= 1;
  $("rounds-older").disabled = d.page >= d.pages;
}

let searchTimer = null;
$("rounds-search").addEventListener("input", (ev) => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => { state.rounds = { query: ev.target.value.trim(), page: 1 }; loadRounds(); }, 250);
});
$("rounds-newer").addEventListener("click", () => { state.rounds.page -= 1; loadRounds(); });
$("rounds-older").addEventListener("click", () => { state.rounds.page += 1; loadRounds(); });

function figure(value, label, cls) {
  return el("div", { class: "figure" }, el("div", { class: "v" + (cls ? " " + cls : ""), text: value }), el("div", { class: "k", text: label }));
}

function renderStats(v, money) {
  const s = v.stats, e = v.edge, t = v.tile;
  const nodes = [el("div", { class: "figures" },
    figure(s.rounds_per_hour ? s.rounds_per_hour.toFixed(0) : "—", "rounds / hour"),
    figure(money(s.drop), "drop (stakes)"), figure(money(s.win), "win", s.win < 0 ? "neg" : null),
    figure(pct(s.hold), "hold", s.hold < 0 ? "hold neg" : "hold"),
    figure(e ? pct(e.edge) : "—", "theoretical edge", "edge"), figure(text(s.rounds), `rounds (${text(s.void)} void)`))];
  // a negative hold is red, never the green of a good figure
  const items = [{ label: "actual hold", value: s.hold || 0, text: pct(s.hold), color: s.hold < 0 ? "#e5484d" : "#3fb37f" }];
  if (e && e.expected_hold !== null) items.push({ label: "expected (bet mix)", value: e.expected_hold, text: pct(e.expected_hold), color: "#4c8dd6" });
  if (e) items.push({ label: "rule-set edge", value: e.edge, text: pct(e.edge), color: "#e0a526" });
  nodes.push(Charts.bars(items, "Hold against the house edge" + (e ? ` (${e.source})` : "")));
  let cumulative = 0;
  const code = currencyOfTile(t).code;
  nodes.push(Charts.line(v.holds_by_round.map((r) => (cumulative += r.stake - r.payout)),
    `House win over the last ${v.holds_by_round.length} settled rounds`, (x) => money(x),
    { x: "settled rounds, oldest to newest", y: `house win (${code}, cumulative)` }));
  if (v.bias) {
    const b = v.bias;
    const verdict = !b.enough ? [`too few spins for a verdict (${b.balls}; need ${Math.ceil(5 * Object.keys(b.counts).length)})`]
      : b.biased ? [el("span", { class: "flag", text: "BIAS FLAG" }), `: χ² = ${b.chi_square.toFixed(1)} above ${b.critical.toFixed(1)} (p = ${b.p_value.toExponential(2)})`]
      : [el("span", { class: "fine", text: "no bias" }), `: χ² = ${b.chi_square.toFixed(1)} ≤ ${b.critical.toFixed(1)} (${b.df} df, α = ${b.alpha})`];
    nodes.push(el("h2", { text: "Winning numbers" }), el("p", { class: "bias" }, ...verdict),
      Charts.frequencies(b.counts, b.expected, `${b.balls} balls; dashed: a fair wheel`));
  }
  $("stats").replaceChildren(...nodes);
}

function shiftsNodes(shifts, money) {
  if (!shifts.length) return [el("p", { text: "No rounds yet." })];
  const head = el("tr", {}, ...["dealer", "shift", "rounds", "per hour", "drop", "win", "hold"].map((h, i) =>
    el("th", { class: i > 1 ? "n" : null, text: h })));
  const rows = shifts.map((s) => el("tr", {}, el("td", { text: dealerText(s.dealer) }), el("td", { text: `${time(s.first)}–${time(s.last)}` }),
    el("td", { class: "n", text: text(s.rounds) }), el("td", { class: "n", text: s.rounds_per_hour ? s.rounds_per_hour.toFixed(0) : "—" }),
    el("td", { class: "n", text: money(s.drop) }), el("td", { class: "n", text: money(s.win) }), el("td", { class: "n", text: pct(s.hold) })));
  const chart = Charts.bars(shifts.slice(0, 8).map((s) => ({ label: `${dealerText(s.dealer)} ${time(s.first)}`, value: s.rounds_per_hour || 0,
    text: s.rounds_per_hour ? s.rounds_per_hour.toFixed(0) + "/h" : "—" })), "Rounds per hour by dealer shift");
  return [el("table", { class: "rounds" }, el("thead", {}, head), el("tbody", {}, ...rows)), chart];
}

$("rounds").addEventListener("click", async (ev) => {
  const tr = ev.target.closest("tr[data-round]");
  if (!tr) return;
  recallRound(tr);
});
$("rounds").addEventListener("keydown", (ev) => {
  const tr = ev.target.closest("tr[data-round]");
  if (tr && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); recallRound(tr); }
});

async function recallRound(tr) {
  const r = await api(`/api/table/${encodeURIComponent(state.table)}/round/${encodeURIComponent(tr.dataset.round)}`);
  const d = $("round-detail");
  d.hidden = false;
  if (!r.ok) { d.replaceChildren(el("p", { text: errorText(r, "no such round") })); return; }
  const rec = r.data.record;
  const money = moneyOf(currencyOfTile(state.tiles.get(state.table) || {}));
  const hands = r.data.rows.some((b) => Number.isInteger(b.hand) && b.hand > 1);
  const columns = ["box", ...(hands ? ["hand"] : []), "bet", "player", "stake", "result", "paid"];
  const head = el("tr", {}, ...columns.map((h) => el("th", { class: h === "stake" || h === "paid" ? "n" : null, text: h })));
  const device = r.data.device || "shoe";
  d.replaceChildren(el("h3", { class: "recall", id: "recall-head", tabindex: -1, text: `Recall · round ${text(rec.round)}` }),
    el("p", { text: `${text(rec.game)} · ${text(rec.status)} · opened ${time(rec.opened)} · closed ${time(rec.closed)} · dealer ${dealerText(rec.dealer)}`
      + (rec.shoe ? ` · ${device} ${rec.shoe}${device === "shoe" && rec.shoe_round ? ` round ${rec.shoe_round}` : ""}` : "") }),
    el("p", { class: "outcome", text: said(r.data.outcome) }),
    el("table", { class: "rounds" }, el("thead", {}, head), el("tbody", {}, ...r.data.rows.map((b) => el("tr", {},
      el("td", { text: text(b.box) }), ...(hands ? [el("td", { text: text(b.hand) })] : []),
      el("td", { text: Croupier.betWords(text(b.kind)) }), el("td", { text: text(b.player, "") }),
      el("td", { class: "n", text: money(b.stake) }), el("td", { text: text(b.result, "") }),
      el("td", { class: "n", text: money(b.payout) }))))),
    ...(rec.corrections || []).map((c) => el("p", { class: "correction", text: `corrected (correction ${text(c.seq)}, `
      + `asked by ${whoWords(c.requested_by)}, approved by ${whoWords(c.approved_by)}: ${said(c.reason)}): `
      + `${(c.changes || []).map((x) => changeLine(x, money)).join("; ")}` })));
  d.scrollIntoView({ block: "start" });  // the recall opens where the pit boss looks, not far below
  $("recall-head").focus({ preventScroll: true });
}

start().then(() => { if (!state.me) showLogin(); });
