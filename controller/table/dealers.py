"""Who deals: the dealer signs in and out (journaled commands), the pit sees the name and every
round record carries the dealer who opened it, so statistics go per dealer shift (docs/pit.md)."""

from __future__ import annotations

from dataclasses import dataclass

from controller.table.refusal import Refusal


@dataclass(slots=True)
class DealerDesk:
    #: who signed in to deal (``sign_in``); the dealer id is checked by the ``SignIn`` model
    dealer: str | None = None

    def sign_in(self, dealer: str) -> str:
        """The alert's message."""
        before, self.dealer = self.dealer, dealer
        return f"dealer {dealer} signed in" + (f" (after {before})" if before else "")

    def sign_out(self) -> tuple[str, str]:
        """(who signed out, the alert's message)."""
        if self.dealer is None:
            raise Refusal("table.sign_out.nobody", "no dealer is signed in")
        before, self.dealer = self.dealer, None
        return before, f"dealer {before} signed out"
