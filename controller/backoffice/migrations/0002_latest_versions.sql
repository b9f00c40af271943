-- Reports read each round in its latest version. Rather than picking it per report (a sort of
-- every round of the period), each row says whether a later version exists, kept by triggers
-- whatever order the versions arrive in; and each round carries its count of boxes and players
-- with a bet, so occupancy needs no pass over the bets.

ALTER TABLE rounds ADD COLUMN superseded boolean NOT NULL DEFAULT false;
ALTER TABLE rounds ADD COLUMN boxes integer NOT NULL DEFAULT 0;
ALTER TABLE rounds ADD COLUMN players integer NOT NULL DEFAULT 0;

UPDATE rounds r SET superseded = EXISTS (
    SELECT 1 FROM rounds later WHERE later.table_id = r.table_id AND later.round_id = r.round_id AND later.version > r.version);
UPDATE rounds r SET boxes = b.boxes, players = b.players
FROM (SELECT table_id, round_id, version, count(DISTINCT box) AS boxes, count(DISTINCT player) AS players
      FROM bets GROUP BY 1, 2, 3) b
WHERE b.table_id = r.table_id AND b.round_id = r.round_id AND b.version = r.version;

CREATE FUNCTION rounds_mark_superseded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' AND TG_WHEN = 'BEFORE' THEN
        NEW.superseded := EXISTS (SELECT 1 FROM rounds WHERE table_id = NEW.table_id AND round_id = NEW.round_id
                                  AND version > NEW.version);
        RETURN NEW;
    END IF;
    UPDATE rounds SET superseded = true
    WHERE table_id = NEW.table_id AND round_id = NEW.round_id AND version < NEW.version AND NOT superseded;
    RETURN NULL;
END $$;

CREATE TRIGGER rounds_superseded_before BEFORE INSERT ON rounds
    FOR EACH ROW EXECUTE FUNCTION rounds_mark_superseded();
CREATE TRIGGER rounds_superseded_after AFTER INSERT ON rounds
    FOR EACH ROW WHEN (NEW.version > 0) EXECUTE FUNCTION rounds_mark_superseded();

-- the day's latest rounds, by close time: what every report reads
CREATE INDEX rounds_latest_closed ON rounds (closed) INCLUDE (table_id, status, stake_total, payout_total)
    WHERE NOT superseded;
