-- The seat messages the tables have not taken yet (docs/studio.md, "Seats"): the last one of each
-- box, written before it is sent (a leave with its owner's Bet Behind switch gone, in one
-- transaction) and deleted by its id once the table's leaf shows it, so a studio restart, or
-- another studio process sharing the book, sends it again. A copy the table has already taken
-- changes nothing there: its inbox takes a message id once.
CREATE TABLE studio_seat_messages (
    table_id text NOT NULL,
    box integer NOT NULL,
    id text NOT NULL,  -- the message's id, the one every copy is sent under
    message jsonb NOT NULL,
    written timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, box)
);
