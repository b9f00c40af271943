"""A table's configuration file (TOML), validated at start so a wrong file fails naming the key.

Every section forbids unknown keys. ``[rules]`` and ``[limits]`` are checked by the game's own
rules builder (the same one ``croupier house-edge --set`` uses), so a rule setting is spelled
one way everywhere. Relative paths (journal, serial link) are taken from the config file's
directory, so a config runs from any working directory.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from controller.games.base import GameRules, Limit, RulesConfigError

GAMES = ("blackjack", "roulette", "three-card-blackjack", "catch-a-wave", "baccarat", "russian-poker")


class ConfigError(ValueError):
    """The config file cannot run a table; the message names the file and the key."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableSection(_Strict):
    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,32}$")
    game: Literal["blackjack", "roulette", "three-card-blackjack", "catch-a-wave", "baccarat", "russian-poker"]
    preset: str | None = None
    journal: Path
    #: cards burned out of every new shoe before its first round (journaled, checked like any card)
    burn_on_new_shoe: int = Field(0, ge=0, le=20)

    @model_validator(mode="after")
    def _burn_needs_a_shoe(self) -> Self:
        if self.burn_on_new_shoe and self.game == "roulette":
            raise ValueError("burn_on_new_shoe: a roulette table has no shoe to burn from")
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

    @model_validator(mode="after")
    def _addressed(self) -> Self:
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

    @model_validator(mode="after")
    def _addressed(self) -> Self:
        if self.transport == "serial" and not self.port:
            raise ValueError('a serial wheel needs port = "/dev/ttyUSB0" (or a pyserial URL)')
        return self


class SpotsDevice(_Strict):
    """Bet-spot buttons over MQTT (PROTOCOLS.md §3); spot n is box n."""

    enabled: bool = False
    spots: int = Field(7, ge=1, le=999)
    #: mqtt://user:pass@host:port or unix://user:pass@/path; unset: the ``[mqtt]`` broker
    broker: str | None = None

    @model_validator(mode="after")
    def _broker_url(self) -> Self:
        if self.broker is not None:
            from drivers.mqtt.url import BrokerUrl

            BrokerUrl.parse(self.broker)  # ValueError naming what is wrong
        return self


class Devices(_Strict):
    shoe: ShoeDevice = ShoeDevice()
    wheel: WheelDevice = WheelDevice()
    spots: SpotsDevice = SpotsDevice()


class Mqtt(_Strict):
    #: "embedded" (in-process demo broker), "none" (no pit feed), or mqtt://host:port
    broker: str = "embedded"


class TableConfig(_Strict):
    table: TableSection
    rules: dict[str, Any] = {}
    limits: dict[str, Limit] = {}
    devices: Devices = Devices()
    mqtt: Mqtt = Mqtt()
    #: the directory relative paths are resolved against (set by ``load``)
    base: Path = Path(".")

    def game_rules(self) -> GameRules:
        """The rule set: preset, then ``[rules]``, then ``[limits]`` over the preset's limits."""
        from controller.table.games import adapter_for

        return adapter_for(self.table.game).rules(self.table.preset, self.rules, self.limits)

    @property
    def journal_path(self) -> Path:
        p = self.table.journal
        return p if p.is_absolute() else self.base / p

    @property
    def shoe_link(self) -> Path | None:
        link = self.devices.shoe.simulated.link
        if link is None or link.is_absolute():
            return link
        return self.base / link


def _key(loc: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in loc)


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
        msgs = "; ".join(f"{_key(e['loc'])}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"{path}: {msgs}") from None
    try:
        config.game_rules()
    except RulesConfigError as exc:
        raise ConfigError(f"{path}: rules: {exc}") from None
    return config
