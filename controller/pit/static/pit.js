// The pit dashboard page: floor view and table view over one WebSocket (docs/pit.md).
"use strict";
const esc = Charts.esc;
const $ = (id) => document.getElementById(id);
const state = { me: null, tiles: new Map(), alerts: [], socket: null, table: null, detail: null, refresh: null };

const money = (minor) => (typeof minor === "number" ? (minor / 100).toFixed(2) : "—");
const pct = (x) => (typeof x === "number" ? (x * 100).toFixed(2) + " %" : "—");
const time = (iso) => (iso ? new Date(iso).toLocaleTimeString() : "");
const tableFromPath = () => {
  const m = location.pathname.match(/^\/table\/([^/]+)$/);
  return m ? decodeURIComponent(m[1]) : null;
};

async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  let data = {};
  try { data = await response.json(); } catch (e) { data = {}; }
  if (response.status === 401 && path !== "/api/login") showLogin();
  return { ok: response.ok, status: response.status, data };
}

function notice(text, refused) {
  const n = $("notice");
  n.textContent = text;
  n.className = refused ? "refused" : "";
  n.hidden = false;
}

// -- sign-in ------------------------------------------------------------------------------------
function showLogin() {
  state.me = null;
  if (state.socket) { state.socket.onclose = null; state.socket.close(); state.socket = null; }
  $("login").hidden = false;
  $("floor").hidden = $("table").hidden = true;
  $("who").textContent = "";
  $("signout").hidden = true;
}

$("login").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const form = new FormData(ev.target);
  const r = await api("/api/login", { user: form.get("user"), password: form.get("password") });
  if (!r.ok) { $("login-error").textContent = r.data.error || "sign-in failed"; return; }
  $("login-error").textContent = "";
  ev.target.reset();
  await start();
});

$("signout").addEventListener("click", async () => { await api("/api/logout", {}); showLogin(); });

async function start() {
  const r = await api("/api/session");
  if (!r.ok) return;
  state.me = r.data;
  $("login").hidden = true;
  $("who").textContent = `${r.data.user} (${r.data.role.replace("_", " ")})`;
  $("signout").hidden = false;
  state.table = tableFromPath();
  $("floor").hidden = state.table !== null;
  $("table").hidden = state.table === null;
  connect();
  if (state.table) loadTable();
}

// -- live ---------------------------------------------------------------------------------------
function connect() {
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  state.socket = socket;
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "floor") {
      state.tiles = new Map(msg.tables.map((t) => [t.table, t]));
      $("tiles").innerHTML = "";
    } else if (msg.type === "tiles") {
      for (const t of msg.tiles) state.tiles.set(t.table, t);
      for (const t of msg.gone) state.tiles.delete(t);
    }
    state.alerts = msg.alerts || [];
    setLink(true);
    renderFloor(msg.type === "floor" ? null : msg.tiles.map((t) => t.table).concat(msg.gone));
    if (state.table && (msg.type === "floor" || msg.tiles.some((t) => t.table === state.table))) scheduleTable();
  };
  socket.onclose = (ev) => {
    setLink(false);
    if (ev.code === 4401) { showLogin(); return; }
    setTimeout(() => { if (state.me) connect(); }, 1000);
  };
}

function setLink(up) {
  const b = $("link");
  b.textContent = up ? "live" : "reconnecting";
  b.className = "badge " + (up ? "ok" : "bad");
}

// -- floor view ---------------------------------------------------------------------------------
function limitsText(limits) {
  return Object.entries(limits || {}).slice(0, 3).map(([k, v]) => `${k} ${money(v.min)}–${money(v.max)}`).join(", ") || "—";
}

function devicesHtml(devices) {
  const names = Object.keys(devices || {});
  if (!names.length) return "—";
  return names.map((n) => {
    const d = devices[n] || {};
    const bad = !d.online || d.fault;
    return `<span class="dot ${bad ? "bad" : ""}"></span>${esc(n)}${bad ? (d.fault ? ` (${esc(d.fault)})` : " offline") : ""}`;
  }).join(" ");
}

