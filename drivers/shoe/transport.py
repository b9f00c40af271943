"""The transport interface the CSP/1 session drives (serial or USB): ``drivers.transport``'s,
under the names the shoe's modules have always imported."""

from __future__ import annotations

from drivers.transport import Transport, TransportClosed

__all__ = ["Transport", "TransportClosed"]
