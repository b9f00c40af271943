"""Player ratings from the rounds actually dealt (docs/backoffice.md, "Player ratings"): per
player id (a seat's player card, or the id keyed with the bet), over a period.

Time played is the player's sessions added up: consecutive rounds at one table with no break
longer than ``SESSION_GAP`` make a session, from its first round's opening to its last round's
close. Theoretical win is each of the player's own bets times its kind's edge, over the rounds
the player actually played; no fixed hands-per-hour enters it.

An anonymous box is not a player: a bet with no player id, or with the name a box gets when
nobody keyed one (the console's ``seat 3``, a betting spot's ``spot-3``), is left out of the
ratings, else "seat 1" of two tables would be rated as one person. Its play is counted apart,
per table (``anonymous_play``).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any, Final

import psycopg

from controller.backoffice import edges as bet_edges
from controller.backoffice import skill
from controller.floor.gaming_day import Period

SESSION_GAP = timedelta(minutes=30)
#: a box's own name when no player id was keyed: none, the console's ``seat N``, a spot's ``spot-N``
ANONYMOUS: Final = r"^(seat [0-9]+|spot-[0-9]+)?$"

PLAYER_ROUNDS = """
SELECT b.player, l.table_id, l.round_id, l.status, l.game, coalesce(l.preset, t.preset), l.opened, l.closed,
       split_part(b.kind, ':', 1), sum(b.stake)::bigint, sum(b.payout)::bigint, count(*)
FROM (SELECT table_id, round_id, version, status, game, preset, opened, closed FROM rounds
      WHERE NOT superseded AND closed >= %(start)s AND closed < %(end)s
        AND (%(tables)s::text[] IS NULL OR table_id = ANY(%(tables)s))) l
JOIN bets b USING (table_id, round_id, version) LEFT JOIN floor_tables t USING (table_id)
WHERE b.player IS NOT NULL AND b.player !~ %(anonymous)s AND (%(player)s::text IS NULL OR b.player = %(player)s)
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
ORDER BY 1, 2, 7"""


BLACKJACK_HANDS = """
SELECT l.table_id, l.round_id, coalesce(l.preset, t.preset), l.outcome, b.player, b.box, b.hand, b.stake
FROM (SELECT table_id, round_id, version, preset, outcome FROM rounds
      WHERE NOT superseded AND closed >= %(start)s AND closed < %(end)s AND game = 'blackjack' AND status = 'settled'
        AND (%(tables)s::text[] IS NULL OR table_id = ANY(%(tables)s))) l
JOIN bets b USING (table_id, round_id, version) LEFT JOIN floor_tables t USING (table_id)
WHERE b.kind = 'main' AND b.player IS NOT NULL AND b.player !~ %(anonymous)s
  AND (%(player)s::text IS NULL OR b.player = %(player)s)
