"""The one set of limits of what a table records and publishes (docs/protocols.md, "Limits").

Every model of ``controller.records`` takes its bounds from here, the back office's tables carry
the same bounds as ``CHECK`` constraints (migrations/0008_record_limits.sql, compared with these
by tests/unit/records/test_sql_limits.py), and the published JSON Schemas show them. Amounts are
bounded by what a table can produce: one bet by the command model's cap (no stake or payout a
command could carry is larger), a round's totals by that cap times the bets a round may carry.
"""

from __future__ import annotations

from typing import Final

from controller.commands.models import MAX_AMOUNT, MAX_BOX, MAX_CHANGES, MAX_HAND

__all__ = [
           "MAX_AMOUNT",
           "MAX_BETS",
           "MAX_BOX",
           "MAX_CHANGES",
           "MAX_CODE",
           "MAX_CORRECTIONS",
           "MAX_GAME",
           "MAX_HAND",
           "MAX_ID",
           "MAX_KIND",
           "MAX_MESSAGE",
           "MAX_PROOF_ROWS",
           "MAX_ROW_PAYLOAD",
           "MAX_SEQ",
           "MAX_TABLE",
           "MAX_TOTAL",
           "TABLE_ID",
]

#: bets one round may carry (a full roulette layout on every box fits many times over)
MAX_BETS: Final = 4096
#: a round's stake or payout total: every bet at the cap
MAX_TOTAL: Final = MAX_AMOUNT * MAX_BETS
#: corrections one round may carry (the table corrects only its last 1000 rounds, each a few times)
MAX_CORRECTIONS: Final = 1000
#: a journal seq (JSON's safe integers: a browser reads it exactly)
MAX_SEQ: Final = 2**53
#: a table id, as the config allows it (``[table] id``)
TABLE_ID: Final = r"^[A-Za-z0-9_-]{1,32}$"
MAX_TABLE: Final = 32
#: a game's registered name
MAX_GAME: Final = 32
#: ids and names a table writes: round ids, dealers, shoes, players, sources, devices, presets
MAX_ID: Final = 64
#: a bet kind (``main``, ``21+3``, ``split:17-20``): the command model's is 48, a record's room is 64
MAX_KIND: Final = 64
#: an alert code (``blackjack.dealer.stands``) or a severity
MAX_CODE: Final = 128
#: a sentence for people: an alert's message, a correction's reason, a prompt
MAX_MESSAGE: Final = 4096
#: rows of a corrected record's journal proof
MAX_PROOF_ROWS: Final = 64
#: one journal row's payload text inside a proof
MAX_ROW_PAYLOAD: Final = 65536
