"""What a shoe not proven yet on this link (no ``HELLO`` since it came up) sent: acknowledged
and kept, never applied, until its ``HELLO`` vouches for it (``drivers.shoe.session``).

Kept frames outlive the link they came on. They were acknowledged, so the shoe no longer holds
them: a link that drops before the ``HELLO`` (an adapter bouncing as it is plugged in, opened
for a moment) must not take them along, or the card is gone from both ends. The next link's
``HELLO`` vouches for them as for its own."""

from __future__ import annotations

from drivers.shoe import codec

Kept = codec.Card | codec.NoRead | codec.Cut


class KeptFrames:
    """The cards and cut card an unproven shoe sent, at most ``limit``, and its last count."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.frames: list[Kept] = []
        self.count: int | None = None  # the count in the unproven shoe's last STATUS
        self.shoe_id: str | None = None  # and the shoe id it gave with it
        self.asked = False  # a RESET asked this link's shoe for HELLO
        self.on_this_link = 0  # frames kept since the link came up (the rest came on earlier ones)

    def __len__(self) -> int:
        """Frames kept (bounded by ``limit``)."""
        return len(self.frames)

    def reset(self) -> None:
        """A new link: nothing asked, no count yet; what earlier links sent is still kept."""
        self.count = None
        self.asked = False
        self.on_this_link = 0

    @property
    def vouched_unasked(self) -> bool:
        """A ``HELLO`` nobody asked for vouches for what is kept only if nothing came on this
        link before it: said as the shoe came up, it is the link's first word. Said later, a
        shoe swapped in on the same line may be saying it about another shoe's cards."""
        return self.on_this_link == 0

    def keep(self, msg: codec.Message) -> bool:
        """Keep a card or cut card (a STATUS gives the count); False beyond the bound, where the
        frame is left unacknowledged for the shoe to keep."""
        if isinstance(msg, codec.Status):
            self.count, self.shoe_id = msg.n, msg.shoe_id
        if isinstance(msg, (codec.Card, codec.NoRead, codec.Cut)) and msg not in self.frames:
            if len(self.frames) >= self.limit:
                return False
            self.frames.append(msg)
            self.on_this_link += 1
        return True

    def settled(self, delivered_n: int | None, journaled: tuple[str, int] | None = None) -> bool:
        """The shoe's STATUS count is covered by the cards known on this link, or by those the
        host journaled of this very shoe (``journaled``: its shoe id and last count, from before
        this process): a RESET (which clears the shoe's resend queue) loses none of them."""
        if self.count is None:
            return False
        counts = [0] + [m.n for m in self.frames if not isinstance(m, codec.Cut)]
        if delivered_n is not None:
            counts.append(delivered_n)
        if journaled is not None and journaled[0] == self.shoe_id:
            counts.append(journaled[1])
        return self.count <= max(counts)

    def take(self) -> list[Kept]:
        """Everything kept, in the order it came; nothing is kept after."""
        kept, self.frames = self.frames, []
        return kept
