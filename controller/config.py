"""A table's configuration file (TOML), validated at start so a wrong file fails naming the key.

Every section forbids unknown keys. ``[rules]`` and ``[limits]`` are checked by the game's own
rules builder (the same one ``croupier house-edge --set`` uses), so a rule setting is spelled
one way everywhere. Relative paths (journal, serial link) are taken from the config file's
directory, so a config runs from any working directory.
"""

from __future__ import annotations

import difflib
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal, Self
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

from controller.games.base import GameRules, Limit, RulesConfigError
from controller.mqtt_config import Mqtt  # the [mqtt] section: broker, TLS, secrets


class ConfigError(ValueError):
    """The config file cannot run a table; the message names the file and the key."""


def iana_zone(value: str, what: str) -> str:
    """``value`` if it names an IANA time zone, else a ValueError that says what ``what`` needs."""
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name the file system refuses
        shown = value if len(value) <= 64 else value[:64] + "..."
        raise ValueError(f"{what}: {shown!r} is not an IANA time zone (e.g. \"Europe/Riga\")") from None
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableSection(_Strict):
    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,32}$")
    #: a game of the registry (controller/table/registry.py)
    game: str
    preset: str | None = None
    journal: Path
    #: cards burned out of every new shoe before its first round (journaled, checked like any card)
    burn_on_new_shoe: int = Field(0, ge=0, le=20)
    #: the currency amounts are shown in (ISO 4217 code); money is kept in its minor units
    currency: str = Field(default="EUR", pattern=r"^[A-Z]{3}$")
    #: digits of the minor unit (2: 1250 minor units are shown as 12.50)
    currency_digits: int = Field(default=2, ge=0, le=3)
    #: the table's local time zone (IANA), for the times its console shows; None: the table PC's
    time_zone: str | None = None
    #: the betting time in seconds: opening betting starts it and its end closes betting (0: the dealer closes)
    betting_s: int = Field(0, ge=0, le=600)
    #: the table takes remote bets from the studio (docs/studio.md): betting closes with its seal
    remote: bool = False
    #: how long a remote table waits for the studio's seal before it closes without it (its bets returned)
    seal_grace_s: int = Field(3, ge=1, le=60)
    #: a seated remote player's time per decision (docs/studio.md, "Seats"): its end applies the policy
    decision_s: int = Field(15, ge=3, le=120)
    #: at a decision's deadline or a lost connection: "refund" (coefficient 1) or "default" (the game's default decision)
    decision_policy: Literal["refund", "default"] = "refund"

    @field_validator("time_zone")
    @classmethod
    def _zone(cls, value: str | None) -> str | None:
        return None if value is None else iana_zone(value, "time_zone")

    @field_validator("game")
    @classmethod
    def _registered(cls, game: str) -> str:
        from controller.table import registry

        registry.game(game)  # ValueError naming the known games
        return game

    @model_validator(mode="after")
    def _burn_needs_a_shoe(self) -> Self:
        from controller.table import registry

        if self.burn_on_new_shoe and not registry.game(self.game).adapter.uses_shoe:
            raise ValueError(f"burn_on_new_shoe: a {self.game} table has no shoe to burn from")
        return self


class SimulatedShoe(_Strict):
    """A simulated shoe: shuffled from ``seed``, or ``stacked`` (exactly these cards, in order)."""

    seed: int = 1
    stacked: tuple[str, ...] | None = None
    #: cards before the cut card of a stacked shoe (None: no cut card)
    cut_after: int | None = Field(None, ge=1)
    #: serial transport: a stable symlink to the simulator's pty (like /dev/serial/by-id)
    link: Path | None = None


class ShoeDevice(_Strict):
    transport: Literal["simulated", "serial", "usb"] = "simulated"
    #: serial: the tty path or pyserial URL; simulated: "serial" (a pty) or "usb" (pyusb backend)
    port: str | None = None
    usb: str = "1209:0001"
    simulated: SimulatedShoe = SimulatedShoe()
    #: seconds before a missing card is declared lost
    gap_timeout: float = Field(6.0, gt=0)
    #: a device registry URL (docs/devices.md), e.g. "serial:///dev/ttyUSB0"; set, it wins over transport/port/usb
    url: str | None = None
    #: the shoe's serial number, checked at every HELLO (None: the first one seen is this table's)
    identity: str | None = None

    @model_validator(mode="after")
    def _addressed(self) -> Self:
        if self.url is not None:
            from drivers.registry import parse

            parse(self.url, "shoe")  # DeviceAddressError (a ValueError) naming what is known
        if self.transport == "serial" and not self.port:
            raise ValueError("a serial shoe needs port = \"/dev/ttyUSB0\" (or a pyserial URL)")
        if self.transport == "simulated" and self.port not in (None, "serial", "usb"):
            raise ValueError('a simulated shoe runs on port = "serial" (a pty) or "usb" (a pyusb backend)')
        return self


