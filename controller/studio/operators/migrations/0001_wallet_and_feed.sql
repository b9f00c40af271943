-- The operators' wallet log: one row per money movement (our transaction id), one row per request
-- sent and per answer or failure received, each written before it is acted on. A player's launch
-- token is sent with a debit but never stored (a bearer credential; a debit is never re-sent later).
CREATE TABLE op_wallet_tx (
    tx text PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('debit', 'credit', 'cancel', 'adjust')),
    ref text NOT NULL,
    operator text NOT NULL,
    player text NOT NULL,
    round text NOT NULL DEFAULT '',
    currency text NOT NULL,
    amount bigint NOT NULL,
    -- pending: not answered yet (credits, cancels, adjustments are retried); answered: final;
    -- cancelled: a debit without an answer, returned by its cancel; flagged: for manual reconciliation
    state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'answered', 'cancelled', 'flagged')),
    result text,
    balance bigint,
    attempts integer NOT NULL DEFAULT 0,
    created timestamptz NOT NULL,
    next_attempt timestamptz NOT NULL,
    answered timestamptz,
    flag_reason text
);
CREATE INDEX op_wallet_tx_due ON op_wallet_tx (operator, next_attempt) WHERE state = 'pending';
CREATE INDEX op_wallet_tx_operator_created ON op_wallet_tx (operator, created);
CREATE INDEX op_wallet_tx_round ON op_wallet_tx (round);

CREATE TABLE op_wallet_exchange (
    id bigserial PRIMARY KEY,
    tx text NOT NULL REFERENCES op_wallet_tx (tx),
    attempt integer NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    direction text NOT NULL CHECK (direction IN ('request', 'answer', 'failure')),
    http_status integer,
    body text NOT NULL DEFAULT '',
    -- an answer read into the contract: its status and balance (compared with later answers)
    status text,
    balance bigint,
    note text NOT NULL DEFAULT ''
);
CREATE INDEX op_wallet_exchange_tx ON op_wallet_exchange (tx, id);

-- The operators' feed: every event of every table, with a gapless per-table sequence assigned in
-- the transaction that writes the event (the counter row is locked FOR UPDATE), published from here.
CREATE TABLE op_feed_counter (
    table_id text PRIMARY KEY,
    last_seq bigint NOT NULL DEFAULT 0
);

CREATE TABLE op_feed_outbox (
    table_id text NOT NULL,
    seq bigint NOT NULL,
    round text NOT NULL DEFAULT '',
    type text NOT NULL,
    game text NOT NULL,
    trace text NOT NULL,
    at timestamptz NOT NULL,
    data jsonb NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE INDEX op_feed_outbox_round ON op_feed_outbox (round);

-- a table's current state as its last event left it: the snapshot an operator may ask for
CREATE TABLE op_feed_state (
    table_id text PRIMARY KEY,
    seq bigint NOT NULL,
    game text NOT NULL,
    state jsonb NOT NULL
);

-- how far each operator's queue has been published (confirmed by the broker), per table
CREATE TABLE op_feed_cursor (
    operator text NOT NULL,
    table_id text NOT NULL,
    seq bigint NOT NULL,
    PRIMARY KEY (operator, table_id)
);
