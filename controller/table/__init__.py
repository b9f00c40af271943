"""The table: where device facts meet the rules, as a pure state machine (docs/architecture.md,
the table layer): journal entries in, effects out, no I/O of its own.

``core`` is the state machine, composed of one module per job: ``shoe_device`` (the shoe's
accounting, the shoe's own device adapter), ``game_device`` (the game's own device: the wheel),
``health`` (devices online, faults), ``holds`` (holds and their ways out), ``opening`` (when a
round may open), ``corrections`` and ``pit`` (the pit's commands), ``alerts`` (what the pit
acknowledges), ``dealers`` (sign-in), ``view`` (the dealer's prompt, the pit's state);
``dispatch`` maps each command model to its handler; ``record`` is the round record.
``events`` turns journaled device events back into the drivers' models; ``presses`` is what a
bet spot's press means. ``games`` holds the per-game adapters and views, ``registry`` every
game once, and ``recall`` reads closed rounds back from the journal.

The runtime that drives it live (loop, recovery, snapshots, device openers) is
``controller.runtime``; the simulated people are ``controller.people``; the terminal is
``controller.terminal``; one table process is wired in ``controller.process``.
"""
