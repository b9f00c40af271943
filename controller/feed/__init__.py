"""The pit feed: the journal streamed to the pit boss over MQTT, and the pit boss's commands back.

One job per module: ``messages`` (topics and message shapes), ``ledger`` (running totals
derived from closed rounds), ``acks`` (which journal entries the broker has acknowledged),
``commands`` (validating what the pit sends), ``inbox`` (pit commands in: admitted, parsed,
handed on once), ``head`` (the journal's head out, the last run's checked), ``retained`` (the
coalesced snapshots waiting to go out), ``cursors`` (when the cursors are saved), ``stats`` (the
counters), ``feed`` (the tasks that tie them to a link).
"""

from controller.feed.commands import CommandKind, PitCommand, Refusal, parse_command
from controller.feed.feed import Feed, FeedStats
from controller.feed.ledger import Ledger, LedgerTotals
from controller.feed.messages import Topics

__all__ = [
    "CommandKind",
    "Feed",
    "FeedStats",
    "Ledger",
    "LedgerTotals",
    "PitCommand",
    "Refusal",
    "Topics",
    "parse_command",
]
