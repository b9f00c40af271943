"""Helpers every test shares: waiting for a condition (waiting.py)."""
