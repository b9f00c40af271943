-- The studio's bet book (docs/studio.md): rounds as the tables announce them, players' requests
-- and their bets, the settlement's credits still owed, launch tokens seen, the house wallet.
CREATE TABLE studio_rounds (
    table_id   text NOT NULL,
    round      text NOT NULL,
    status     text NOT NULL CHECK (status IN ('open', 'sealed', 'settled', 'refunded')),
    opened     timestamptz NOT NULL DEFAULT now(),
    deadline   timestamptz,
    currency   text NOT NULL,
    digits     integer NOT NULL,
    limits     jsonb NOT NULL,
    seal       jsonb,
    record     jsonb,
    settled    jsonb,
    PRIMARY KEY (table_id, round)
);
CREATE INDEX studio_rounds_open ON studio_rounds (status) WHERE status IN ('open', 'sealed');

CREATE TABLE studio_requests (
    request    text PRIMARY KEY,
    operator   text NOT NULL,
    player     text NOT NULL,
    table_id   text NOT NULL,
    round      text NOT NULL,
    bets       jsonb NOT NULL,
    status     text NOT NULL CHECK (status IN ('pending', 'accepted', 'refused')),
    answer     jsonb,
    created    timestamptz NOT NULL DEFAULT now()
);
-- one live request per player and round: a refused one frees the player to try again
CREATE UNIQUE INDEX studio_requests_one_per_round ON studio_requests (table_id, round, operator, player)
    WHERE status <> 'refused';

CREATE TABLE studio_bets (
    id         text PRIMARY KEY,
    request    text NOT NULL REFERENCES studio_requests (request),
    table_id   text NOT NULL,
    round      text NOT NULL,
    operator   text NOT NULL,
    player     text NOT NULL,
    kind       text NOT NULL,
    amount     bigint NOT NULL CHECK (amount > 0),
    currency   text NOT NULL,
    status     text NOT NULL CHECK (status IN ('accepted', 'settled', 'refunded')),
    payout     bigint CHECK (payout >= 0),
    FOREIGN KEY (table_id, round) REFERENCES studio_rounds (table_id, round)
);
CREATE INDEX studio_bets_round ON studio_bets (table_id, round);
CREATE INDEX studio_bets_player ON studio_bets (operator, player, table_id, round);

-- what settlement owes the wallet, written with the settlement, paid until done (restart-safe)
CREATE TABLE studio_payments (
    tx         text PRIMARY KEY,
    kind       text NOT NULL CHECK (kind IN ('credit', 'cancel')),
    ref        text NOT NULL,
    table_id   text NOT NULL,
    round      text NOT NULL,
    operator   text NOT NULL,
    player     text NOT NULL,
    currency   text NOT NULL,
    amount     bigint NOT NULL CHECK (amount >= 0),
    done       boolean NOT NULL DEFAULT false,
    balance    bigint
);
CREATE INDEX studio_payments_due ON studio_payments (done) WHERE NOT done;

CREATE TABLE studio_tokens (
    operator   text NOT NULL,
    jti        text NOT NULL,
    expires    timestamptz NOT NULL,
    PRIMARY KEY (operator, jti)
);

-- the house wallet (controller/studio/wallet.py): balances and every movement, by our tx id
CREATE TABLE studio_wallet (
    operator   text NOT NULL,
    player     text NOT NULL,
    currency   text NOT NULL,
    balance    bigint NOT NULL CHECK (balance >= 0),
    PRIMARY KEY (operator, player, currency)
);
CREATE TABLE studio_wallet_tx (
    tx         text PRIMARY KEY,
    kind       text NOT NULL CHECK (kind IN ('debit', 'credit', 'cancel')),
    ref        text NOT NULL,
    operator   text NOT NULL,
    player     text NOT NULL,
    currency   text NOT NULL,
    amount     bigint NOT NULL,
    status     text NOT NULL,
    balance    bigint,
    created    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX studio_wallet_tx_ref ON studio_wallet_tx (ref);
