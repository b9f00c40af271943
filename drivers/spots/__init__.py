"""Bet-spot buttons over MQTT (docs/protocols.md, "Bet spots"): codec, session, events."""

from drivers.spots.events import SpotOnline, SpotPress, SpotRefused
from drivers.spots.session import SpotsSession, SpotTracker

__all__ = ["SpotOnline", "SpotPress", "SpotRefused", "SpotTracker", "SpotsSession"]
