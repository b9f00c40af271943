"""The device registry: every documented address parses to the kind, scheme and target it names;
anything else is a ``DeviceAddressError`` that names what is known. And a table's config keys
become the URL docs/devices.md says they do."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.config import ConfigError, load
from controller.runtime.devices import shoe_url
from drivers import registry
from drivers.errors import DeviceAddressError, DeviceBusy, DeviceNotFound
from tests.support.configs import write_table_config


@pytest.mark.parametrize(("url", "kind", "expected"), [
    ("serial:///dev/ttyUSB0?baud=9600", "wheel", ("wheel", "serial", "/dev/ttyUSB0", {"baud": "9600"})),
    ("/dev/ttyUSB0", "shoe", ("shoe", "serial", "/dev/ttyUSB0", {})),
    ("socket://rig:7000", "shoe", ("shoe", "serial", "socket://rig:7000", {})),
    ("usb://1209:0001", None, ("shoe", "usb", "1209:0001", {})),
    ("sim+pty://shoe?seed=1", None, ("shoe", "sim+pty", "", {"seed": "1"})),
    ("sim+usb://1209:0001", None, ("shoe", "sim+usb", "1209:0001", {})),
    ("sim+mem://shoe?split=0.5", "shoe", ("shoe", "sim+mem", "", {"split": "0.5"})),
    ("sim+pty://wheel?pockets=37", None, ("wheel", "sim+pty", "", {"pockets": "37"})),
    ("mqtt://u:p@host:1883/T1?spots=7", None, ("spots", "mqtt", "mqtt://u:p@host:1883/T1?spots=7", {"spots": "7"})),
])
def test_documented_addresses(url: str, kind: str | None, expected: tuple[object, ...]) -> None:
    address = registry.parse(url, kind)
    assert (address.kind, address.scheme, address.target, dict(address.params)) == expected


@pytest.mark.parametrize(("url", "kind", "message"), [
    ("ftp://host/x", None, "unknown scheme 'ftp'; known: .*serial.*sim\\+pty.*usb"),
    ("serial:///dev/ttyUSB0", None, "say which device this is \\(shoe or wheel\\)"),
    ("usb://1209:0001", "wheel", "a wheel is not reached over usb:// \\(a wheel takes: serial, sim\\+pty\\)"),
    ("sim+pty://toaster", None, "no device kind 'toaster'; known: shoe, spots, wheel"),
    ("sim+pty://shoe", "wheel", "is a shoe, not a wheel"),
    ("ttyUSB0", "shoe", "is not a device address"),
    ("serial:///dev/ttyUSB0", "dice", "no device kind 'dice'"),
    ("serial://[", "shoe", "^serial://\\[: Invalid IPv6 URL"),
    ("sim+pty://[shoe]/", None, "^sim\\+pty://\\[shoe\\]/: .*not appear to be an IPv4 or IPv6 address"),
])
def test_addresses_that_name_nothing(url: str, kind: str | None, message: str) -> None:
    with pytest.raises(DeviceAddressError, match=message):
        registry.parse(url, kind)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=40) | st.builds(lambda scheme, rest: f"{scheme}://{rest}",
                                         st.sampled_from(registry.schemes()), st.text(max_size=30)),
       st.sampled_from([None, *registry.kinds()]))
def test_any_text_is_an_address_or_a_refusal_naming_it(url: str, kind: str | None) -> None:
    """A config or a command line may hold anything: it is read, or refused as an address."""
    try:
        address = registry.parse(url, kind)
    except DeviceAddressError as refused:
        assert str(refused)
    else:
        assert address.url == url and (kind is None or address.kind == kind)


def test_parameters_are_checked_by_the_builder() -> None:
    with pytest.raises(DeviceAddressError, match="unknown parameter 'sed' \\(known: decks, identity, link, seed, serial\\)"):
        registry.build("sim+pty://shoe?sed=1")
    with pytest.raises(DeviceAddressError, match="baud='fast' is not a int"):
        registry.build("serial:///dev/ttyUSB0?baud=fast", "shoe")
    with pytest.raises(DeviceAddressError, match="expected VID:PID"):
        registry.build("usb://1209")


def test_every_registry_line_names_a_builder() -> None:
    for (kind, scheme), target in registry.DEVICES.items():
        address = registry.DeviceAddress(f"{scheme}://x", kind, scheme, "", {})
        assert callable(registry.builder(address)), target


def _config(tmp_path: Path, shoe: str) -> Path:
    return write_table_config(tmp_path, name="t.toml", journal="t.journal", limits={}, devices={"shoe": shoe})


@pytest.mark.parametrize(("keys", "url"), [
    ('transport = "serial"\nport = "/dev/ttyUSB0"', "serial:///dev/ttyUSB0"),
    ('transport = "serial"\nport = "socket://rig:7000"', "socket://rig:7000"),
    ('transport = "usb"\nusb = "1209:00ff"', "usb://1209:00ff"),
    ('transport = "simulated"\nport = "usb"', "sim+usb://1209:0001"),
    ('transport = "simulated"', "sim+pty://shoe"),
    ('url = "serial:///dev/ttyS1?baud=57600"', "serial:///dev/ttyS1?baud=57600"),
])
def test_config_keys_become_a_registry_url(tmp_path: Path, keys: str, url: str) -> None:
    assert shoe_url(load(_config(tmp_path, keys))) == url


def test_a_bad_device_url_fails_when_the_config_loads(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="devices.shoe.*unknown scheme 'ftp'"):
        load(_config(tmp_path, 'url = "ftp://x"'))


# --------------------------------------------------------------------------- serial devices, every kind
@pytest.mark.parametrize("kind", ["shoe", "wheel"])
async def test_a_missing_port_is_device_not_found_in_operator_words(kind: str) -> None:
    for address in ("serial:///dev/ttyCROUPIER404", "/dev/ttyCROUPIER404"):
        with pytest.raises(DeviceNotFound, match=r"^cannot open /dev/ttyCROUPIER404: no such device"):
            await registry.open_device(address, kind)


@pytest.mark.parametrize("kind", ["shoe", "wheel"])
async def test_a_port_is_opened_once(kind: str) -> None:
    first = registry.build(f"sim+pty://{kind}", kind)
    await first.open()
    try:
        path = first.simulator.path  # type: ignore[attr-defined]
        with pytest.raises(DeviceBusy, match=f"cannot open {path}: another process holds the port"):
            await registry.open_device(f"serial://{path}", kind)
    finally:
        await first.close()


def test_a_config_section_for_another_device_needs_its_url(tmp_path) -> None:
    """``[devices.<name>]`` beyond the table's own three is a device by URL; a section without
    one (a typo of ``shoe``) is refused naming the section, and a URL naming no kind too."""
    from controller.config import load
    from tests.integration.table.conftest import write_config

    path = write_config(tmp_path, stacked=None)
    base = path.read_text()
    path.write_text(base + '\n[devices.sheo]\ntransport = "simulated"\n')
    with pytest.raises(Exception, match=r"\[devices.sheo\]: not shoe, wheel or spots, so it needs url"):
        load(path)
    path.write_text(base + '\n[devices.shuffler]\nurl = "ftp://rig"\n')
    with pytest.raises(Exception, match="unknown scheme 'ftp'"):
        load(path)
    path.write_text(base + '\n[devices.counter]\nurl = "sim+pty://wheel"\nenabled = false\n')
    assert load(path).devices.others["counter"].enabled is False