class SimulatedWheel(_Strict):
    """A simulated Cammegh SS2 on a pty; its pockets (37/38) follow the table's rules."""

    #: results from ``random.Random(seed)`` once ``results`` are used up
    seed: int = 1
    results: tuple[str, ...] = ()
    #: protocol time runs ``speed`` times faster (wheel and driver share one ScaledClock)
    speed: float = Field(1.0, gt=0)
    #: operating mode; the vendor's 1159 makes the wheel wait for the table's start (``*u 1``)
    mode: int = Field(1159, ge=0, le=4095)


class WheelDevice(_Strict):
    transport: Literal["simulated", "serial"] = "simulated"
    #: serial: the tty path or pyserial URL (``/dev/ttyUSB0``)
    port: str | None = None
    simulated: SimulatedWheel = SimulatedWheel()
    #: a device registry URL (docs/devices.md), e.g. "serial:///dev/ttyUSB1"; set, it wins over transport/port
    url: str | None = None
    #: the wheel's ``*V`` banner, checked after every (re)connect (None: the first one seen)
    identity: str | None = None

    @model_validator(mode="after")
    def _addressed(self) -> Self:
        if self.url is not None:
            from drivers.registry import parse

            parse(self.url, "wheel")  # DeviceAddressError (a ValueError) naming what is known
        if self.transport == "serial" and not self.port:
            raise ValueError('a serial wheel needs port = "/dev/ttyUSB0" (or a pyserial URL)')
        return self


class SpotsDevice(_Strict):
    """Bet-spot buttons over MQTT (docs/protocols.md §3); spot n is box n."""

    enabled: bool = False
    spots: int = Field(7, ge=1, le=999)
    #: mqtts://user@host:8883?cafile=... under the ``[mqtt]`` rules (docs/security.md); unset: the ``[mqtt]`` broker
    broker: str | None = None

    @model_validator(mode="after")
    def _broker_url(self) -> Self:
        if self.broker is not None:
            from drivers.mqtt.url import BrokerUrl

            BrokerUrl.parse(self.broker)  # ValueError naming what is wrong
        return self


class OtherDevice(_Strict):
    """Any registered device kind by its registry URL (docs/devices.md), ``[devices.<name>]``:
    opened with the game's devices, its events journaled under ``<name>``."""

    #: the device's registry URL, e.g. "serial:///dev/ttyUSB2" (the kind from the URL, or ``kind``)
    url: str
    #: the registered kind, where the URL does not say it (a serial line)
    kind: str | None = None
    enabled: bool = True

    @model_validator(mode="after")
    def _addressed(self) -> Self:
        from drivers.registry import parse

        parse(self.url, self.kind)  # DeviceAddressError (a ValueError) naming what is known
        return self


class Devices(_Strict):
    """``[devices.shoe]``, ``[devices.wheel]`` and ``[devices.spots]`` have keys of their own
    (simulators, broker); any other ``[devices.<name>]`` is an ``OtherDevice`` by URL."""

    shoe: ShoeDevice = ShoeDevice()
    wheel: WheelDevice = WheelDevice()
    spots: SpotsDevice = SpotsDevice()
    #: every other device, by the name its section gives it
    others: dict[str, OtherDevice] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _other_sections(cls, data: Any) -> Any:
        """``[devices.shuffler]`` (any name but the three above) goes into ``others``."""
        if not isinstance(data, dict):
            return data
        named = {"shoe", "wheel", "spots", "others"}
        others = {k: v for k, v in data.items() if k not in named}
        if not others:
            return data
        for name, section in others.items():
            if not isinstance(section, dict) or "url" not in section:
                raise ValueError(f"[devices.{name}]: not shoe, wheel or spots, so it needs url = \"...\" "
                                 f"(the registry URL of a registered device kind, docs/devices.md)")
        return {k: v for k, v in data.items() if k in named} | {"others": {**data.get("others", {}), **others}}


class ConsoleSection(_Strict):
    """The dealer console served by the table process (docs/console.md)."""

    enabled: bool = False
    host: str = "127.0.0.1"
    #: 0: any free port (the URL is printed at start)
    port: int = Field(default=8080, ge=0, le=65535)
    #: PEM certificate and key: the console is then served over HTTPS (docs/console.md)
    tls_cert: str | None = None
    tls_key: str | None = None

    @model_validator(mode="after")
    def _tls_pair(self) -> ConsoleSection:
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ValueError("give both tls_cert and tls_key, or neither")
        return self


class AccountSection(_Strict):
    """One console or dashboard account (docs/security.md): ``password_hash`` is an argon2 hash
    (``controller.auth.hash_password``), never a password."""

    role: Literal["dealer", "pit_boss"]
    password_hash: str = Field(pattern=r"^\$argon2")


