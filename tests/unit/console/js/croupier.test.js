// Unit tests of the pages' shared module (controller/web/static/croupier.js), run by
// tests/unit/console/test_frontend.py through node's built-in test runner.
"use strict";
const test = require("node:test");
const assert = require("node:assert");
const path = require("node:path");
const Croupier = require(path.resolve(__dirname, "../../../../controller/web/static/croupier.js"));

test("money has the table's digits, thousands separators and its currency", () => {
  assert.strictEqual(Croupier.money(123456789, { code: "EUR", digits: 2 }), "1,234,567.89 EUR");
  assert.strictEqual(Croupier.money(1000, { code: "EUR", digits: 2 }), "10.00 EUR");
  assert.strictEqual(Croupier.money(-250, { code: "USD", digits: 2 }), "-2.50 USD");
  assert.strictEqual(Croupier.money(1500000, { code: "JPY", digits: 0 }), "1,500,000 JPY");
  assert.strictEqual(Croupier.money(1234567, { code: "KWD", digits: 3 }), "1,234.567 KWD");
  assert.strictEqual(Croupier.money(0, { code: "GBP", digits: 2 }), "0.00 GBP");
});

test("money that is not a number is a dash, never NaN or undefined", () => {
  for (const bad of [null, undefined, "12", NaN, Infinity, {}]) {
    assert.strictEqual(Croupier.money(bad, { code: "EUR", digits: 2 }), "—");
  }
});

test("the currency comes from the table's state, else the fallback", () => {
  assert.deepStrictEqual(Croupier.currencyOf({ currency: "JPY", currency_digits: 0 }), { code: "JPY", digits: 0 });
  assert.deepStrictEqual(Croupier.currencyOf({}), { code: "EUR", digits: 2 });
  assert.deepStrictEqual(Croupier.currencyOf(null, { code: "CHF", digits: 2 }), { code: "CHF", digits: 2 });
  // a hostile or broken state falls back rather than showing its text or a wild precision
  assert.deepStrictEqual(Croupier.currencyOf({ currency: "<b>", currency_digits: 99 }), { code: "EUR", digits: 2 });
  assert.deepStrictEqual(Croupier.currencyOf({ currency: "usd", currency_digits: 1.5 }), { code: "EUR", digits: 2 });
});

test("reconnecting backs off by doubling, capped", () => {
  assert.deepStrictEqual([0, 1, 2, 3, 4, 5, 9].map((n) => Croupier.retryDelay(n)), [250, 500, 1000, 2000, 4000, 4000, 4000]);
});

test("a bet kind reads as a person says it, the same on both pages", () => {
  const said = {
    "straight:17": "straight 17", "straight:00": "straight 00", "split:17-20": "split 17-20", "street:16-17-18": "street 16-18",
    "corner:17-18-20-21": "corner 17-21", "six_line:16-17-18-19-20-21": "line 16-21", "dozen:2": "dozen 2",
    "column:1": "column 1", red: "red", voisins: "voisins", jeu_zero: "jeu zéro", "neighbours:17": "neighbours 17",
    "both_on:19": "both on 19", perfect_pairs: "Perfect Pairs", behind_stay: "behind (stays)", "21+3": "21+3",
    lucky_lucky: "Lucky Lucky", some_new_bet: "some new bet",
  };
  for (const [kind, words] of Object.entries(said)) assert.strictEqual(Croupier.betWords(kind), words, kind);
  for (const kind of Object.keys(said)) assert.ok(!/[:_]/.test(Croupier.betWords(kind)), kind);
});
