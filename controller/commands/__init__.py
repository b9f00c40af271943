"""The one command model (``models``) and how an input becomes one (``parse``)."""

from controller.commands.models import BY_NAME, DEALER, DEALER_NAMES, MODELS, PIT, PIT_NAMES, Command
from controller.commands.parse import PitCommand, explain, from_journal, parse_order, parse_pit

__all__ = ["BY_NAME", "DEALER", "DEALER_NAMES", "MODELS", "PIT", "PIT_NAMES", "Command", "PitCommand", "explain",
           "from_journal", "parse_order", "parse_pit"]
