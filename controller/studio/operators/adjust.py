"""A correction the pit approves after settlement, as the operators see it: one adjustment per
affected player, the difference between what the corrected round pays and what was paid. The
adjustment's id is derived from the round, the correction's version, the operator, the player and
the currency, so asking again is the same adjustment (the operator pays it once), and one player id
at two operators (our ids are unique across operators) gets two."""

from __future__ import annotations

from collections.abc import Mapping

from controller.studio.operators.interface import WalletTx

Key = tuple[str, str, str]  # (operator, player, currency)


def adjustments(round: str, version: int, paid_before: Mapping[Key, int], paid_after: Mapping[Key, int],
                ref: Mapping[Key, str] | None = None) -> list[WalletTx]:
    """The adjustments that turn ``paid_before`` into ``paid_after`` (minor units per player);
    none for a player whose payout did not change. ``ref``: each player's debit in the round."""
    out = []
    for key in sorted(set(paid_before) | set(paid_after)):
        delta = paid_after.get(key, 0) - paid_before.get(key, 0)
        if delta:
            operator, player, currency = key
            tx = f"{round}:adj{version}:{operator}:{player}:{currency}"  # unique across operators and wallets
            out.append(WalletTx(tx=tx, ref=(ref or {}).get(key, tx), operator=operator, player=player,
                                currency=currency, amount=delta, round=round))
    return out
