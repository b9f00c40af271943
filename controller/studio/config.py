"""The studio's TOML config, checked at start like a table's (typos named, secrets never inline):

```toml
[studio]
database = "postgresql://studio@db.floor/studio"   # or $CROUPIER_STUDIO_DATABASE_URL
amqp = "amqps://studio@mq.floor:5671/"             # the operators' feed (docs/operators.md)
metrics_port = 9470          # the operators' figures for Prometheus, on metrics_host (127.0.0.1)
host = "0.0.0.0"
port = 8470
max_connections = 5000
per_client = 64              # connections from one address
join_s = 10                  # a connection that has not joined by then is closed
idle_s = 120                 # a connection silent this long is closed
message_bytes = 4096         # a player's message at most
rate = 5.0                   # messages a second per connection (burst: burst)
burst = 20.0

[studio.tables.rl-eu]        # the tables the studio takes remote bets for, with their rules
game = "roulette"
preset = "european"
limits = { straight = { min = 100, max = 10000 } }

[studio.operators.casino-a]  # who may sign launch tokens: one key per operator
algorithm = "HS256"          # HS256 (secret_file) or RS256 / ES256 (public_key_file)
secret_file = "/etc/croupier/casino-a.jwt-secret"
issuer = "casino-a"
audience = "croupier-studio"
wallet_url = "https://wallet.casino-a.example/croupier"   # its seamless wallet and feed (docs/operators.md);
wallet_secret_file = "/etc/croupier/casino-a.wallet-secret"  # without: the house wallet
feed_secret_file = "/etc/croupier/casino-a.feed-secret"

[mqtt]                       # the studio's own broker account, same policy as a table's
broker = "mqtts://studio@broker.floor:8883?cafile=/etc/croupier/ca.pem"
password_file = "/etc/croupier/studio-mqtt.secret"
```
"""

from __future__ import annotations

import difflib
import os
import tomllib
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from controller.games.base import GameRules, Limit, RulesConfigError
from controller.mqtt_config import Mqtt
from controller.studio.operators.settings import Operator, OperatorOptions, OperatorsConfigError, OperatorSettings, read_secret

DATABASE_ENV = "CROUPIER_STUDIO_DATABASE_URL"
NAME = r"^[A-Za-z0-9_.-]{1,32}$"


class StudioConfigError(ValueError):
    """The config cannot run the studio; the message names the file and the key."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableSection(_Strict):
    """A table the studio serves: its game and rules, as the table's own config has them."""

    game: str
    preset: str | None = None
    rules: dict[str, Any] = {}
    limits: dict[str, Limit] = {}

    def game_rules(self) -> GameRules:
        """The table's rule set (preset, ``rules``, ``limits``), built by the game's own adapter."""
        from controller.table.registry import adapter_for

        return adapter_for(self.game).rules(self.preset, self.rules, self.limits)


class OperatorSection(_Strict, OperatorOptions):
    """An operator whose launch tokens the studio believes, and how they are signed; with a
    ``wallet_url``, its seamless wallet and its feed queue too (docs/operators.md). Without one,
    its players' money is in the studio's own house wallet (the tests' and simple set-ups)."""

    algorithm: Literal["HS256", "RS256", "ES256"]
    #: HS256: a file holding the shared secret (at least 32 bytes, readable by its owner only)
    secret_file: Path | None = None
    #: RS256 / ES256: the operator's public key (PEM)
    public_key_file: Path | None = None
    issuer: str = Field(min_length=1, max_length=128)
    audience: str = Field(default="croupier-studio", min_length=1, max_length=128)
    wallet_url: str | None = Field(default=None, pattern=r"^https?://", max_length=512)
    wallet_secret_file: Path | None = None
    feed_secret_file: Path | None = None

    @model_validator(mode="after")
    def _one_key(self) -> Self:
        if self.wallet_url is not None and (self.wallet_secret_file is None or self.feed_secret_file is None):
            raise ValueError("wallet_url takes wallet_secret_file and feed_secret_file")
        if self.algorithm == "HS256" and (self.secret_file is None or self.public_key_file is not None):
            raise ValueError("HS256 takes secret_file (and no public_key_file)")
        if self.algorithm != "HS256" and (self.public_key_file is None or self.secret_file is not None):
            raise ValueError(f"{self.algorithm} takes public_key_file (and no secret_file)")
        return self

    def key(self, base: Path) -> str:
        """The verification key, read now (StudioConfigError naming the file when it cannot be)."""
        path = self.secret_file or self.public_key_file
        assert path is not None  # _one_key
        path = path if path.is_absolute() else base / path
        try:
            if self.secret_file is not None and path.stat().st_mode & 0o077:
                raise StudioConfigError(f"secret_file {path}: readable by others; chmod 0600 it")
            text = path.read_text().strip()
        except OSError as exc:
            raise StudioConfigError(f"{path}: {exc.strerror or exc}") from None
        if self.secret_file is not None and len(text.encode()) < 32:
            raise StudioConfigError(f"secret_file {path}: an HS256 secret has at least 32 bytes")
        return text

    def wallet_operator(self, name: str, base: Path) -> Operator | None:
        """The operator's wallet and feed as the operators' code runs them (secrets read now);
        None when it has no ``wallet_url`` (the house wallet keeps its players' money)."""
        if self.wallet_url is None or self.wallet_secret_file is None or self.feed_secret_file is None:
            return None
        wallet_secret, feed_secret = (p if p.is_absolute() else base / p
                                      for p in (self.wallet_secret_file, self.feed_secret_file))
        settings = OperatorSettings(wallet_url=self.wallet_url, wallet_secret_file=wallet_secret,
                                    feed_secret_file=feed_secret,
                                    **self.model_dump(include=set(OperatorOptions.model_fields)))
        try:
            return Operator(name, settings, read_secret(wallet_secret, f"studio.operators.{name}.wallet_secret_file"),
                            read_secret(feed_secret, f"studio.operators.{name}.feed_secret_file"))
        except OperatorsConfigError as exc:
            raise StudioConfigError(str(exc)) from None


