"""The table adapters of the games (one module per game; ``base.GameAdapter`` declares the hooks).

Games are registered, with their engines, analyses and simulated people, in
``controller.table.registry``.
"""
