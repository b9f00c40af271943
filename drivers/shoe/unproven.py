"""What a shoe not proven yet on this link (no ``HELLO`` since it came up) sent: acknowledged
and kept, never applied, until its ``HELLO`` vouches for it (``drivers.shoe.session``)."""

from __future__ import annotations

from drivers.shoe import codec

Kept = codec.Card | codec.NoRead | codec.Cut


class KeptFrames:
    """The cards and cut card an unproven shoe sent, at most ``limit``, and its last count."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.frames: list[Kept] = []
        self.count: int | None = None  # the count in the unproven shoe's last STATUS
        self.asked = False  # a RESET asked this link's shoe for HELLO

    def __len__(self) -> int:
        """Frames kept (bounded by ``limit``)."""
        return len(self.frames)

    def reset(self) -> None:
        """A new link: nothing kept, nothing asked."""
        self.frames.clear()
        self.count = None
        self.asked = False

    def keep(self, msg: codec.Message) -> bool:
        """Keep a card or cut card (a STATUS gives the count); False beyond the bound, where the
        frame is left unacknowledged for the shoe to keep."""
        if isinstance(msg, codec.Status):
            self.count = msg.n
        if isinstance(msg, (codec.Card, codec.NoRead, codec.Cut)) and msg not in self.frames:
            if len(self.frames) >= self.limit:
                return False
            self.frames.append(msg)
        return True

    def settled(self, delivered_n: int | None) -> bool:
        """The shoe's STATUS count is covered by the cards known on this link: a RESET (which
        clears the shoe's resend queue) loses none of them."""
        if self.count is None:
            return False
        counts = [0] + [m.n for m in self.frames if not isinstance(m, codec.Cut)]
        if delivered_n is not None:
            counts.append(delivered_n)
        return self.count <= max(counts)

    def take(self) -> list[Kept]:
        """Everything kept, in the order it came; nothing is kept after."""
        kept, self.frames = self.frames, []
        return kept
