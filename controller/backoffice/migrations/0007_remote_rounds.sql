-- The remote players' totals of a round (docs/studio.md): what the studio settled on its remote
-- bets, journaled by the table as ``remote_settled``. One row per round, the latest by seq (the
-- studio sends its totals again after a correction re-settles), so nothing is counted twice.
-- Remote drop = stake - refunded, remote win = stake - paid; a round's day is its close's.
CREATE TABLE remote_rounds (
    table_id text NOT NULL,
    round_id text NOT NULL,
    seq bigint NOT NULL,
    ts timestamptz NOT NULL,
    bets integer NOT NULL CHECK (bets >= 0),
    stake bigint NOT NULL CHECK (stake >= 0),
    paid bigint NOT NULL CHECK (paid >= 0),
    refunded bigint NOT NULL CHECK (refunded >= 0 AND refunded <= stake),
    PRIMARY KEY (table_id, round_id)
);
