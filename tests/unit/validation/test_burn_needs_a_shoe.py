"""A burn on a new shoe is refused for a game without a shoe, read from the game's adapter."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from controller.config import TableSection
from controller.table.registry import GAMES


@pytest.mark.parametrize("game", sorted(GAMES))
def test_burn_on_new_shoe_is_taken_only_where_the_game_deals_from_a_shoe(game: str) -> None:
    section = {"id": "T1", "game": game, "journal": "t.db", "burn_on_new_shoe": 1}
    if GAMES[game].adapter.uses_shoe:
        assert TableSection.model_validate(section).burn_on_new_shoe
    else:
        with pytest.raises(ValidationError, match=f"a {game} table has no shoe to burn from"):
            TableSection.model_validate(section)