function tileHtml(t) {
  const presence = t.online === false ? "OFFLINE" : t.online ? "online" : "?";
  const top = t.alerts && t.alerts[0];
  return `<div class="top"><span class="name">${esc(t.table)}</span><span class="badge ${t.online === false ? "bad" : "ok"} presence">${presence}</span></div>
    <div class="game">${esc(t.game || "?")} · ${esc(t.preset || "")}</div>
    <dl><dt>phase</dt><dd class="phase">${esc(t.phase || "—")}${t.closing ? " · closing" : ""}${t.closed ? " · closed" : ""}</dd>
    <dt>dealer</dt><dd>${esc(t.dealer || "—")}</dd>
    <dt>limits</dt><dd>${esc(limitsText(t.limits))}</dd>
    <dt>devices</dt><dd>${devicesHtml(t.devices)}</dd>
    <dt>rounds</dt><dd>${t.ledger.rounds_settled ?? "—"} settled · hold ${t.ledger.stake_total ? pct((t.ledger.stake_total - t.ledger.payout_total) / t.ledger.stake_total) : "—"}</dd>
    <dt>alerts</dt><dd class="alert-count">${t.alerts_count ? `${t.alerts_count} open · ${esc(top.code || "")}` : "none"}</dd></dl>
    <div class="prompt">${esc(t.prompt || "")}</div>`;
}

function renderFloor(changed) {
  const tiles = $("tiles");
  const names = [...state.tiles.keys()].sort();
  for (const name of names) {
    if (changed && !changed.includes(name) && tiles.querySelector(`[data-table="${CSS.escape(name)}"]`)) continue;
    const t = state.tiles.get(name);
    let el = tiles.querySelector(`[data-table="${CSS.escape(name)}"]`);
    if (!el) {
      el = document.createElement("a");
      el.dataset.table = name;
      el.href = `/table/${encodeURIComponent(name)}`;
      const after = names.slice(names.indexOf(name) + 1).map((n) => tiles.querySelector(`[data-table="${CSS.escape(n)}"]`)).find(Boolean);
      tiles.insertBefore(el, after || null);
    }
    el.className = `tile ${t.online === false ? "offline" : ""} ${t.worst || ""}`;
    el.innerHTML = tileHtml(t);
  }
  for (const el of [...tiles.children]) if (!state.tiles.has(el.dataset.table)) el.remove();
  $("alerts").innerHTML = state.alerts.map((a) => alertHtml(a, true)).join("") || "<li>No open alerts.</li>";
}

function alertHtml(a, withTable) {
  const where = withTable ? `<a href="/table/${encodeURIComponent(a.table)}">${esc(a.table)}</a> · ` : "";
  const ack = `<button data-ack="${a.seq}" data-table="${esc(a.table)}">Acknowledge</button>`;
  return `<li class="${esc(a.severity || "info")}" data-alert="${a.seq}"><span class="sev">${esc(a.severity || "")}</span>${where}${esc(a.code || "")} — ${esc(a.message || "")}<br>${ack}</li>`;
}

document.addEventListener("click", async (ev) => {
  const b = ev.target.closest("button[data-ack], button[data-command]");
  if (!b) return;
  const body = b.dataset.ack
    ? { table: b.dataset.table, command: "acknowledge_alert", alert: Number(b.dataset.ack) }
    : { table: state.table, command: b.dataset.command, round: b.dataset.round, correction: b.dataset.correction };
  if (b.dataset.confirm && !confirm(b.dataset.confirm)) return;
  const r = await api("/api/command", body);
  if (r.ok) notice(`Sent ${body.command} to ${body.table} as ${state.me.user}.`, false);
  else notice(`Refused: ${r.data.error || r.status}`, true);
});

// -- table view ---------------------------------------------------------------------------------
function scheduleTable() {
  if (state.refresh) return;
  state.refresh = setTimeout(() => { state.refresh = null; loadTable(); }, 400);
}

