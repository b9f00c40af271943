"""One record contract (docs/protocols.md §4): the closed round with its bets, corrections and
each game's typed outcome, the alert, the table's state and betting leaves, the table's offer
(what it takes now) and each input's outcome, and the feed's other messages, as frozen pydantic
models with one set of limits (``limits``). The table builds these records, the journal stores
them, the feed publishes them; the pit, the back office, protection and the studio read them
through these models; docs/schemas/feed-*.json are generated from them
(scripts/export_schemas.py)."""

from controller.records.alert import AlertMessage
from controller.records.feed import FEED_LEAVES, EventMessage, LedgerMessage, PromptMessage, feed_type, parse
from controller.records.offer import Constraints, Offer, OutcomeMessage, Refused, Take
from controller.records.outcomes import OtherOutcome, VoidSummary
from controller.records.round import (
                                      Bet,
                                      CorrectedBet,
                                      Correction,
                                      JournalProof,
                                      JournalRow,
                                      RemoteRound,
                                      RemoteSettled,
                                      RoundMessage,
                                      RoundRecord,
                                      adapter,
                                      parse_message,
                                      parse_record,
                                      round_type,
)
from controller.records.state import BettingMessage, StateMessage
from controller.records.wire import Envelope, undeclared

__all__ = ["FEED_LEAVES", "AlertMessage", "Bet", "BettingMessage", "Constraints", "CorrectedBet", "Correction",
           "Envelope", "EventMessage", "JournalProof", "JournalRow", "LedgerMessage", "Offer", "OtherOutcome",
           "OutcomeMessage", "PromptMessage", "Refused", "RemoteRound", "RemoteSettled", "RoundMessage",
           "RoundRecord", "StateMessage", "Take", "VoidSummary", "adapter", "feed_type", "parse", "parse_message",
           "parse_record", "round_type", "undeclared"]
