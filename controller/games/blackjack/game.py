"""Blackjack: what the game brings to the house, declared once for the registry
(controller/table/registry.py; docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from fractions import Fraction

from controller.analysis.side_bets import side_bet_edges
from controller.games.blackjack.adapter import BlackjackAdapter
from controller.games.blackjack.analysis import house_edge
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import BlackjackRules, blackjack_rules
from controller.table.game import Game


def side_bet_edges_of(preset: str) -> dict[str, float]:
    """Each side bet's exact edge under ``preset``'s paytables (ValueError for an unknown preset)."""
    return {kind: float(Fraction(figures["house_edge_exact"]))
            for kind, figures in side_bet_edges(blackjack_rules(preset)).items()}


GAME = Game("blackjack", BlackjackRound, BlackjackRules, BlackjackAdapter(), house_edge, side_edges=side_bet_edges_of)

