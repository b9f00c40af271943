"""The phases of the table's round: idle (no round), betting, playing (cards, decisions, the
wheel), settling (the engine settled every bet: the dealer is told to settle)."""

IDLE, BETTING, PLAYING, SETTLING = "idle", "betting", "playing", "settling"
