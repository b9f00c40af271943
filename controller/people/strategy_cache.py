"""The simulated players' blackjack strategy, cached on disk beside the journal.

Computing basic strategy for a rule set takes about 2 s of exact expected values; a table with
simulated players would spend them before it opens at every start. The decisions are a few
hundred rows, so the first start writes them to ``strategy-<digest>.json`` in the journal's
directory and later starts read them back. The digest covers the rules the strategy depends on
and the strategy code itself, so changed rules or code compute afresh. A cache file that
cannot be read is ignored (and rewritten), never trusted as code: it is JSON.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

from controller.games.base import GameRules
from controller.games.blackjack import strategy as strategy_module
from controller.games.blackjack.rules import BlackjackRules
from controller.games.blackjack.strategy import BasicStrategy

log = logging.getLogger(__name__)


def cache_path(rules: BlackjackRules, directory: Path) -> Path:
    digest = hashlib.sha256(repr(BasicStrategy.cache_key(rules)).encode())
    for source in sorted(Path(strategy_module.__file__).parent.glob("strategy*.py")):
        digest.update(source.read_bytes())
    return directory / f"strategy-{digest.hexdigest()[:20]}.json"


def warm(rules: GameRules, directory: Path) -> bool:
    """Make ``BasicStrategy.for_rules(rules)`` instant: from the cache file, or computed once and
    saved. True when the cache was used. Not a blackjack rule set: nothing to do."""
    if not isinstance(rules, BlackjackRules):
        return False
    path = cache_path(rules, directory)
    try:
        rows = json.loads(path.read_text())
        BasicStrategy.remember(rules, BasicStrategy.from_table(rules, rows))
        return True
    except FileNotFoundError:
        pass
    except (OSError, ValueError, TypeError, AssertionError) as exc:
        log.warning("strategy cache %s unreadable (%s): computing it again", path, exc)
    table = BasicStrategy.for_rules(rules).decision_table()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(table, separators=(",", ":")))
        tmp.replace(path)
    except OSError as exc:
        log.warning("strategy cache %s not written: %s", path, exc)
    return False
