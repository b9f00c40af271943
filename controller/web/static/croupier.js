// What the dealer console and the pit dashboard share (docs/security.md, "The pages"):
// DOM built from text nodes only (never innerHTML with data), keyed in-place updates (a control
// still offered stays the same element), money from the table's currency, sign-in with its
// CSRF token, and a WebSocket that reconnects. Loaded as a plain script (window.Croupier) by
// both pages, and as a CommonJS module by its unit tests (node --test).
"use strict";
const Croupier = (() => {
  const SVG_NS = "http://www.w3.org/2000/svg";

  // One element: attrs are set as attributes ("class", "data-*", "aria-*", ...), except
  // "text" (its text), "on<event>" (a listener) and boolean true (an empty attribute);
  // null, undefined and false leave an attribute out. Children are nodes or text.
  function build(node, attrs, kids) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") node.textContent = String(v);
      else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const kid of kids.flat()) {
      if (kid === null || kid === undefined || kid === false || kid === "") continue;
      node.append(typeof kid === "object" ? kid : String(kid));
    }
    return node;
  }
  const el = (tag, attrs = {}, ...kids) => build(document.createElement(tag), attrs, kids);
  const svg = (tag, attrs = {}, ...kids) => build(document.createElementNS(SVG_NS, tag), attrs, kids);

  // Set a node's text only when it changed (no needless layout, selection kept).
  function setText(node, text) {
    const value = text === null || text === undefined ? "" : String(text);
    if (node.textContent !== value) node.textContent = value;
    return node;
  }

  // The children of parent, one per item, in order, matched by key (data-key): a child whose
  // key is still there is kept and updated in place, new keys are created, gone ones removed.
  function keyed(parent, items, keyOf, create, update) {
    const have = new Map();
    for (const child of [...parent.children]) if (child.dataset.key !== undefined) have.set(child.dataset.key, child);
    const wanted = [];
    for (const item of items) {
      const key = String(keyOf(item));
      let node = have.get(key);
      if (node) have.delete(key);
      else { node = create(item); node.dataset.key = key; }
      if (update) update(node, item);
      wanted.push(node);
    }
    for (const node of have.values()) node.remove();
    for (const child of [...parent.childNodes]) {
      if (!(child.nodeType === 1 && child.dataset.key !== undefined)) child.remove();
    }
    wanted.forEach((node, i) => {
      if (parent.children[i] !== node) parent.insertBefore(node, parent.children[i] || null);
    });
    return wanted;
  }

  // ------------------------------------------------------------------ money
  const FALLBACK = { code: "EUR", digits: 2 };
  // The currency of a table's state ({currency, currency_digits}), else the fallback's.
  function currencyOf(state, fallback = FALLBACK) {
    const s = state || {};
    const code = typeof s.currency === "string" && /^[A-Z]{3}$/.test(s.currency) ? s.currency : fallback.code;
    const digits = Number.isInteger(s.currency_digits) && s.currency_digits >= 0 && s.currency_digits <= 4
      ? s.currency_digits : fallback.digits;
    return { code, digits };
  }
  // minor units -> "1,234.50 EUR": the table's digits, thousands separators, the code always.
  function moneyFormatter(currency = FALLBACK) {
    const { code, digits } = currencyOf({ currency: currency.code, currency_digits: currency.digits });
    const number = new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
    const unit = 10 ** digits;
    return (minor) => (typeof minor === "number" && Number.isFinite(minor) ? `${number.format(minor / unit)} ${code}` : "—");
  }
  const formatters = new Map();
  function money(minor, currency = FALLBACK) {
    const key = `${currency.code}/${currency.digits}`;
    if (!formatters.has(key)) formatters.set(key, moneyFormatter(currency));
    return formatters.get(key)(minor);
  }

  // ------------------------------------------------------------------ HTTP with the session
  let csrf = "";
  let onUnauthorised = () => {};
  function session(data) {
    csrf = data && typeof data.csrf === "string" ? data.csrf : "";
    return data;
  }
  // GET, or POST a JSON body with the session's CSRF token: {ok, status, data}.
  async function api(path, body) {
    const init = body === undefined ? { credentials: "same-origin" } : {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    };
    let response;
    try { response = await fetch(path, init); } catch (e) { return { ok: false, status: 0, data: { message: "no answer from the server" } }; }
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }
    if (response.status === 401 && path !== "/api/login") onUnauthorised();
    return { ok: response.ok, status: response.status, data };
  }
  const errorText = (r, fallback) => (r.data && (r.data.message || r.data.error)) || fallback;

  // A sign-in form (inputs named user and password): on success, onSignedIn(session data).
  function signInForm(form, errorNode, onSignedIn) {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const r = await api("/api/login", { user: form.elements.user.value, password: form.elements.password.value });
      if (!r.ok) { setText(errorNode, errorText(r, "sign-in failed")); return; }
      setText(errorNode, "");
      form.elements.password.value = "";
      onSignedIn(session(r.data));
    });
  }
  async function signOut() {
    await api("/api/logout", {});
    csrf = "";
  }

  // ------------------------------------------------------------------ live socket
  // Milliseconds before reconnect attempt n (0, 1, ...): doubling from base, capped.
  const retryDelay = (attempt, base = 250, max = 4000) => Math.min(max, base * 2 ** Math.max(0, attempt));
  const CLOSED_FOR_GOOD = new Set([4401, 4403]); // signed out or expired; refused

  // A WebSocket to path that reconnects with backoff until closed or refused:
  // handlers {message(msg), open(), state(up), unauthorised()}.
  function live(path, handlers) {
    let socket = null, attempt = 0, stopped = false, timer = null;
    const open = () => {
      socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`);
      socket.onopen = () => { attempt = 0; if (handlers.state) handlers.state(true); if (handlers.open) handlers.open(); };
      socket.onmessage = (ev) => {
        let msg;
        try { msg = JSON.parse(ev.data); } catch (e) { return; }
        handlers.message(msg);
      };
      socket.onclose = (ev) => {
        socket = null;
        if (handlers.state) handlers.state(false);
        if (stopped) return;
        if (CLOSED_FOR_GOOD.has(ev.code)) { stopped = true; if (handlers.unauthorised) handlers.unauthorised(ev.code); return; }
        timer = setTimeout(open, retryDelay(attempt++));
      };
    };
    open();
    return {
      send(message) {
        if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(message)); return true; }
        return false;
      },
      close() { stopped = true; clearTimeout(timer); if (socket) socket.close(); },
    };
  }

  // A bet's wire kind as a person says it, on every page: "straight:17" -> "straight 17", "split:17-20" ->
  // "split 17-20", "corner:17-18-20-21" -> "corner 17-21", "six_line:16-...-21" -> "line 16-21",
  // "perfect_pairs" -> "Perfect Pairs"; a kind not named here with its separators as spaces.
  const BET_WORDS = {
    main: "main", behind: "bet behind", behind_stay: "behind (stays)", perfect_pairs: "Perfect Pairs", "21+3": "21+3",
    suit_em_up: "Suit 'em Up", lucky_lucky: "Lucky Lucky", hot_3: "Hot 3", bust_it: "Bust It", crazy_7: "Crazy 7",
    six_line: "line", first_four: "first four", jeu_zero: "jeu zéro", both_any: "both balls on one number",
    both_on: "both on",
  };
  const SPANNED = new Set(["street", "corner", "six_line"]);
  function betWords(kind) {
    const [name, spot, ...more] = String(kind).split(":");
    const said = BET_WORDS[name] || name.replaceAll("_", " ");
    if (spot === undefined || spot === "") return said;
    const numbers = spot.split("-");
    const shown = SPANNED.has(name) && numbers.length > 2 ? `${numbers[0]}-${numbers[numbers.length - 1]}` : spot;
    return [said, shown, ...more].join(" ");
  }

  // What a game's own script adds to the dealer's console (its layout on the felt: render(felt,
  // view, hooks) with each snapshot, keep(offer) with a layout message), registered when the
  // script loads; the console loads only its table's game's scripts, so it draws every one.
  const gameLayouts = new Map();
  const registerLayout = (game, layout) => { gameLayouts.set(game, layout); };
  const layouts = () => [...gameLayouts.values()];

  return {
    registerLayout, layouts, el, svg, setText, keyed, currencyOf, moneyFormatter, money, betWords, api, errorText, session, signInForm, signOut,
    retryDelay, live, set onUnauthorised(fn) { onUnauthorised = fn; },
  };
})();
if (typeof module !== "undefined") module.exports = Croupier;
