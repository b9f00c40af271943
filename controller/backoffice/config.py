"""The back office's TOML config (docs/backoffice.md):

```toml
[backoffice]
database = "postgresql://croupier@db.floor/floor"   # or --database, or CROUPIER_DATABASE_URL
client_id = "croupier-backoffice"                   # stable: the broker keeps this session
gaming_day_starts = "06:00"
timezone = "Europe/Riga"
batch_max = 500                                     # rows per transaction at most
queue_limit = 10000                                 # messages held in memory at most

[backoffice.shifts]                                 # named periods of the gaming day, by start
A = "06:00"
B = "14:00"
C = "22:00"

[backoffice.pits]                                   # which tables make a pit (reports by pit)
north = ["bj1", "bj2", "rl1"]

[mqtt]                                              # the same section, and policy, as a table's
broker = "mqtts://backoffice@broker.floor:8883?cafile=/etc/croupier/ca.pem"
password_file = "/etc/croupier/backoffice-mqtt.secret"

[metrics]
enabled = true
port = 9466

[tables.bj1]                                        # optional, per table
key_file = "/etc/croupier/keys/bj1.journal.key"     # the table's [journal] key: corrections need its MACs
unbacked_corrections = false                        # true: an older table's corrections (no journal rows), alerted
```
The database password, if any, comes from libpq's own places (``PGPASSWORD``, ``~/.pgpass``),
never this file. A key file is read as the table reads its own (0600, at least 32 bytes).
"""

from __future__ import annotations

import os
import re
import tomllib
from datetime import time
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from controller.backoffice.provenance import Trust
from controller.config import MetricsSection, iana_zone
from controller.journal import KEY_BYTES
from controller.mqtt_config import BrokerPolicyError, Mqtt, floor_broker_url

DATABASE_ENV = "CROUPIER_DATABASE_URL"
CLOCK = re.compile(r"([01]\d|2[0-3]):([0-5]\d)")


class BackofficeConfigError(ValueError):
    pass


def clock_time(value: str, key: str) -> time:
    match = CLOCK.fullmatch(value)
    if not match:
        raise ValueError(f"{key}: a time of day as HH:MM (e.g. \"06:00\"), not {value!r}")
    return time(int(match[1]), int(match[2]))


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BackofficeSection(_Strict):
    database: str | None = None
    client_id: str = Field(default="croupier-backoffice", min_length=1, max_length=64)
    gaming_day_starts: str = "06:00"
    timezone: str = "UTC"
    shifts: dict[str, str] = {}
    pits: dict[str, list[str]] = {}
    batch_max: int = Field(default=500, ge=1, le=100_000)
    queue_limit: int = Field(default=10_000, ge=10, le=1_000_000)
    #: a day's hold this many standard deviations from the baseline is flagged
    z_flag: float = Field(default=3.0, gt=0)

    @field_validator("gaming_day_starts")
    @classmethod
    def _day_start(cls, value: str) -> str:
        clock_time(value, "gaming_day_starts")
        return value

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        return iana_zone(value, "timezone")

    @field_validator("shifts")
    @classmethod
    def _shifts(cls, value: dict[str, str]) -> dict[str, str]:
        starts = [clock_time(v, f"shifts.{k}") for k, v in value.items()]
        if len(set(starts)) != len(starts):
            raise ValueError("shifts: two shifts start at the same time")
        return value

    @model_validator(mode="after")
    def _pits_disjoint(self) -> BackofficeSection:
        seen: dict[str, str] = {}
        for pit, tables in self.pits.items():
            for table in tables:
                if table in seen:
                    raise ValueError(f"pits: table {table!r} is in both {seen[table]!r} and {pit!r}")
                seen[table] = pit
        return self


class BackofficeMetrics(MetricsSection):
    port: int = Field(default=9466, ge=0, le=65535)


class TableSection(_Strict):
    #: the table's journal key ([journal] key_file on the table): a corrected round version
    #: from this table is taken only with valid MACs (docs/backoffice.md, "Corrections")
    key_file: Path | None = None
    #: a corrected version carrying no journal rows (a table whose feed predates them) is taken,
    #: each one alerted; one that carries rows is still checked
    unbacked_corrections: bool = False


class BackofficeConfig(_Strict):
    backoffice: BackofficeSection = BackofficeSection()
    mqtt: Mqtt = Mqtt()
    metrics: BackofficeMetrics = BackofficeMetrics()
    tables: dict[Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,32}$")], TableSection] = {}

    def trust(self) -> dict[str, Trust]:
        """What is configured of each table (its journal key read); ``BackofficeConfigError`` for
        a key file that is unreadable, readable by others than its owner, or too short."""
        return {table: Trust(_key(table, section.key_file), section.unbacked_corrections)
                for table, section in self.tables.items()}

    def database_url(self, given: str | None = None) -> str:
        """``--database``, else ``[backoffice] database``, else ``$CROUPIER_DATABASE_URL``."""
        url = given or self.backoffice.database or os.environ.get(DATABASE_ENV)
        if not url:
            raise BackofficeConfigError(f"no database: give --database URL, [backoffice] database or ${DATABASE_ENV}")
        if not url.startswith(("postgresql://", "postgres://")):
            raise BackofficeConfigError("database: a postgresql:// URL (e.g. postgresql://croupier@db/floor)")
        return url

    def broker_url(self, broker: str | None = None, insecure: bool = False) -> str:
        """As the pit dashboard's: ``--broker`` or ``[mqtt] broker``, under the ``[mqtt]`` policy."""
        try:
            return floor_broker_url(self.mqtt, broker, insecure)
        except BrokerPolicyError as exc:
            raise BackofficeConfigError(str(exc)) from None

    def pit_of(self, table: str) -> str | None:
        for pit, tables in self.backoffice.pits.items():
            if table in tables:
                return pit
        return None


def _key(table: str, path: Path | None) -> bytes | None:
    """A table's journal key from its file (read as the table reads its own)."""
    if path is None:
        return None
    where = f"tables.{table}.key_file {path}"
    try:
        if path.stat().st_mode & 0o077:
            raise BackofficeConfigError(f"{where}: readable by others; chmod 0600 it")
        key = path.read_bytes().strip()
    except OSError as exc:
        raise BackofficeConfigError(f"{where}: {exc.strerror or exc}") from None
    if len(key) < KEY_BYTES:
        raise BackofficeConfigError(f"{where}: a journal key has at least {KEY_BYTES} bytes")
    return key


def parse(data: dict[str, Any], where: str = "config") -> BackofficeConfig:
    try:
        return BackofficeConfig.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {str(e['msg']).removeprefix('Value error, ')}" for e in exc.errors()[:5])
        raise BackofficeConfigError(f"{where}: {problems}") from None


def load(path: str | Path | None) -> BackofficeConfig:
    """The config at ``path``; None: every default (a database and broker from the command line)."""
    if path is None:
        return BackofficeConfig()
    try:
        data = tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise BackofficeConfigError(f"{path}: {exc}") from None
    return parse(data, str(path))
