// The history page (docs/pit.md, "History"): a gaming day's report per table and its rounds,
// from the floor's store (the back office). Built from text only, like the rest of the page.
"use strict";
const PitHistory = (() => {
  const { el, setText, api, errorText, currencyOf, money } = Croupier;
  const $ = (id) => document.getElementById(id);
  const dash = (v) => (v === null || v === undefined || v === "" ? "—" : String(v));
  const clock = (iso) => (iso ? new Date(iso).toLocaleTimeString("en-GB", { hour12: false }) : "—");
  const percent = (x) => (typeof x === "number" && Number.isFinite(x) ? x.toFixed(2) + " %" : "—");

  function memoryLine(memory) {
    if (!memory) return "";
    if (memory.from === "store") return `The floor shows gaming day ${dash(memory.day)} from the back office.`;
    return `No back office answers this dashboard: the floor shows what it saw since ${clock(memory.since)}.`;
  }

  function report(body) {
    const rows = Object.entries(body.tables || {}).sort(([a], [b]) => a.localeCompare(b));
    const tbody = $("history-report").querySelector("tbody");
    if (!rows.length) { tbody.replaceChildren(el("tr", {}, el("td", { colspan: 7, text: "No rounds that day." }))); return; }
    tbody.replaceChildren(...rows.map(([table, f]) => {
      const cur = currencyOf(f, { code: "EUR", digits: 2 });
      return el("tr", {}, el("td", { text: table }), el("td", { text: dash(f.game) }),
        el("td", { class: "n", text: dash(f.rounds) }), el("td", { class: "n", text: dash(f.void) }),
        el("td", { class: "n", text: money(f.drop, cur) }), el("td", { class: "n", text: money(f.win, cur) }),
        el("td", { class: "n", text: percent(f.hold_pct) }));
    }));
  }

  function rounds(list, currencies) {
    const tbody = $("history-rounds").querySelector("tbody");
    if (!list.length) { tbody.replaceChildren(el("tr", {}, el("td", { colspan: 8, text: "No rounds that day." }))); return; }
    tbody.replaceChildren(...list.map((r) => {
      const cur = currencies.get(r.table) || { code: "EUR", digits: 2 };
      return el("tr", { class: r.status === "void" ? "void" : "settled" }, el("td", { text: dash(r.table) }),
        el("td", { text: dash(r.round) + (r.corrected ? " ✎" : "") }), el("td", { text: dash(r.status) }),
        el("td", { text: dash(r.dealer === null ? "no dealer signed in" : r.dealer) }), el("td", { text: dash(r.outcome) }),
        el("td", { class: "n", text: money(r.drop, cur) }), el("td", { class: "n", text: money(r.paid, cur) }),
        el("td", { text: clock(r.closed) }));
    }));
  }

  const RETRY_MS = 3000;

  async function show(day, table) {
    const params = new URLSearchParams({ day });
    if (table) params.set("table", table);
    setText($("history-error"), "");
    const [rep, found] = await Promise.all([api(`/api/history/report?${params}`), api(`/api/history/rounds?${params}&limit=200`)]);
    if (!rep.ok || !found.ok) {
      const failed = !rep.ok ? rep : found;
      setText($("history-error"), failed.status === 404 ? "History needs a back office: set [pit] backoffice in the dashboard's config."
        : errorText(failed, "history is not available now") + (failed.status === 503 ? " (trying again)" : ""));
      if (failed.status === 503) setTimeout(() => show(day, table), RETRY_MS);  // the back office busy or away: ask again
      return;
    }
    if (found.data.day) $("history-day").value = found.data.day;
    report(rep.data);
    const currencies = new Map(Object.entries(rep.data.tables || {}).map(([t, f]) => [t, currencyOf(f, { code: "EUR", digits: 2 })]));
    rounds(found.data.rounds || [], currencies);
  }

  function open() {
    const memory = () => setText($("history-memory"), memoryLine(state.memory));
    memory();
    setInterval(memory, 500);  // the floor message brings it over the page's live link
    const params = new URLSearchParams(location.search);
    show(params.get("day") || "today", params.get("table") || "");
    $("history-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const day = $("history-day").value, table = $("history-table").value.trim();
      history.replaceState(null, "", `/history?${new URLSearchParams({ day, ...(table ? { table } : {}) })}`);
      show(day, table);
    });
  }

  return { open };
})();