class MetricsSection(_Strict):
    """The table's Prometheus endpoint (docs/deployment.md, "Metrics")."""

    enabled: bool = False
    host: str = "127.0.0.1"
    #: 0: any free port
    port: Annotated[int, Field(ge=0, le=65535)] = 9464


#: the shipped example configs (the demo and `studio simulate` start their tables from them)
SHIPPED_CONFIGS = Path(__file__).resolve().parent.parent / "config"

MONEY_ERROR = "money_minor_units"


def money_message(value: Any, currency: str = "EUR", digits: int = 2) -> str:
    """Why ``value`` is no amount of money, with an example in the table's own minor units."""
    unit = "cents" if digits == 2 else f"1/{10 ** digits} of a unit" if digits else "whole units"
    example = f"{500 * 10 ** digits // 100} for {5:.{digits}f} {currency}"
    return f"money is an integer number of minor units ({unit}), e.g. {example}; got {value!r}"


#: the journal key when no ``[journal] key_file`` is set (at least 32 bytes; docs/security.md)
KEY_ENV = "CROUPIER_JOURNAL_KEY"


def _key_from_env() -> str | None:
    import os

    return os.environ.get(KEY_ENV) or None


#: the simulated players' styles (controller/protection/styles.py)
PlayerStyle = Literal["flat", "random", "counter-1-8", "counter-1-12", "counter-cover", "wonger"]


class ProtectionSection(_Strict):
    """``[protection]`` (docs/protection.md): the advantage-play watch of a blackjack table, which
    flags a player to the pit (an alert) once the evidence passes ``alpha`` over ``min_rounds``;
    the wheel watch of a roulette table; the pace against its target; the two-source checks."""

    advantage_play: bool = True
    alpha: float = Field(1e-5, gt=0, le=0.05)
    min_rounds: int = Field(50, ge=10, le=100_000)
    #: the wheel watch (roulette): rotor band in rpm, spin rate, dealer signature
    wheel_watch: bool = True
    rotor_min_rpm: float = Field(10.0, ge=0, le=100)
    rotor_max_rpm: float = Field(40.0, gt=0, le=100)
    #: games per hour the wheel should spin (None: no spin-rate alert)
    spin_rate_target: int | None = Field(None, ge=1, le=100_000)
    spin_rate_window_s: int = Field(1800, ge=1, le=86_400)
    signature_alpha: float = Field(1e-4, gt=0, le=0.05)
    #: one dealer's results before the signature is tested (None: five per pocket)
    signature_min_spins: int | None = Field(None, ge=10, le=100_000)
    #: rounds per hour the table should deal (None: the game's default, docs/protection.md)
    pace_target: int | None = Field(None, ge=1, le=100_000)
    pace_window_s: int = Field(1800, ge=1, le=86_400)
    #: two-source checks: the mismatch rate per device or dealer that raises an alert
    mismatch_rate: float = Field(0.02, gt=0, le=1)
    mismatch_min_results: int = Field(50, ge=1, le=100_000)

    @model_validator(mode="after")
    def _rotor_band(self) -> Self:
        if self.rotor_min_rpm >= self.rotor_max_rpm:
            raise ValueError("rotor_min_rpm must be below rotor_max_rpm")
        return self


class JournalSection(_Strict):
    """The journal's key (docs/security.md, "The journal chain"): a file only the service user
    can read (mode 0600), or ``CROUPIER_JOURNAL_KEY``; never the journal itself."""

    key_file: Path | None = None


