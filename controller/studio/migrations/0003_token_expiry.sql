-- spent launch tokens are forgotten a day after they expire: found by their expiry
CREATE INDEX studio_tokens_expires ON studio_tokens (expires);
