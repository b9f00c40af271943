"""Launch tokens: the JWT an operator signs for one player's session, checked by PyJWT.

The issuer (``iss``) names the operator; its key and algorithm are the config's, never the
token's own header. ``exp``, ``nbf``, ``aud`` and ``iss`` are checked, and each ``jti`` is
stored until its token expires, so a token is good for one join only (a replay is refused).
Claims: ``sub`` the player's id, ``name`` the name shown, ``currency``, optional ``limits``
(``max_bet``, ``max_round``: the operator's limits on this player, minor units).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import jwt
from psycopg_pool import AsyncConnectionPool
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from controller.studio.book import Player
from controller.studio.config import OperatorSection

MAX_TOKEN_BYTES = 4096
#: clock skew allowed between the operator and the studio (seconds)
LEEWAY_S = 5


class TokenRefused(ValueError):
    """``reason``: token_invalid, token_expired, token_replayed (stable, for the client)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


class PlayerLimits(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    max_bet: StrictInt | None = Field(None, gt=0)
    max_round: StrictInt | None = Field(None, gt=0)


class Claims(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    sub: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.@:-]+$")
    name: str = Field(min_length=1, max_length=64)
    currency: str = Field(pattern=r"^[A-Z]{3}$")
    jti: str = Field(min_length=8, max_length=128)
    exp: int
    limits: PlayerLimits = PlayerLimits()


class Tokens:
    def __init__(self, pool: AsyncConnectionPool[Any], operators: dict[str, OperatorSection],
                 keys: dict[str, str]) -> None:
        self.pool = pool
        self.by_issuer = {op.issuer: (name, op, keys[name]) for name, op in operators.items()}

    async def join(self, token: str) -> Player:
        """The player the token names, its ``jti`` spent; ``TokenRefused`` otherwise."""
        if len(token.encode()) > MAX_TOKEN_BYTES or not re.fullmatch(r"[A-Za-z0-9_\-.]+", token):
            raise TokenRefused("token_invalid", "not a launch token")
        try:
            issuer = jwt.decode(token, options={"verify_signature": False}).get("iss")
        except jwt.InvalidTokenError:
            raise TokenRefused("token_invalid", "not a launch token") from None
        known = self.by_issuer.get(issuer) if isinstance(issuer, str) else None
        if known is None:
            raise TokenRefused("token_invalid", "the token's issuer is not an operator of this studio")
        operator, section, key = known
        try:
            raw = jwt.decode(token, key, algorithms=[section.algorithm], audience=section.audience,
                             issuer=section.issuer, leeway=LEEWAY_S,
                             options={"require": ["exp", "iss", "aud", "sub", "jti"]})
            claims = Claims.model_validate(raw)
        except jwt.ExpiredSignatureError:
            raise TokenRefused("token_expired", "the launch token has expired: ask the operator for a new one") from None
        except jwt.ImmatureSignatureError:
            raise TokenRefused("token_invalid", "the launch token is not valid yet") from None
        except jwt.InvalidTokenError as exc:
            raise TokenRefused("token_invalid", f"the launch token is refused: {exc}") from None
        except ValidationError as exc:
            first = exc.errors()[0]
            raise TokenRefused("token_invalid", f"the launch token's {'.'.join(map(str, first['loc']))}: "
                                                f"{first['msg']}") from None
        async with self.pool.connection() as conn:
            cur = await conn.execute("INSERT INTO studio_tokens (operator, jti, expires) VALUES (%s, %s, %s) "
                                     "ON CONFLICT DO NOTHING", (operator, claims.jti,
                                                                datetime.fromtimestamp(claims.exp, UTC)))
            if cur.rowcount != 1:
                raise TokenRefused("token_replayed", "this launch token was used already: ask the operator for a new one")
            await conn.execute("DELETE FROM studio_tokens WHERE expires < now() - interval '1 day'")
        return Player(operator, claims.sub, claims.name, claims.currency, claims.limits.max_bet,
                      claims.limits.max_round, token=token)
