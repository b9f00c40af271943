-- Tallies: the rounds rolled up per table, 15-minute bucket of their close time, dealer and game
-- (round_tally), and the settled rounds' stakes per table, bucket, game, preset and bet kind
-- (stake_tally), kept by triggers in the transaction that inserts the rounds and their bets.
-- A report reads a few rows per table and hour instead of every round and bet of the period.
--
-- They stay exact: an insert that conflicts (an at-least-once duplicate) fires no trigger; a
-- round's first version adds itself; a later version (a correction, whatever order versions
-- arrive in) recomputes the buckets its round's versions touch from the stored rounds, so the
-- version it replaces leaves the tallies. A bet adds its stake only while its round's version is
-- the latest and settled. `SELECT tally_rebuild()` (`croupier backoffice rebuild-tallies`)
-- recomputes them whole from the rounds; reports can also ignore them (`report --recompute`).

CREATE FUNCTION tally_bucket(ts timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT to_timestamp(floor(extract(epoch FROM ts) / 900) * 900)
$$;

-- what a round returned (controller/round_money.py): nothing when settled; a void's
-- outcome.void.returned_total, or every stake for a void record from before voids kept settled bets
CREATE FUNCTION round_returned(status text, outcome jsonb, stake_total bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN status = 'settled' THEN 0
      WHEN jsonb_typeof(outcome->'void'->'returned_total') = 'number'
           AND (outcome->'void'->>'returned_total')::numeric BETWEEN 0 AND stake_total
      THEN (outcome->'void'->>'returned_total')::numeric::bigint ELSE stake_total END
$$;

CREATE TABLE round_tally (
    table_id     text NOT NULL,
    bucket       timestamptz NOT NULL,   -- tally_bucket(closed): 15 minutes, aligned on UTC
    dealer       text NOT NULL,          -- '' when no dealer was signed in
    game         text NOT NULL,
    rounds       bigint NOT NULL,
    voids        bigint NOT NULL,
    corrected    bigint NOT NULL,        -- rounds whose latest version is a correction
    drop_total   bigint NOT NULL,
    paid_total   bigint NOT NULL,
    boxes_total  bigint NOT NULL,        -- boxes with a bet, summed over the rounds (occupancy)
    players_max  integer NOT NULL,
    first_opened timestamptz NOT NULL,
    last_closed  timestamptz NOT NULL,
    PRIMARY KEY (bucket, table_id, dealer, game)
);

CREATE TABLE stake_tally (
    table_id text NOT NULL,
    bucket   timestamptz NOT NULL,
    game     text NOT NULL,
    preset   text NOT NULL,              -- '' when the round had none
    kind     text NOT NULL,              -- the bet kind up to its ':'
    stake    bigint NOT NULL,
    PRIMARY KEY (bucket, table_id, game, preset, kind)
);

CREATE FUNCTION tally_add_round(r rounds) RETURNS void LANGUAGE sql AS $$
    INSERT INTO round_tally AS t (table_id, bucket, dealer, game, rounds, voids, corrected, drop_total, paid_total,
                                  boxes_total, players_max, first_opened, last_closed)
    VALUES (r.table_id, tally_bucket(r.closed), coalesce(r.dealer, ''), r.game, 1,
            (r.status = 'void')::int, (r.version > 0)::int,
            r.stake_total - round_returned(r.status, r.outcome, r.stake_total),
            greatest(0, r.payout_total - round_returned(r.status, r.outcome, r.stake_total)),
            r.boxes, r.players, r.opened, r.closed)
    ON CONFLICT (bucket, table_id, dealer, game) DO UPDATE SET
        rounds = t.rounds + 1, voids = t.voids + excluded.voids, corrected = t.corrected + excluded.corrected,
        drop_total = t.drop_total + excluded.drop_total, paid_total = t.paid_total + excluded.paid_total,
        boxes_total = t.boxes_total + excluded.boxes_total, players_max = greatest(t.players_max, excluded.players_max),
        first_opened = least(t.first_opened, excluded.first_opened),
        last_closed = greatest(t.last_closed, excluded.last_closed)
$$;

-- one table's bucket recomputed from its stored rounds and bets
CREATE FUNCTION tally_refresh(p_table text, p_bucket timestamptz) RETURNS void LANGUAGE sql AS $$
    DELETE FROM round_tally WHERE table_id = p_table AND bucket = p_bucket;
    DELETE FROM stake_tally WHERE table_id = p_table AND bucket = p_bucket;
    INSERT INTO round_tally (table_id, bucket, dealer, game, rounds, voids, corrected, drop_total, paid_total,
                             boxes_total, players_max, first_opened, last_closed)
    SELECT table_id, p_bucket, coalesce(dealer, ''), game, count(*), count(*) FILTER (WHERE status = 'void'),
           count(*) FILTER (WHERE version > 0), sum(stake_total - round_returned(status, outcome, stake_total)),
           sum(greatest(0, payout_total - round_returned(status, outcome, stake_total))), sum(boxes), max(players),
           min(opened), max(closed)
    FROM rounds WHERE table_id = p_table AND NOT superseded AND closed >= p_bucket AND closed < p_bucket + interval '15 minutes'
    GROUP BY table_id, coalesce(dealer, ''), game;
    INSERT INTO stake_tally (table_id, bucket, game, preset, kind, stake)
    SELECT r.table_id, p_bucket, r.game, coalesce(r.preset, ''), split_part(b.kind, ':', 1), sum(b.stake)
    FROM rounds r JOIN bets b USING (table_id, round_id, version)
    WHERE r.table_id = p_table AND NOT r.superseded AND r.status = 'settled'
      AND r.closed >= p_bucket AND r.closed < p_bucket + interval '15 minutes'
    GROUP BY 1, 3, 4, 5;
$$;

CREATE FUNCTION rounds_tally() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    touched timestamptz;
BEGIN
    IF NEW.superseded THEN
        RETURN NULL;  -- a later version is already there and counted
    END IF;
    IF NEW.version = 0 THEN
        PERFORM tally_add_round(NEW);
        RETURN NULL;
    END IF;
    -- a correction: every bucket any version of the round lies in, recomputed (the trigger that
    -- marks the earlier versions superseded has run: its name sorts first)
    FOR touched IN SELECT DISTINCT tally_bucket(closed) FROM rounds
                   WHERE table_id = NEW.table_id AND round_id = NEW.round_id LOOP
        PERFORM tally_refresh(NEW.table_id, touched);
    END LOOP;
    RETURN NULL;
END $$;

CREATE FUNCTION bets_tally() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r rounds%ROWTYPE;
BEGIN
    SELECT * INTO r FROM rounds WHERE table_id = NEW.table_id AND round_id = NEW.round_id AND version = NEW.version;
    IF NOT FOUND OR r.superseded OR r.status <> 'settled' THEN
        RETURN NULL;
    END IF;
    INSERT INTO stake_tally AS t (table_id, bucket, game, preset, kind, stake)
    VALUES (r.table_id, tally_bucket(r.closed), r.game, coalesce(r.preset, ''), split_part(NEW.kind, ':', 1), NEW.stake)
    ON CONFLICT (bucket, table_id, game, preset, kind) DO UPDATE SET stake = t.stake + excluded.stake;
    RETURN NULL;
END $$;

-- after rounds_superseded_after (triggers of one event fire in name order)
CREATE TRIGGER rounds_tally_after AFTER INSERT ON rounds FOR EACH ROW EXECUTE FUNCTION rounds_tally();
CREATE TRIGGER bets_tally_after AFTER INSERT ON bets FOR EACH ROW EXECUTE FUNCTION bets_tally();

-- both tallies recomputed whole from the stored rounds (one transaction: a report never sees them half-built)
CREATE FUNCTION tally_rebuild() RETURNS bigint LANGUAGE sql AS $$
    LOCK TABLE round_tally, stake_tally IN EXCLUSIVE MODE;
    DELETE FROM round_tally;
    DELETE FROM stake_tally;
    INSERT INTO round_tally (table_id, bucket, dealer, game, rounds, voids, corrected, drop_total, paid_total,
                             boxes_total, players_max, first_opened, last_closed)
    SELECT table_id, tally_bucket(closed), coalesce(dealer, ''), game, count(*), count(*) FILTER (WHERE status = 'void'),
           count(*) FILTER (WHERE version > 0), sum(stake_total - round_returned(status, outcome, stake_total)),
           sum(greatest(0, payout_total - round_returned(status, outcome, stake_total))), sum(boxes), max(players),
           min(opened), max(closed)
    FROM rounds WHERE NOT superseded
    GROUP BY table_id, tally_bucket(closed), coalesce(dealer, ''), game;
    INSERT INTO stake_tally (table_id, bucket, game, preset, kind, stake)
    SELECT r.table_id, tally_bucket(r.closed), r.game, coalesce(r.preset, ''), split_part(b.kind, ':', 1), sum(b.stake)
    FROM rounds r JOIN bets b USING (table_id, round_id, version)
    WHERE NOT r.superseded AND r.status = 'settled'
    GROUP BY 1, 2, 3, 4, 5;
    SELECT count(*) FROM round_tally;
$$;

SELECT tally_rebuild();
