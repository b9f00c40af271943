-- The intake's own findings (docs/backoffice.md, "Corrections"): a round version re-sent with
-- another body than the one stored is kept here beside it (never in its place, never dropped),
-- and every such conflict, and every corrected version the table's journal does not back, is an
-- alert row for the floor.
CREATE TABLE round_conflicts (
    table_id  text NOT NULL,
    round_id  text NOT NULL,
    version   integer NOT NULL,
    record    jsonb NOT NULL,
    digest    text GENERATED ALWAYS AS (md5(record::text)) STORED,
    received  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, round_id, version, digest)
);

CREATE TABLE intake_alerts (
    id        bigserial PRIMARY KEY,
    table_id  text NOT NULL,
    round_id  text,
    version   integer,
    code      text NOT NULL,        -- round.unproven_version, round.conflicting_version
    message   text NOT NULL,
    received  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX intake_alerts_received ON intake_alerts (received);
