"""The operators' TOML file, checked at start (typos named, secrets in files, never inline):

```toml
database = "postgresql://studio@db.floor/studio"
amqp = "amqps://studio@mq.floor:5671/"          # the feed's broker
api_host = "0.0.0.0"                            # the operators' reconciliation endpoint
api_port = 8471

[operators.casino-a]
wallet_url = "https://wallet.casino-a.example/croupier"   # POST <url>/debit, /credit, /cancel, /adjust
wallet_secret_file = "/etc/croupier/casino-a.wallet-secret"  # HMAC of wallet calls and of the API
feed_secret_file = "/etc/croupier/casino-a.feed-secret"      # MAC of feed messages
tables = ["rl-eu", "bj-1"]      # the tables it takes (empty: every table)
per_game = false                # true: one queue per game (croupier.casino-a.roulette, ...)
timeout_s = 2.0                 # one wallet call's deadline
```
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from controller.commands.parse import did_you_mean

NAME = r"^[A-Za-z0-9_.-]{1,32}$"
MIN_SECRET_BYTES = 32


class OperatorsConfigError(ValueError):
    """The file cannot run the operators' side; the message names the file and the key."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OperatorOptions(BaseModel):
    """How the studio deals with one operator's wallet and feed, whichever file names the operator
    (the operators' file here, or ``[studio.operators.<name>]`` of the studio's config)."""

    tables: list[str] = []
    per_game: bool = False
    timeout_s: float = Field(default=2.0, gt=0, le=30)
    #: how many times a debit is asked before it is given up and cancelled (within the betting time)
    debit_attempts: int = Field(default=2, ge=1, le=5)

    def takes(self, table: str) -> bool:
        return not self.tables or table in self.tables


class OperatorSettings(_Strict, OperatorOptions):
    wallet_url: str = Field(pattern=r"^https?://", max_length=512)
    wallet_secret_file: Path
    feed_secret_file: Path


class OperatorsFile(_Strict):
    database: str = Field(min_length=1)
    amqp: str = Field(default="amqp://guest:guest@127.0.0.1:5672/", pattern=r"^amqps?://")
    api_host: str = "127.0.0.1"
    api_port: int = Field(default=8471, ge=0, le=65535)
    operators: dict[str, OperatorSettings] = Field(default_factory=dict)


@dataclass(frozen=True)
class Operator:
    """One operator as the running code needs it: its id, settings and both secrets read."""

    id: str
    settings: OperatorSettings
    wallet_secret: bytes
    feed_secret: bytes


def read_secret(path: Path, what: str) -> bytes:
    try:
        secret = path.read_bytes().strip()
    except OSError as exc:
        raise OperatorsConfigError(f"{what}: cannot read {path}: {exc.strerror}") from None
    if len(secret) < MIN_SECRET_BYTES:
        raise OperatorsConfigError(f"{what}: {path} holds {len(secret)} bytes, a secret has at least {MIN_SECRET_BYTES}")
    return secret


def operators_of(config: OperatorsFile) -> dict[str, Operator]:
    out = {}
    for name, s in config.operators.items():
        if not re.fullmatch(NAME, name):
            raise OperatorsConfigError(f"operators.{name}: an operator id is 1-32 letters, digits, '_', '.', '-'")
        out[name] = Operator(name, s, read_secret(s.wallet_secret_file, f"operators.{name}.wallet_secret_file"),
                             read_secret(s.feed_secret_file, f"operators.{name}.feed_secret_file"))
    return out


def load(path: Path) -> tuple[OperatorsFile, dict[str, Operator]]:
    """The file read and checked; ``OperatorsConfigError`` with the file and the key otherwise."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise OperatorsConfigError(f"{path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise OperatorsConfigError(f"{path}: not TOML: {exc}") from None
    try:
        config = OperatorsFile.model_validate(raw)
    except ValidationError as exc:
        raise OperatorsConfigError(f"{path}: " + "; ".join(_explain(e) for e in exc.errors())) from None
    return config, operators_of(config)


def _explain(error: object) -> str:
    assert isinstance(error, dict)
    where = ".".join(str(p) for p in error.get("loc", ()))
    if error.get("type") == "extra_forbidden":
        known = list(OperatorsFile.model_fields) + list(OperatorSettings.model_fields)
        return f"{where}: unknown key{did_you_mean(error['loc'][-1], known)}"
    return f"{where}: {error.get('msg')}"
