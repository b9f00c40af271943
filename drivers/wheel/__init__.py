"""Cammegh SS2 roulette wheel driver.

``codec`` (wire lines <-> typed messages, pure), ``core`` (the session as a pure state machine with
the vendor's exception rules), ``session`` (the asyncio shell: serial line, polling, replies,
reconnect), ``events`` (what the table receives), ``replay`` (a trace through codec + core).
"""
