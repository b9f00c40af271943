"""Hardware-in-the-loop soak: ``croupier hil soak`` (docs/hil.md).

A table controller runs as a child process, as in production; its shoe or wheel is simulated
in the soak's own process on real ptys behind stable links, its broker is a real mosquitto the
soak starts and stops, and faults are injected from outside on a seeded schedule. At the end
the soak checks the table against what it fed in itself, independently of the table's state.
"""
