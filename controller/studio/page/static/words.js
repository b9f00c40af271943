// What the player's page says (docs/studio.md, "The player's page"): a refusal's reason as a
// sentence (never its code), a round's result (the number, or the cards), what a round paid.
// Loaded as a plain script (window.PlayerWords) after croupier.js, and as a CommonJS module by
// its unit tests (node --test).
"use strict";
const PlayerWords = (() => {
  const RELAUNCH = "To play again, open the game from your casino's site.";
  const REFUSALS = {
    late: "Too late: betting closed before your bets reached the table. Nothing was taken.",
    table_closed: "Betting is not open for this round.",
    limits: "One of these bets is outside the table's limits.",
    funds: "There is not enough money in your account for these bets.",
    operator_limit: "These bets are over the limit your casino set for your account.",
    currency: "This table plays in another currency than your account.",
    wallet: "Your casino's wallet did not answer. Nothing was taken: please try again.",
    unavailable: "The studio could not record your bets just now. Press Place bets again: you will not be charged twice.",
    already_bet: "You have already placed your bets on this round.",
    request_reused: "These bets could not be sent as they are. Please place them again.",
    in_progress: "Your bets are still being recorded. Please wait a moment.",
    not_joined: "You are not seated at the table yet.",
    joined_already: "You are already seated at this table.",
    token_invalid: `This game link is not valid. ${RELAUNCH}`,
    token_expired: `This game link has expired. ${RELAUNCH}`,
    token_replayed: `This session has ended. ${RELAUNCH}`,
    token_refused: `Your casino has ended this session. ${RELAUNCH}`,
    unknown_table: "This table is not open at this studio.",
    rate_limited: "Too many requests at once. Please wait a moment.",
    // seats and Bet Behind
    no_seats: "This table has no seats to take: bet on the layout.",
    box_unknown: "There is no such box at this table.",
    seat_taken: "Another player has just taken that box.",
    seats_full: "You already sit at as many boxes as this table allows.",
    not_seated: "You are not seated at that box.",
    not_your_turn: "It is not your turn at that box.",
    decision_illegal: "That decision is not possible for this hand.",
    decision_late: "Too late: your time to decide ran out, and the table decided for you.",
    behind_off: "This table takes no Bet Behind.",
    behind_not_allowed: "The player at that box does not allow Bet Behind.",
    behind_own_box: "You play that box yourself: Bet Behind is for another player's box.",
    presets: "This table cannot follow that choice for a Bet Behind.",
  };
  const UNREADABLE = "The table could not read what the page sent. Please reload the game from your casino's site.";
  //: a refusal after which this page can do nothing more: the session is over
  const ENDING = new Set(["token_invalid", "token_expired", "token_replayed", "token_refused", "unknown_table", "currency"]);

  const refusal = (reason) => REFUSALS[reason] || UNREADABLE;
  const ends = (reason) => ENDING.has(reason);

  // "TC" -> "10♣", "AS" -> "A♠"
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  function card(code) {
    const c = String(code);
    const rank = c.slice(0, -1) === "T" ? "10" : c.slice(0, -1);
    return `${rank}${SUITS[c.slice(-1)] || ""}`;
  }
  const cards = (list) => (Array.isArray(list) ? list.map(card).join(" ") : "");
  const WINNER = { banker: "Banker wins", player: "Player wins", tie: "Tie" };

  // The result of a round as its record has it: "17 red", "Banker wins 7 to 5", the cards.
  function result(outcome, game) {
    const o = outcome || {};
    if (Array.isArray(o.numbers)) {
      return o.numbers.map((n, i) => [n, (o.colours || [])[i]].filter(Boolean).join(" ")).join(" and ");
    }
    if (o.player && o.banker) {
      const head = WINNER[o.winner] || "Coup dealt";
      const [a, b] = o.winner === "player" ? [o.player.total, o.banker.total] : [o.banker.total, o.player.total];
      return `${head}, ${a} to ${b}: banker ${cards(o.banker.cards)}, player ${cards(o.player.cards)}`;
    }
    if (o.dealer && Array.isArray(o.boxes)) {
      const boxes = o.boxes.map((b) => `box ${b.box} ${(b.hands || []).map((h) => cards(h.cards)).join(" / ")}`);
      return [`dealer ${cards(o.dealer.cards)}`, ...boxes].join(" · ");
    }
    return game ? `${game} round` : "round";
  }

  // What a round brought: its stake, what came back, whether it was returned.
  function paid(stake, back, refunded, money) {
    if (refunded) return `Your bets were returned: ${money(back)}.`;
    if (!back) return `No win this round (stake ${money(stake)}).`;
    if (back === stake) return `Your stake came back: ${money(back)}.`;
    return `You won: ${money(back)} paid on a stake of ${money(stake)}.`;
  }

  //: a round settled before the operator's wallet answered: its balance follows (a `balance` push)
  const CONFIRMING = "Your casino is confirming your balance…";
  //: a round whose money has moved (its balance after is the wallet's, once it answers)
  const finished = (status) => status === "settled" || status === "refunded";

  // A history row's result in a word
  function verdict(status, stake, back) {
    if (status === "refunded") return "returned";
    if (status !== "settled") return "waiting for the result";
    if (!back) return "lost";
    return back > stake ? "won" : back === stake ? "stake back" : "part back";
  }

  // A bet's kind as the player reads it: the shared words (Croupier.betWords), and a box's bet
  // "main@3" as "main, box 3"; a Bet Behind's presets after "+" ("behind@3+double" -> "bet behind, box 3, follows double")
  function kind(k) {
    const [head, at] = String(k).split("@");
    if (at === undefined) return Croupier.betWords(head);
    const [box, ...presets] = at.split("+");
    return [`${Croupier.betWords(head)}, box ${box}`, presets.length ? `follows ${presets.join(" and ")}` : ""]
      .filter(Boolean).join(", ");
  }

  // A seated player's decisions as buttons say them, and what the table did at a box's turn
  const DECISIONS = {
    hit: "Hit", stand: "Stand", double: "Double", split: "Split", surrender: "Surrender", insurance: "Insurance",
    no_insurance: "No insurance", even_money: "Even money", triple: "Triple", quadruple: "Quadruple", play: "Play",
    fold: "Fold", raise: "Raise", higher: "Higher", lower: "Lower",
  };
  const decision = (name) => DECISIONS[name] || String(name).replaceAll("_", " ");
  function decided(d, mine) {
    const who = mine ? "you" : `box ${d.box}`;
    const what = decision(d.decision).toLowerCase();
    const head = d.cause === "player" ? `Box ${d.box}, hand ${d.hand}: ${what}.`
      : d.cause === "timeout" ? `Box ${d.box}, hand ${d.hand}: the time ran out, the table chose ${what} for ${who}.`
        : `Box ${d.box}, hand ${d.hand}: the connection was lost, the table chose ${what} for ${who}.`;
    return d.refunded ? `${head} The bets on box ${d.box} are returned.` : head;
  }

  // A refused decision: the player may choose another while the turn lasts
  const decisionRefusal = (reason) => (reason === "funds"
    ? "There is not enough money in your account for that decision: choose another." : refusal(reason));

  return { refusal, decisionRefusal, ends, card, result, paid, verdict, finished, kind, decision, decided, RELAUNCH,
    CONFIRMING };
})();
if (typeof module !== "undefined") module.exports = PlayerWords;
