"""Who deals: the dealer signs in and out (journaled commands), the pit sees the name and every
round record carries the dealer who opened it, so statistics go per dealer shift (docs/pit.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.table.holds import INFO
from controller.table.refusal import Refusal

if TYPE_CHECKING:
    from controller.table.core import TableCore


def sign_in(core: TableCore, dealer: str) -> None:
    """``dealer`` is a checked dealer id (the ``SignIn`` model)."""
    before, core.dealer = core.dealer, dealer
    core.changed()
    core.alert(INFO, "table.dealer", f"dealer {dealer} signed in" + (f" (after {before})" if before else ""),
               dealer=dealer)


def sign_out(core: TableCore) -> None:
    if core.dealer is None:
        raise Refusal("table.sign_out.nobody", "no dealer is signed in")
    before, core.dealer = core.dealer, None
    core.changed()
    core.alert(INFO, "table.dealer", f"dealer {before} signed out", dealer=before)
