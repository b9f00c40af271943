"""The pit dashboard's TOML config (docs/pit.md): broker, listen address, sessions, accounts.

```toml
[pit]
host = "127.0.0.1"
port = 8600
session_ttl = 28800                              # seconds a sign-in lasts
tls_cert = "/etc/croupier/pit.pem"               # optional: serve over HTTPS (with tls_key)
tls_key = "/etc/croupier/pit.key"
currency = "EUR"                                 # money of a table whose state names none
currency_digits = 2

[mqtt]                                           # the same section, and policy, as a table's
broker = "mqtts://pit@broker.floor:8883?cafile=/etc/croupier/ca.pem"   # the dashboard's own account
password_file = "/etc/croupier/pit-mqtt.secret"  # or CROUPIER_MQTT_PASSWORD in the environment

[metrics]                                        # Prometheus endpoint (docs/pit.md, "Metrics")
enabled = false
host = "127.0.0.1"
port = 9465

[accounts.anna]
role = "pit_boss"                                # or "dealer" (sees the floor, sends no command)
password_hash = "$argon2id$v=19$..."             # croupier hash-password
```
A typo fails at start naming the key; a config never holds a password, only its argon2 hash
(and, for a lab with ``insecure = true``, the broker's).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from controller.auth import Account, Accounts, Role
from controller.config import MetricsSection
from controller.mqtt_config import BrokerPolicyError, Mqtt, floor_broker_url


class PitConfigError(ValueError):
    pass


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PitSection(_Strict):
    host: str = "127.0.0.1"
    port: int = Field(default=8600, ge=0, le=65535)
    session_ttl: float = Field(default=8 * 3600.0, gt=0)
    client_id: str = Field(default="croupier-pit", min_length=1, max_length=64)
    #: PEM certificate and key: the dashboard is then served over HTTPS
    tls_cert: str | None = None
    tls_key: str | None = None
    #: money of a table whose state names no currency
    currency: str = Field(default="EUR", pattern=r"^[A-Z]{3}$")
    currency_digits: int = Field(default=2, ge=0, le=4)

    @model_validator(mode="after")
    def _tls_pair(self) -> PitSection:
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ValueError("give both tls_cert and tls_key, or neither")
        return self
    #: the back office's database (docs/backoffice.md): history, day reports and exports from it
    backoffice: str | None = Field(default=None, pattern=r"^postgres(ql)?://")


class PitMetricsSection(MetricsSection):
    """The table's ``[metrics]`` section, on the port after the table's: both fit on one host."""

    port: int = Field(default=9465, ge=0, le=65535)


class AccountEntry(_Strict):
    role: Role
    password_hash: str = Field(pattern=r"^\$argon2")


class PitConfig(_Strict):
    pit: PitSection = PitSection()
    mqtt: Mqtt = Mqtt()
    metrics: PitMetricsSection = PitMetricsSection()
    accounts: dict[str, AccountEntry] = {}

    def broker_url(self, broker: str | None = None, insecure: bool = False) -> str:
        """The URL to connect with (password from the environment or the secret file): ``broker``
        (``--broker``) or ``[mqtt] broker``, under the ``[mqtt]`` policy. PitConfigError when
        there is none or the policy refuses it."""
        try:
            return floor_broker_url(self.mqtt, broker, insecure)
        except BrokerPolicyError as exc:
            raise PitConfigError(str(exc)) from None

    def make_accounts(self) -> Accounts:
        accounts = {name: Account(name, a.role, a.password_hash) for name, a in self.accounts.items()}
        return Accounts(accounts, ttl=self.pit.session_ttl)

    def server_options(self) -> dict[str, Any]:
        """``PitServer`` keywords from ``[pit]``: TLS and the fallback currency."""
        tls = (self.pit.tls_cert, self.pit.tls_key) if self.pit.tls_cert and self.pit.tls_key else None
        return {"tls": tls, "currency": (self.pit.currency, self.pit.currency_digits)}

    def metrics_at(self) -> tuple[str, int] | None:
        """Where to serve metrics, or None when ``[metrics]`` is not enabled."""
        return (self.metrics.host, self.metrics.port) if self.metrics.enabled else None

    def serve_metrics(self, address: str) -> None:
        """Enable ``[metrics]`` at ``address`` (``--metrics``): ``PORT`` or ``HOST:PORT``."""
        host, _, port = address.rpartition(":")
        try:
            section = PitMetricsSection(enabled=True, host=host or self.metrics.host, port=int(port))
        except (ValueError, ValidationError):
            raise PitConfigError(f"--metrics: PORT or HOST:PORT with a port 0-65535, not {address!r}") from None
        self.metrics = section


def parse(data: dict[str, Any], where: str = "config") -> PitConfig:
    try:
        return PitConfig.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {str(e['msg']).removeprefix('Value error, ')}" for e in exc.errors()[:5]
        )
        raise PitConfigError(f"{where}: {problems}") from None


def load(path: str | Path) -> PitConfig:
    try:
        data = tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PitConfigError(f"{path}: {exc}") from None
    return parse(data, str(path))
