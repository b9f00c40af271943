-- The record contract's limits (controller/records/limits.py) on the columns that store the
-- records: the intake refuses what breaks them before it writes, and these keep a row that got
-- here another way out. tests/unit/records/test_sql_limits.py compares every bound below with
-- the models'. NOT VALID: rows stored before these checks are kept as they are; every new row
-- is checked.
ALTER TABLE rounds ADD CONSTRAINT rounds_table_id_limit CHECK (char_length(table_id) <= 32) NOT VALID;
ALTER TABLE rounds ADD CONSTRAINT rounds_round_id_limit CHECK (char_length(round_id) BETWEEN 1 AND 64) NOT VALID;
ALTER TABLE rounds ADD CONSTRAINT rounds_game_limit CHECK (char_length(game) BETWEEN 1 AND 32) NOT VALID;
ALTER TABLE rounds ADD CONSTRAINT rounds_dealer_limit CHECK (char_length(dealer) <= 64) NOT VALID;
ALTER TABLE rounds ADD CONSTRAINT rounds_shoe_limit CHECK (char_length(shoe) <= 64) NOT VALID;
ALTER TABLE rounds ADD CONSTRAINT rounds_shoe_round_limit CHECK (shoe_round BETWEEN 1 AND 10000) NOT VALID;
ALTER TABLE rounds ADD CONSTRAINT rounds_stake_total_limit CHECK (stake_total BETWEEN 0 AND 4096000000000000) NOT VALID;
ALTER TABLE rounds ADD CONSTRAINT rounds_payout_total_limit CHECK (payout_total BETWEEN 0 AND 4096000000000000) NOT VALID;

ALTER TABLE bets ADD CONSTRAINT bets_box_limit CHECK (box BETWEEN 1 AND 99) NOT VALID;
ALTER TABLE bets ADD CONSTRAINT bets_hand_limit CHECK (hand BETWEEN 1 AND 16) NOT VALID;
ALTER TABLE bets ADD CONSTRAINT bets_kind_limit CHECK (char_length(kind) BETWEEN 1 AND 64) NOT VALID;
ALTER TABLE bets ADD CONSTRAINT bets_player_limit CHECK (char_length(player) <= 64) NOT VALID;
ALTER TABLE bets ADD CONSTRAINT bets_stake_limit CHECK (stake BETWEEN 0 AND 1000000000000) NOT VALID;
ALTER TABLE bets ADD CONSTRAINT bets_payout_limit CHECK (payout BETWEEN 0 AND 1000000000000) NOT VALID;

ALTER TABLE alerts ADD CONSTRAINT alerts_round_id_limit CHECK (char_length(round_id) <= 64) NOT VALID;
ALTER TABLE alerts ADD CONSTRAINT alerts_severity_limit CHECK (severity IN ('info', 'warning', 'error')) NOT VALID;
ALTER TABLE alerts ADD CONSTRAINT alerts_code_limit CHECK (char_length(code) BETWEEN 1 AND 128) NOT VALID;
ALTER TABLE alerts ADD CONSTRAINT alerts_message_limit CHECK (char_length(message) <= 4096) NOT VALID;

ALTER TABLE floor_tables ADD CONSTRAINT floor_tables_game_limit CHECK (char_length(game) BETWEEN 1 AND 32) NOT VALID;
ALTER TABLE floor_tables ADD CONSTRAINT floor_tables_preset_limit CHECK (char_length(preset) <= 64) NOT VALID;
ALTER TABLE floor_tables ADD CONSTRAINT floor_tables_currency_digits_limit CHECK (currency_digits BETWEEN 0 AND 3) NOT VALID;
