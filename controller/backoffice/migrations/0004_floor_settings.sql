-- The back office's gaming day, shifts, pits and flag level, as its running consumer was
-- configured ([backoffice] in its TOML): what the pit dashboard's history reads, so its days
-- and shifts are the back office's own and never a default. One row; written at every start.
CREATE TABLE floor_settings (
    id                boolean PRIMARY KEY DEFAULT true CHECK (id),
    gaming_day_starts text NOT NULL,
    timezone          text NOT NULL,
    shifts            jsonb NOT NULL,
    pits              jsonb NOT NULL,
    z_flag            double precision NOT NULL,
    updated           timestamptz NOT NULL DEFAULT now()
);
