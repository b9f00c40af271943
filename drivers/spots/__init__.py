"""Bet-spot buttons over MQTT (PROTOCOLS.md section 3): codec, session, events."""

from drivers.spots.events import SpotOnline, SpotPress, SpotRefused
from drivers.spots.session import SpotsSession, SpotTracker

__all__ = ["SpotOnline", "SpotPress", "SpotRefused", "SpotTracker", "SpotsSession"]
