"""What one shoe's session has counted: frames, refusals, lost cards (``ShoeSession.stats``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SessionStats:
    frames: int = 0
    bad_frames: int = 0
    duplicates: int = 0
    seq_gaps: int = 0
    seq_reuses: int = 0
    naks_sent: int = 0
    lost_cards: int = 0
    connects: int = 0
    retransmissions: int = 0
    refused_frames: int = 0  # frames not applied: beyond the bounds, or from a wrong shoe