async function loadTable() {
  const r = await api(`/api/table/${encodeURIComponent(state.table)}`);
  if (!r.ok) { $("table-head").innerHTML = `<p>${esc(r.data.error || "no such table")}</p>`; return; }
  renderTable(r.data);
}

function renderTable(v) {
  const t = v.tile;
  $("table-head").innerHTML = `<div class="top"><span class="name">${esc(t.table)}</span>
      <span class="badge ${t.online === false ? "bad" : "ok"} presence">${t.online === false ? "OFFLINE" : "online"}</span>
      <span>${esc(t.game || "")} · ${esc(t.preset || "")}</span><span>phase <b class="phase">${esc(t.phase || "—")}</b></span>
      <span>dealer <b>${esc(t.dealer || "—")}</b></span><span>round ${esc(t.round || "—")}</span></div>
    <div class="prompt-big">${esc(t.prompt || "")}</div>
    <div>limits: ${esc(limitsText(t.limits))} · devices: ${devicesHtml(t.devices)}</div>`;
  const cmds = (state.me && state.me.commands) || [];
  const buttons = [];
  if (cmds.includes("close_after_round")) buttons.push(`<button data-command="close_after_round" data-confirm="Close ${esc(t.table)} after this round?">Close after round</button>`);
  if (cmds.includes("reopen")) buttons.push(`<button data-command="reopen" class="primary">Reopen</button>`);
  if (cmds.includes("void_round") && t.round) buttons.push(`<button data-command="void_round" data-round="${esc(t.round)}" class="danger" data-confirm="Void round ${esc(t.round)}? Every stake is refunded.">Void round ${esc(t.round)}</button>`);
  $("commands").innerHTML = buttons.join("");
  $("table-alerts").innerHTML = v.alerts_open.map((a) => alertHtml(a, false)).join("") || "<li>No open alerts.</li>";
  $("corrections").innerHTML = v.corrections_pending.map((c) =>
    `<li>correction ${esc(c.correction)} of round ${esc(c.round)}: ${esc(c.reason)} (by ${esc(c.requested_by)})
     <button data-command="approve_correction" data-correction="${esc(c.correction)}">Approve</button></li>`).join("") || "<li>None.</li>";
  renderStats(v);
  $("rounds").querySelector("tbody").innerHTML = v.rounds.map((r) =>
    `<tr data-round="${esc(r.round)}" class="${esc(r.status)}"><td>${esc(r.round)}${r.corrected ? " ✎" : ""}</td><td>${esc(r.status)}</td>
     <td>${esc(r.dealer || "—")}</td><td>${esc(r.outcome)}</td><td class="n">${money(r.stake_total)}</td>
     <td class="n">${money(r.payout_total)}</td><td>${time(r.closed)}</td></tr>`).join("");
  $("shifts").innerHTML = shiftsHtml(v.shifts);
}

function renderStats(v) {
  const s = v.stats, e = v.edge;
  let html = `<div class="figures">
    <div class="figure"><div class="v">${s.rounds_per_hour ? s.rounds_per_hour.toFixed(0) : "—"}</div><div class="k">rounds / hour</div></div>
    <div class="figure"><div class="v">${money(s.drop)}</div><div class="k">drop (stakes)</div></div>
    <div class="figure"><div class="v">${money(s.win)}</div><div class="k">win</div></div>
    <div class="figure"><div class="v hold">${pct(s.hold)}</div><div class="k">hold</div></div>
    <div class="figure"><div class="v edge">${e ? pct(e.edge) : "—"}</div><div class="k">theoretical edge</div></div>
    <div class="figure"><div class="v">${s.rounds}</div><div class="k">rounds (${s.void} void)</div></div></div>`;
  const items = [{ label: "actual hold", value: s.hold || 0, text: pct(s.hold), color: "#3fb37f" }];
  if (e && e.expected_hold !== null) items.push({ label: "expected (bet mix)", value: e.expected_hold, text: pct(e.expected_hold), color: "#4c8dd6" });
  if (e) items.push({ label: "rule-set edge", value: e.edge, text: pct(e.edge), color: "#e0a526" });
  html += Charts.bars(items, "Hold against the house edge" + (e ? ` (${e.source})` : ""));
  let cumulative = 0;
  html += Charts.line(v.holds_by_round.map((r) => (cumulative += (r.stake - r.payout) / 100)), "House win over the last rounds", (x) => x.toFixed(2));
  if (v.bias) {
    const b = v.bias;
    const verdict = !b.enough ? `too few spins for a verdict (${b.balls}; need ${Math.ceil(5 * Object.keys(b.counts).length)})`
      : b.biased ? `<span class="flag">BIAS FLAG</span>: χ² = ${b.chi_square.toFixed(1)} above ${b.critical.toFixed(1)} (p = ${b.p_value.toExponential(2)})`
      : `<span class="fine">no bias</span>: χ² = ${b.chi_square.toFixed(1)} ≤ ${b.critical.toFixed(1)} (${b.df} df, α = ${b.alpha})`;
    html += `<h2>Winning numbers</h2><p class="bias">${verdict}</p>` + Charts.frequencies(b.counts, b.expected, `${b.balls} balls; dashed: a fair wheel`);
  }
  $("stats").innerHTML = html;
}