class StudioSection(_Strict):
    database: str | None = None
    #: the operators' feed broker (RabbitMQ, ``amqp://`` or ``amqps://``); none: no feed is published
    #: (events are still written to the outbox, for replay and the operators' endpoint)
    amqp: str | None = Field(default=None, pattern=r"^amqps?://")
    #: the operators' wallet and feed figures for Prometheus (croupier_operator_*): a port serves
    #: them at ``http://<metrics_host>:<metrics_port>/metrics`` (none: not served; 0: any free port)
    metrics_host: str = "127.0.0.1"
    metrics_port: int | None = Field(default=None, ge=0, le=65535)
    #: the studio's MQTT client id: stable, so the broker keeps its session (and the round records
    #: published while it was away); one per studio process
    client_id: str = Field(default="croupier-studio", min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")
    host: str = "127.0.0.1"
    port: int = Field(default=8470, ge=0, le=65535)
    max_connections: int = Field(default=5000, ge=1, le=1_000_000)
    #: connections from one address at most (an operator's game server may carry many players)
    per_client: int = Field(default=64, ge=1, le=1_000_000)
    #: seconds a new connection has to join before it is closed
    join_s: float = Field(default=10.0, gt=0, le=600)
    idle_s: float = Field(default=120.0, gt=0, le=86_400)
    message_bytes: int = Field(default=4096, ge=256, le=65_536)
    rate: float = Field(default=5.0, gt=0, le=1000)
    burst: float = Field(default=20.0, ge=1, le=10_000)
    tables: dict[str, TableSection] = Field(min_length=1)
    operators: dict[str, OperatorSection] = Field(min_length=1)

    @model_validator(mode="after")
    def _names(self) -> Self:
        import re

        for what, names in (("tables", self.tables), ("operators", self.operators)):
            for name in names:
                if not re.fullmatch(NAME, name):
                    raise ValueError(f"{what}.{name}: a name is 1 to 32 of A-Z a-z 0-9 _ . -")
        return self


class StudioConfig(_Strict):
    studio: StudioSection
    mqtt: Mqtt = Mqtt()
    #: the directory relative paths are resolved against (set by ``load``)
    base: Path = Path(".")

    def database_url(self, given: str | None = None) -> str:
        url = given or self.studio.database or os.environ.get(DATABASE_ENV)
        if not url:
            raise StudioConfigError(f"no database: give [studio] database, --database or ${DATABASE_ENV}")
        return url

    def wallet_operators(self) -> dict[str, Operator]:
        """The operators with a wallet of their own (``wallet_url``), secrets read."""
        found = {name: op.wallet_operator(name, self.base) for name, op in self.studio.operators.items()}
        return {name: op for name, op in found.items() if op is not None}

    def keys(self) -> dict[str, str]:
        """Every operator's verification key, by operator."""
        return {name: op.key(self.base) for name, op in self.studio.operators.items()}


def _suggestion(error: Any) -> str:
    """For a misspelt key, the closest key of its section (`` (did you mean ...)``)."""
    if error["type"] != "extra_forbidden":
        return ""
    model: Any = StudioConfig
    parts = list(error["loc"][:-1])
    while parts:
        field = model.model_fields.get(parts.pop(0))
        annotation = field.annotation if field is not None else None
        if getattr(annotation, "__origin__", None) is dict:  # a named section: skip its name
            annotation = annotation.__args__[1]  # type: ignore[union-attr]
            if parts:
                parts.pop(0)
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return ""
        model = annotation
    close = difflib.get_close_matches(str(error["loc"][-1]), list(model.model_fields), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def load(path: str | Path) -> StudioConfig:
    """Read and validate a studio config: rules built, operator keys read (StudioConfigError naming the key)."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text())
    except OSError as exc:
        raise StudioConfigError(f"{path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise StudioConfigError(f"{path}: not valid TOML: {exc}") from None
    if "base" in raw:
        raise StudioConfigError(f"{path}: base: extra inputs are not permitted")
    try:
        config = StudioConfig.model_validate({**raw, "base": path.parent})
    except ValidationError as exc:
        msgs = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}{_suggestion(e)}" for e in exc.errors())
        raise StudioConfigError(f"{path}: {msgs}") from None
    for name, table in config.studio.tables.items():
        try:
            table.game_rules()
        except (RulesConfigError, ValueError) as exc:
            raise StudioConfigError(f"{path}: studio.tables.{name}: {exc}") from None
    try:
        config.keys()
        config.wallet_operators()
    except StudioConfigError as exc:
        raise StudioConfigError(f"{path}: {exc}") from None
    return config
