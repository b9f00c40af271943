-- The seat owner's Bet Behind switch (docs/studio.md, "Bet Behind"), kept with the book: a studio
-- restart, or another studio process sharing the book, finds it where the owner left it. A row
-- counts only while its player sits at the box (a new owner starts allowed).
CREATE TABLE studio_behind (
    table_id text NOT NULL,
    box integer NOT NULL,
    player text NOT NULL,  -- the seat's <operator>/<player>
    allowed boolean NOT NULL,
    changed timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, box)
);