function shiftsHtml(shifts) {
  if (!shifts.length) return "<p>No rounds yet.</p>";
  const rows = shifts.map((s) => `<tr><td>${esc(s.dealer || "—")}</td><td>${time(s.first)}–${time(s.last)}</td><td class="n">${s.rounds}</td>
    <td class="n">${s.rounds_per_hour ? s.rounds_per_hour.toFixed(0) : "—"}</td><td class="n">${money(s.drop)}</td><td class="n">${money(s.win)}</td><td class="n">${pct(s.hold)}</td></tr>`).join("");
  const chart = Charts.bars(shifts.slice(0, 8).map((s) => ({ label: `${s.dealer || "—"} ${time(s.first)}`, value: s.rounds_per_hour || 0,
    text: s.rounds_per_hour ? s.rounds_per_hour.toFixed(0) + "/h" : "—" })), "Rounds per hour by dealer shift");
  return `<table class="rounds"><thead><tr><th>dealer</th><th>shift</th><th class="n">rounds</th><th class="n">per hour</th><th class="n">drop</th><th class="n">win</th><th class="n">hold</th></tr></thead><tbody>${rows}</tbody></table>${chart}`;
}

$("rounds").addEventListener("click", async (ev) => {
  const tr = ev.target.closest("tr[data-round]");
  if (!tr) return;
  const r = await api(`/api/table/${encodeURIComponent(state.table)}/round/${encodeURIComponent(tr.dataset.round)}`);
  const d = $("round-detail");
  d.hidden = false;
  if (!r.ok) { d.textContent = r.data.error; return; }
  const rec = r.data.record;
  d.innerHTML = `<div class="recall">Recall · round ${esc(rec.round)}</div>
    <p>${esc(rec.game)} · ${esc(rec.status)} · opened ${time(rec.opened)} · closed ${time(rec.closed)} · dealer ${esc(rec.dealer || "—")}
    ${rec.shoe ? ` · shoe ${esc(rec.shoe)} round ${esc(rec.shoe_round ?? "")}` : ""}</p>
    <pre>${esc(JSON.stringify(rec.outcome, null, 1))}</pre>
    <table class="rounds"><thead><tr><th>box</th><th>hand</th><th>bet</th><th>player</th><th class="n">stake</th><th class="n">paid</th></tr></thead><tbody>
    ${r.data.rows.map((b) => `<tr><td>${esc(b.box)}</td><td>${esc(b.hand)}</td><td>${esc(b.kind)}</td><td>${esc(b.player || "")}</td><td class="n">${money(b.stake)}</td><td class="n">${money(b.payout)}</td></tr>`).join("")}
    </tbody></table>${(rec.corrections || []).length ? `<p>corrections: ${esc(JSON.stringify(rec.corrections))}</p>` : ""}`;
});

start().then(() => { if (!state.me) showLogin(); });
