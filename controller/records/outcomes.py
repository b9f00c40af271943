"""Each game's outcome as the round record carries it: the engine's typed outcome
(controller/games/<game>/outcome.py, or what the game's adapter records) with what the table adds
to every outcome, the cards burned in the round and, in a void record, the void's summary.

A game brings its own: its declaration names its outcome model (``Game(outcome=...)``,
controller/table/game.py) and the game registry installs the registered games here
(``install``), so the records package finds the models without importing the table. A record of
a game not registered in this process (another floor's, a newer table's) keeps its outcome as
JSON (``OtherOutcome``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Annotated

from pydantic import ConfigDict, Field, Strict, create_model

from controller.games.outcome import Outcome
from controller.records.limits import MAX_BETS, MAX_MESSAGE
from controller.records.wire import Total, Wire

__all__ = ["OtherOutcome", "VoidSummary", "install", "record_outcome", "registered"]

BetIndex = Annotated[int, Strict(), Field(ge=0, lt=MAX_BETS)]


class VoidSummary(Wire):
    """What a void did (``outcome.void`` of a void record): the indexes into ``bets`` of the bets
    returned and of those that stand (settled before the void), and their money."""

    reason: str = Field(max_length=MAX_MESSAGE, description="why the round was void, as the dealer or pit gave it")
    returned: list[BetIndex] = Field(max_length=MAX_BETS, description="the bets whose stake was returned")
    stands: list[BetIndex] = Field(max_length=MAX_BETS, description="the bets settled before the void, standing")
    returned_total: Total = Field(description="the stakes returned")
    stands_payout_total: Total = Field(description="what the standing bets paid")


class OtherOutcome(Outcome):
    """The outcome of a game this process has not registered, kept as it came."""

    model_config = ConfigDict(frozen=True, extra="allow")


def _none_installed() -> Mapping[str, type[Outcome]]:
    raise LookupError("no game registry installed: a reader of round records imports controller.table.registry, "
                      "or every record would read as a game not registered here")


_source: Callable[[], Mapping[str, type[Outcome]]] = _none_installed


def install(source: Callable[[], Mapping[str, type[Outcome]]]) -> None:
    """Where the registered games' outcome models are read from (the game registry, asked each
    time: a test that swaps the registry sees its games)."""
    global _source
    _source = source


def registered() -> Mapping[str, type[Outcome]]:
    """Game name -> its engine's (or adapter's) outcome model, as the registry has them now."""
    return _source()


@cache
def record_outcome(model: type[Outcome]) -> type[Outcome]:
    """``model`` with the table's additions: ``burned`` (cards burned in the round) and ``void``
    (a void record's summary; a game whose engine has a ``void`` of its own keeps its text there
    in a settled record)."""
    name = model.__name__.removesuffix("Outcome") + "RoundOutcome"
    made: type[Outcome] = create_model(
        name, __base__=model, __module__=__name__,
        burned=(tuple[str, ...], Field((), description="cards burned in the round")),
        void=(VoidSummary | str | None, Field(None, description="a void record: what the void returned and what "
                                                                "stood; null for a settled round")),
    )
    return made
