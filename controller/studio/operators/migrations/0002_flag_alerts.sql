-- The studio's alert of each table's flagged wallet movements as last raised (its seq: the id the
-- pit acknowledges it by) and who acknowledged it: a restarted studio neither raises an
-- acknowledged alert again nor forgets one still open.
CREATE TABLE op_flag_alerts (
    table_id text PRIMARY KEY,
    seq bigint NOT NULL,
    count integer NOT NULL,
    acknowledged_by text,
    acknowledged_at timestamptz
);
