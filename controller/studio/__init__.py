"""``croupier studio``: the service remote players (or an operator's game client) bet through.

It meets the tables only over their MQTT broker (docs/studio.md, /the contract/): it reads each
table's ``betting`` and ``round`` leaves, keeps the bet book in PostgreSQL, sends the seal that
closes betting and the settled totals back on ``croupier/<table>/studio``.
"""
