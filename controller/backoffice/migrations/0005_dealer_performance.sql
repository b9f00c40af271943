-- Dealer performance and game protection (docs/backoffice.md): each table's pace target (rounds
-- an hour, from its state's "pace"), and alerts found by code and time (procedure errors, result
-- mismatches, advantage-play flags).
ALTER TABLE floor_tables ADD COLUMN pace_target integer CHECK (pace_target > 0);
CREATE INDEX alerts_code_ts ON alerts (code, ts);