ORDER BY 1, 2, b.box, b.hand"""


def blackjack_skill(conn: psycopg.Connection[Any], params: dict[str, Any]) -> dict[str, skill.Skill]:
    """Each player's decisions against basic strategy over the period's settled blackjack rounds."""
    rated: dict[str, skill.Skill] = {}
    current: tuple[str, str] | None = None
    preset: str | None = None
    outcome: dict[str, Any] = {}
    bets: list[tuple[str, int, int, int]] = []
    for table_id, round_id, round_preset, round_outcome, pid, box, hand, stake in conn.execute(BLACKJACK_HANDS, params):
        if (table_id, round_id) != current:
            if bets:
                skill.rate_round(rated, preset, outcome, bets)
            current, preset, outcome, bets = (table_id, round_id), round_preset, round_outcome or {}, []
        bets.append((pid, box, hand, stake))
    if bets:
        skill.rate_round(rated, preset, outcome, bets)
    return rated


class _Player:
    def __init__(self) -> None:
        self.rounds: set[tuple[str, str]] = set()
        self.bets = 0
        self.drop = self.paid = 0
        self.theo = 0.0
        self.theo_unknown = 0
        self.tables: set[str] = set()
        self.games: set[str] = set()
        self.seconds = 0.0
        self._session: tuple[str, datetime, datetime] | None = None

    def play(self, table: str, opened: datetime, closed: datetime) -> None:
        s = self._session
        if s is not None and s[0] == table and opened - s[2] <= SESSION_GAP:
            self._session = (table, s[1], max(s[2], closed))
            return
        self.close_session()
        self._session = (table, opened, closed)

    def close_session(self) -> None:
        if self._session is not None:
            self.seconds += (self._session[2] - self._session[1]).total_seconds()
        self._session = None


def ratings(conn: psycopg.Connection[Any], period: Period, *, player: str | None = None,
            tables: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """By player id: time played, rounds, bets, average bet, drop, actual win, theoretical win, and
    for blackjack players their decisions against basic strategy (``blackjack``, else None)."""
    players: dict[str, _Player] = defaultdict(_Player)
    seen: set[tuple[str, str, str]] = set()
    params = {"start": period.start, "end": period.end, "player": player, "tables": tables, "anonymous": ANONYMOUS}
    for pid, table, rnd, status, game, preset, opened, closed, kind, stake, payout, count in conn.execute(PLAYER_ROUNDS, params):
        p = players[pid]
        if (pid, table, rnd) not in seen:
            seen.add((pid, table, rnd))
            p.rounds.add((table, rnd))
            p.play(table, opened, closed)
        p.tables.add(table)
        p.games.add(game)
        if status != "settled":
            continue  # a void round refunds: no drop, no win, no theo
        p.bets += count
        p.drop += stake
        p.paid += payout
        edge = bet_edges.bet_edges(game, preset).get(kind)
        if edge is None:
            p.theo_unknown += stake
        else:
            p.theo += stake * edge
    skills = blackjack_skill(conn, params)
    money = {t: (c, d) for t, c, d in conn.execute("SELECT table_id, currency, currency_digits FROM floor_tables")}
    out: dict[str, dict[str, Any]] = {}
    for pid, p in sorted(players.items()):
        currencies = {money.get(t, (None, None)) for t in p.tables}
        p.close_session()
        out[pid] = {
            "rounds": len(p.rounds), "bets": p.bets, "seconds_played": round(p.seconds),
            "average_bet": round(p.drop / p.bets) if p.bets else 0,
            "drop": p.drop, "paid": p.paid, "win": p.drop - p.paid, "theo_win": round(p.theo),
            "theo_unknown_drop": p.theo_unknown, "tables": sorted(p.tables), "games": sorted(p.games),
        }
        out[pid]["currency"], out[pid]["currency_digits"] = currencies.pop() if len(currencies) == 1 else (None, None)
        out[pid]["blackjack"] = skills[pid].as_json() if pid in skills else None
    return out


ANONYMOUS_PLAY = """
SELECT l.table_id, count(DISTINCT l.round_id), count(*), coalesce(sum(b.stake), 0)::bigint,
       coalesce(sum(b.payout), 0)::bigint, t.currency, t.currency_digits
FROM (SELECT table_id, round_id, version FROM rounds
      WHERE NOT superseded AND status = 'settled' AND closed >= %(start)s AND closed < %(end)s
        AND (%(tables)s::text[] IS NULL OR table_id = ANY(%(tables)s))) l
JOIN bets b USING (table_id, round_id, version) LEFT JOIN floor_tables t USING (table_id)
WHERE b.player IS NULL OR b.player ~ %(anonymous)s
GROUP BY l.table_id, t.currency, t.currency_digits ORDER BY 1"""


def anonymous_play(conn: psycopg.Connection[Any], period: Period, *,
                   tables: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """By table: the settled rounds with a bet on an anonymous box, those bets, their drop, the
    house's win on them (play that belongs to nobody's rating) and the table's currency."""
    params = {"start": period.start, "end": period.end, "tables": tables, "anonymous": ANONYMOUS}
    return {table: {"rounds": rounds, "bets": bets, "drop": drop, "win": drop - paid, "currency": currency,
                    "currency_digits": digits}
            for table, rounds, bets, drop, paid, currency, digits in conn.execute(ANONYMOUS_PLAY, params)}
