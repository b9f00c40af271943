"""The table: where device facts meet the rules (docs/architecture.md, the table layer).

``core`` is the state machine (journal entry in, effects out, no I/O), composed of one module per
job: ``shoe_device`` (the shoe's accounting, the shoe's own device adapter), ``game_device`` (the
game's own device: the wheel), ``health`` (devices online, faults), ``holds`` (holds and their
ways out), ``opening`` (when a round may open), ``corrections`` and ``pit`` (the pit's commands),
``alerts`` (what the pit acknowledges), ``dealers`` (sign-in), ``view`` (the dealer's prompt, the
pit's state); ``record`` is the round record. ``events`` turns journaled device events back into
the drivers' models. ``games`` holds the per-game adapters and ``registry`` every game once.
``loop`` journals each input, steps the core and carries the effects out (``outage``: a full disk);
``recovery`` replays the journal on start; ``devices`` and ``wheel`` open the configured devices;
``players`` are the simulated people of batch mode; ``app`` wires one table process; ``recall``
reads closed rounds back; ``printer`` and ``keyboard`` are the terminal.
"""
