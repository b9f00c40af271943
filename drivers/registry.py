"""One registry that builds any ``Device`` from a URL (``docs/devices.md``), after pyserial's
``serial_for_url`` and python-can's interface table.

Addresses::

    serial:///dev/ttyUSB0?baud=9600      a serial device (the kind, shoe or wheel, from the caller)
    /dev/ttyUSB0, socket://host:7000     a bare tty path, or any other pyserial URL, as serial
    usb://1209:0001                      the CSP/1 shoe on USB (VID:PID in hex)
    sim+pty://shoe?seed=1                the simulated shoe on a pseudo-terminal
    sim+usb://1209:0001                  the simulated shoe on the pyusb backend
    sim+mem://shoe?drop=0.01&split=0.1   the simulated shoe on an in-memory line that damages bytes
    sim+pty://wheel?pockets=37           the simulated wheel on a pseudo-terminal
    mqtt://host:1883/T1?spots=7          the bet spots of table T1 (also mqtts://, unix://)

Every serial address takes ``identity=`` (the device's serial number, checked after every
connect). A new device kind is one module with a builder plus one line in ``DEVICES`` (its URL
may use a scheme of its own: ``shuffler+tcp://host:7000`` gives the builder ``host:7000`` as
the target); a table opens it from ``[devices.<name>] url = "..."`` with no other change. The
builders are imported when first used, so a table that has no USB shoe never imports pyusb.
An unknown scheme, kind or parameter raises ``DeviceAddressError`` naming what is known.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import SplitResult, parse_qsl, urlsplit

from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.device import Device
from drivers.device_kit import EventSink
from drivers.errors import DeviceAddressError

#: (device kind, scheme) -> "module:builder"; the builder takes (DeviceAddress, BuildOptions)
DEVICES: dict[tuple[str, str], str] = {
    ("shoe", "serial"): "drivers.shoe.device:serial_shoe",
    ("shoe", "usb"): "drivers.shoe.device:usb_shoe",
    ("shoe", "sim+pty"): "simulators.devices:pty_shoe",
    ("shoe", "sim+usb"): "simulators.devices:usb_shoe",
    ("shoe", "sim+mem"): "simulators.devices:memory_shoe",
    ("wheel", "serial"): "drivers.wheel.device:serial_wheel",
    ("wheel", "sim+pty"): "simulators.devices:pty_wheel",
    ("spots", "mqtt"): "drivers.spots.device:mqtt_spots",
    ("spots", "mqtts"): "drivers.spots.device:mqtt_spots",
    ("spots", "unix"): "drivers.spots.device:mqtt_spots",
}

#: pyserial's own URL handlers: such an address is a serial line, passed to pyserial unchanged
PYSERIAL_SCHEMES = frozenset({"socket", "rfc2217", "loop", "spy", "alt", "hwgrep", "cp2110"})


@dataclass(frozen=True)
class DeviceAddress:
    """A parsed device URL: which kind of device, over what, and its query parameters."""

    url: str
    kind: str
    scheme: str
    #: the tty path or pyserial URL (serial), VID:PID (usb), the broker URL (mqtt), "" (sim)
    target: str
    params: Mapping[str, str] = field(default_factory=dict)

    def options(self, **defaults: Any) -> dict[str, Any]:
        """The query parameters, typed as their defaults; ``DeviceAddressError`` on an unknown
        one or a value of the wrong type (a parameter whose default is None is text)."""
        unknown = set(self.params) - set(defaults)
        if unknown:
            known = ", ".join(sorted(defaults)) or "none"
            raise DeviceAddressError(f"{self.url}: unknown parameter {sorted(unknown)[0]!r} (known: {known})")
        out: dict[str, Any] = dict(defaults)
        for key, text in self.params.items():
            default = defaults[key]
            try:
                if isinstance(default, bool):
                    if text not in ("0", "1", "true", "false"):
                        raise ValueError(text)
                    out[key] = text in ("1", "true")
                elif default is None:
                    out[key] = text
                else:
                    out[key] = type(default)(text)
            except ValueError:
                raise DeviceAddressError(f"{self.url}: {key}={text!r} is not a {type(default).__name__}") from None
        return out


@dataclass(frozen=True)
class BuildOptions:
    """What the caller gives every builder beside the address."""

    #: the device's name on the table (default: its kind)
    name: str
    sink: EventSink | None = None
    clock: Clock = SYSTEM_CLOCK
    #: kind-specific objects a URL cannot carry (a prebuilt simulator firmware, a session config)
    extras: Mapping[str, Any] = field(default_factory=dict)

    def extra(self, key: str, kind: type[Any] | tuple[type[Any], ...] = object) -> Any:
        value = self.extras.get(key)
        if value is not None and not isinstance(value, kind):
            raise TypeError(f"extra {key!r} must be {kind}, not {type(value).__name__}")
        return value


Builder = Callable[[DeviceAddress, BuildOptions], Device]


def kinds() -> list[str]:
    return sorted({kind for kind, _ in DEVICES})


def schemes() -> list[str]:
    return sorted({scheme for _, scheme in DEVICES} | PYSERIAL_SCHEMES)


def parse(url: str, kind: str | None = None) -> DeviceAddress:
    """``url`` (and the caller's ``kind`` where the URL does not say it) as a ``DeviceAddress``."""
    if kind is not None and kind not in kinds():
        raise DeviceAddressError(f"no device kind {kind!r}; known: {', '.join(kinds())}")
    if "://" not in url:
        if not url.startswith("/"):
            raise DeviceAddressError(f"{url!r} is not a device address; use a URL with one of: {', '.join(schemes())}")
        return _resolve(url, kind, Where("serial", url, {}))
    try:
        parts = urlsplit(url)
    except ValueError as exc:  # a bracketed host that is no IPv6 address: "serial://["
        raise DeviceAddressError(f"{url}: {exc}") from None
    scheme = parts.scheme.lower()
    return _resolve(url, kind, _where(url, parts, scheme, dict(parse_qsl(parts.query, keep_blank_values=True))))


@dataclass(frozen=True)
class Where:
    """What a URL says of its device: over what, where, its query, and its kind if it names one."""

    scheme: str
    target: str
    params: dict[str, str]
    named: str | None = None


def _where(url: str, parts: SplitResult, scheme: str, params: dict[str, str]) -> Where:
    """The URL's scheme read by its own rule: pyserial's handlers, a simulator, one of
    ``_SCHEMES`` or, last, a kind's own scheme (host and path are its target)."""
    if scheme in PYSERIAL_SCHEMES:
        return Where("serial", url, {})
    if scheme.startswith("sim+"):
        return _simulated(parts, scheme, params)
    read = _SCHEMES.get(scheme)
    if read is not None:
        return read(url, parts, scheme, params)
    if any(s == scheme for _, s in DEVICES):
        return Where(scheme, parts.netloc + parts.path, params)
    raise DeviceAddressError(f"{url}: unknown scheme {scheme!r}; known: {', '.join(schemes())}")


def _serial(url: str, parts: SplitResult, scheme: str, params: dict[str, str]) -> Where:
    if not parts.path:
        raise DeviceAddressError(f"{url}: no port path (serial:///dev/ttyUSB0)")
    return Where(scheme, parts.path, params)


def _simulated(parts: SplitResult, scheme: str, params: dict[str, str]) -> Where:
    """sim+pty://shoe names the kind (an unknown one is refused by name); sim+usb://1209:0001 the target."""
    if parts.netloc and ":" not in parts.netloc:
        return Where(scheme, parts.path.lstrip("/"), params, parts.netloc)
    return Where(scheme, parts.netloc, params)


def _broker(url: str, parts: SplitResult, scheme: str, params: dict[str, str]) -> Where:
    """A device reached through a broker: the whole URL is its target."""
    return Where(scheme, url, params)


#: schemes read by a rule of their own: (url, its parts, the scheme, the query) -> what it says
_SCHEMES: dict[str, Callable[[str, SplitResult, str, dict[str, str]], Where]] = {
    "serial": _serial,
    "usb": lambda url, parts, scheme, params: Where(scheme, parts.netloc, params),
    "mqtt": _broker,
    "mqtts": _broker,
    "unix": _broker,
}


def _resolve(url: str, kind: str | None, where: Where) -> DeviceAddress:
    kind = _named_kind(url, kind, where.named)
    candidates = sorted(k for k, s in DEVICES if s == where.scheme)
    if kind is None:
        if len(candidates) != 1:
            raise DeviceAddressError(f"{url}: say which device this is ({' or '.join(candidates)})")
        kind = candidates[0]
    if (kind, where.scheme) not in DEVICES:
        raise DeviceAddressError(f"{url}: a {kind} is not reached over {where.scheme}:// "
                                 f"(a {kind} takes: {', '.join(s for k, s in sorted(DEVICES) if k == kind)})")
    return DeviceAddress(url, kind, where.scheme, where.target, where.params)


def _named_kind(url: str, kind: str | None, named: str | None) -> str | None:
    """The kind the URL names, if it names one (it must agree with the caller's), else the caller's."""
    if named is None:
        return kind
    if named not in kinds():
        raise DeviceAddressError(f"{url}: no device kind {named!r}; known: {', '.join(kinds())}")
    if kind is not None and kind != named:
        raise DeviceAddressError(f"{url} is a {named}, not a {kind}")
    return named


def builder(address: DeviceAddress) -> Builder:
    module_name, _, attribute = DEVICES[(address.kind, address.scheme)].partition(":")
    return cast(Builder, getattr(importlib.import_module(module_name), attribute))


def build(url: str, kind: str | None = None, *, name: str | None = None, sink: EventSink | None = None,
          clock: Clock = SYSTEM_CLOCK, **extras: Any) -> Device:
    """The device at ``url``, built but not opened (``await device.open()`` next)."""
    address = parse(url, kind)
    return builder(address)(address, BuildOptions(name or address.kind, sink, clock, extras))


async def open_device(url: str, kind: str | None = None, *, name: str | None = None, sink: EventSink | None = None,
                      clock: Clock = SYSTEM_CLOCK, **extras: Any) -> Device:
    """``build`` then ``open``: ``DeviceUnavailable`` (``DeviceNotFound``, ``DeviceBusy``) when it
    cannot be opened, ``DeviceAddressError`` when the address names nothing known."""
    device = build(url, kind, name=name, sink=sink, clock=clock, **extras)
    await device.open()
    return device
