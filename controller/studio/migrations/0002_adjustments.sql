-- a corrected round record re-settles: what a player was paid too much comes back as a debit
ALTER TABLE studio_payments DROP CONSTRAINT studio_payments_kind_check;
ALTER TABLE studio_payments ADD CONSTRAINT studio_payments_kind_check CHECK (kind IN ('credit', 'cancel', 'debit'));
