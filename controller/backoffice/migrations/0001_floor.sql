-- The floor's memory (docs/backoffice.md). Money is bigint minor units; times are timestamptz (UTC).

-- What each table plays, from its retained state and its table_started entries.
CREATE TABLE floor_tables (
    table_id        text PRIMARY KEY,
    game            text NOT NULL,
    preset          text,
    currency        text,
    currency_digits integer,
    updated         timestamptz NOT NULL
);

-- Every version of every closed round: version 0 as first closed, version n after n corrections.
CREATE TABLE rounds (
    table_id     text NOT NULL,
    round_id     text NOT NULL,
    version      integer NOT NULL CHECK (version >= 0),
    seq          bigint NOT NULL,
    game         text NOT NULL,
    preset       text,
    status       text NOT NULL CHECK (status IN ('settled', 'void')),
    opened       timestamptz NOT NULL,
    closed       timestamptz NOT NULL,
    dealer       text,
    shoe         text,
    shoe_round   integer,
    stake_total  bigint NOT NULL CHECK (stake_total >= 0),
    payout_total bigint NOT NULL CHECK (payout_total >= 0),
    outcome      jsonb NOT NULL,
    corrections  jsonb NOT NULL,
    record       jsonb NOT NULL,
    received     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, round_id, version)
);
CREATE INDEX rounds_closed ON rounds (closed);
CREATE INDEX rounds_table_closed ON rounds (table_id, closed);
CREATE INDEX rounds_dealer_closed ON rounds (dealer, closed);

CREATE TABLE bets (
    table_id  text NOT NULL,
    round_id  text NOT NULL,
    version   integer NOT NULL,
    n         integer NOT NULL,
    box       integer NOT NULL,
    hand      integer NOT NULL,
    kind      text NOT NULL,
    player    text,
    stake     bigint NOT NULL CHECK (stake >= 0),
    payout    bigint NOT NULL CHECK (payout >= 0),
    PRIMARY KEY (table_id, round_id, version, n),
    FOREIGN KEY (table_id, round_id, version) REFERENCES rounds ON DELETE CASCADE
);
CREATE INDEX bets_player ON bets (player) WHERE player IS NOT NULL;

CREATE TABLE alerts (
    table_id  text NOT NULL,
    seq       bigint NOT NULL,
    round_id  text,
    ts        timestamptz NOT NULL,
    severity  text NOT NULL,
    code      text NOT NULL,
    message   text NOT NULL,
    hold      boolean NOT NULL DEFAULT false,
    body      jsonb NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE INDEX alerts_ts ON alerts (ts);

CREATE TABLE pit_commands (
    table_id   text NOT NULL,
    seq        bigint NOT NULL,
    ts         timestamptz NOT NULL,
    round_id   text,
    command    text NOT NULL,
    sender     text,
    command_id text,
    body       jsonb NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE INDEX pit_commands_ts ON pit_commands (ts);

CREATE TABLE dealer_events (
    table_id  text NOT NULL,
    seq       bigint NOT NULL,
    ts        timestamptz NOT NULL,
    action    text NOT NULL CHECK (action IN ('sign_in', 'sign_out')),
    dealer    text,
    PRIMARY KEY (table_id, seq)
);
CREATE INDEX dealer_events_ts ON dealer_events (ts);

-- Every journal head a table published: the outside anchor of its hash chain. Two hashes for one
-- seq are both kept: that is the proof of a rewritten journal.
CREATE TABLE journal_heads (
    table_id  text NOT NULL,
    seq       bigint NOT NULL,
    hash      text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
    ts        timestamptz NOT NULL,
    received  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, seq, hash)
);

-- What the broker delivered that could not be read, with why: kept, never silently dropped.
CREATE TABLE rejected (
    id        bigserial PRIMARY KEY,
    topic     text NOT NULL,
    payload   bytea NOT NULL,
    reason    text NOT NULL,
    received  timestamptz NOT NULL DEFAULT now()
);
