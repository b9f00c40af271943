"""The reference operator (``croupier studio operator-sim``): the generic wallet contract over HTTP
with balances in its own SQLite store, a consumer of its feed queue that checks every message, and
faults on request (slow, HTTP 500, timeouts, an answer dropped after a committed debit, duplicated
deliveries, away for a while). For the tests and the demo, never for real money."""
