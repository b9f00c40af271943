"""``croupier studio simulate`` against the real table (docs/studio.md, "Simulating"): the table
process's ``run_table`` with its devices simulated on their real transports and batch mode's
simulated dealer and seated players (``table.py``), remote players on the studio's WebSocket
(``players.py``), and an independent reading of the table's journal that settles every accepted
remote bet again with the game engines and counts where the studio paid otherwise (``check.py``)."""
