"""The table: where device facts meet the rules (ARCHITECTURE.md layer 3).

``inputs`` names the journal entry kinds; ``core`` is the state machine (journal entry in,
effects out, no I/O) with ``holds`` and ``record``; ``games`` holds the per-game adapters;
``loop`` is the asyncio task that journals each input, steps the core and carries the effects
out; ``recovery`` replays the journal through the same core on start; ``devices`` opens the
configured shoe, ``wheel`` the configured roulette wheel; ``players`` are the simulated people
of batch mode; ``app`` wires one table process; ``recall`` reads closed rounds back;
``printer`` and ``keyboard`` are the terminal.
"""
