"""The receiver's memory of recent seqs, for duplicate suppression: a fixed window, so a flood
of new seqs costs the same per frame as the first (``docs/devices.md``, "Bounded state")."""

from __future__ import annotations

from collections import deque

from drivers.shoe import codec


class SeqWindow:
    """The last ``size`` seqs a shoe sent and what each carried."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._carried: dict[int, codec.Message] = {}  # recent seq -> what it carried
        self._order: deque[int] = deque()
        #: the newest seq seen (None: none since the last ``forget``)
        self.last: int | None = None

    def __len__(self) -> int:
        """Entries held (bounded by ``size``: what the receiver's bounds test measures)."""
        return max(len(self._carried), len(self._order))

    def get(self, seq: int) -> codec.Message | None:
        return self._carried.get(seq)

    def forget(self) -> None:
        """The shoe's seq counter restarted: earlier seqs say nothing about duplicates any more."""
        self._carried.clear()
        self._order.clear()
        self.last = None

    def remember(self, frame: codec.Frame) -> bool:
        """Keep ``frame``'s seq; True when seqs were skipped since the newest (frames missed:
        they may come again, only n decides)."""
        seq = frame.seq
        ahead = self.last is not None and (seq - self.last) % codec.SEQ_MOD < codec.SEQ_MOD // 2
        gap = ahead and self.last is not None and seq != codec.next_seq(self.last)
        if self.last is None or ahead:
            self.last = seq
        self._carried[seq] = frame.msg
        self._order.append(seq)
        while len(self._order) > self.size:
            self._carried.pop(self._order.popleft(), None)
        return gap
