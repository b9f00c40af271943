"""Game protection: what the table's own journal proves about the people and the wheel at it.

Pure and offline: every watch reads journal entries (or the wheel's status lines) in order and
answers with statistics and flags, so a day can be recomputed from the stored journal and a flag
always carries its evidence. docs/protection.md states the method and the measured rates.

Nothing here ever tells the pit the live count of a shoe: a "count is high" cue invites
preferential shuffling (docs/protection.md).
"""