class TableConfig(_Strict):
    table: TableSection
    journal: JournalSection = JournalSection()
    rules: dict[str, Any] = {}
    limits: dict[str, Limit] = {}
    devices: Devices = Devices()
    mqtt: Mqtt = Mqtt()
    console: ConsoleSection = ConsoleSection()
    metrics: MetricsSection = MetricsSection()
    protection: ProtectionSection = ProtectionSection()
    #: ``[simulated_players]``: box number -> style of the simulated player there in ``--rounds``
    #: runs (docs/protection.md); none: three flat bettors
    simulated_players: dict[Annotated[int, Field(ge=1, le=99)], PlayerStyle] = {}
    #: ``[accounts.<name>]``: who may sign in to the console (and the pit dashboard)
    accounts: dict[Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{1,32}$")], AccountSection] = {}
    #: the directory relative paths are resolved against (set by ``load``)
    base: Path = Path(".")

    @model_validator(mode="before")
    @classmethod
    def _money_is_minor_units(cls, raw: Any) -> Any:
        """Limits are integers of minor units: ``"5.00"``, ``5.0`` or ``true`` would otherwise be
        coerced (``"5.00"`` to 5 cents) without a word."""
        if not isinstance(raw, dict) or not isinstance(raw.get("limits"), dict):
            return raw
        section = raw.get("table")
        table: dict[str, Any] = section if isinstance(section, dict) else {}
        currency = table.get("currency", "EUR")
        digits = table.get("currency_digits", 2)
        digits = digits if isinstance(digits, int) and not isinstance(digits, bool) and 0 <= digits <= 3 else 2
        for kind, limit in raw["limits"].items():
            if not isinstance(limit, dict):
                continue
            for bound, value in limit.items():
                if bound in ("min", "max") and (not isinstance(value, int) or isinstance(value, bool)):
                    raise PydanticCustomError(MONEY_ERROR, "{where}: {message}", {
                        "where": f"limits.{kind}.{bound}", "message": money_message(value, currency, digits)})
        return raw

    @model_validator(mode="after")
    def _spots_broker_secured(self) -> Self:
        """A device's own broker follows the ``[mqtt]`` policy (plaintext, anonymous, secrets)."""
        if self.devices.spots.broker is not None:
            self.mqtt.check(self.devices.spots.broker, "devices.spots.broker")
        return self

    def game_rules(self) -> GameRules:
        """The rule set: preset, then ``[rules]``, then ``[limits]`` over the preset's limits."""
        from controller.table import registry

        return registry.adapter_for(self.table.game).rules(self.table.preset, self.rules, self.limits)

    @property
    def journal_path(self) -> Path:
        p = self.table.journal
        return p if p.is_absolute() else self.base / p

    @property
    def key_path(self) -> Path | None:
        """Where the journal's key is kept: ``[journal] key_file``, else (no ``CROUPIER_JOURNAL_KEY``)
        ``<journal>.key`` beside the journal, which ``croupier init`` and ``run --new-journal`` make."""
        from controller.journal_keyed import default_key_path

        p = self.journal.key_file
        if p is None:
            return None if _key_from_env() else default_key_path(self.journal_path)
        return p if p.is_absolute() else self.base / p

    def journal_key(self) -> bytes | None:
        """The key the journal is keyed with: ``[journal] key_file``, else ``CROUPIER_JOURNAL_KEY``,
        else the key file beside the journal if there is one, else None (a journal from before
        keys). ConfigError when a key file is missing (named in the config), unreadable,
        readable by others than its owner, or the key is shorter than 32 bytes."""
        from controller.journal import KEY_BYTES

        path = self.key_path
        if path is not None:
            where = f"journal.key_file {path}" if self.journal.key_file is not None else f"the journal's key {path}"
            if self.journal.key_file is None and not path.exists():
                return None
            try:
                if path.stat().st_mode & 0o077:
                    raise ConfigError(f"{where}: readable by others; chmod 0600 it")
                key = path.read_bytes().strip()
            except FileNotFoundError:
                raise ConfigError(f"{where}: missing; a keyed journal needs the key it was made with "
                                  "(restore it from its backup)") from None
            except OSError as exc:
                raise ConfigError(f"{where}: {exc.strerror or exc}") from None
        else:
            raw = _key_from_env()
            if not raw:
                return None
            key, where = raw.strip().encode(), KEY_ENV
        if len(key) < KEY_BYTES:
            raise ConfigError(f"{where}: a journal key has at least {KEY_BYTES} bytes, this one {len(key)} "
                              "(e.g. python -c 'import secrets; print(secrets.token_hex(32))')")
        return key

    @property
    def shoe_link(self) -> Path | None:
        link = self.devices.shoe.simulated.link
        if link is None or link.is_absolute():
            return link
        return self.base / link


def _key(loc: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in loc)


def _suggestion(error: Any) -> str:
    """For a misspelt key, the key of that section it is closest to (`` (did you mean ...)``)."""
    if error["type"] != "extra_forbidden":
        return ""
    model: Any = TableConfig
    for part in error["loc"][:-1]:
        field = model.model_fields.get(part) if isinstance(part, str) else None
        annotation = field.annotation if field is not None else None
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return ""
        model = annotation
    close = difflib.get_close_matches(str(error["loc"][-1]), list(model.model_fields), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def load(path: str | Path) -> TableConfig:
    """Read and validate a table config; ConfigError naming the key on any problem."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text())
    except OSError as exc:
        raise ConfigError(f"{path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    if "base" in raw:
        raise ConfigError(f"{path}: base: extra inputs are not permitted")
    try:
        config = TableConfig.model_validate({**raw, "base": path.parent})
    except ValidationError as exc:
        msgs = "; ".join(e["msg"] if e["type"] == MONEY_ERROR else f"{_key(e['loc'])}: {e['msg']}{_suggestion(e)}"
                         for e in exc.errors())
        raise ConfigError(f"{path}: {msgs}") from None
    try:
        config.game_rules()
    except RulesConfigError as exc:
        raise ConfigError(f"{path}: rules: {exc}") from None
    return config
