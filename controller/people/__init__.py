"""Simulated people of batch mode and the demo: players who bet and follow a strategy, and a
dealer who does what the prompt says (``players``; ``strategy_cache``: basic strategy on disk)."""
