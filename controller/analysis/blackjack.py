"""Blackjack house edge (placeholder until the engine lands)."""
