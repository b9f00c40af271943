"""The deployment files: the systemd unit passes ``systemd-analyze verify`` without a warning,
the container's entrypoint parses, and the lock file pins every dependency with hashes."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "systemd" / "croupier-table@.service"
ANCHOR = ROOT / "deploy" / "systemd" / "croupier-anchor.service"


def _verify(unit: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["systemd-analyze", "verify", "--man=no", unit.name], cwd=unit.parent,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="scripts/system-deps installs systemd")
def test_table_unit_verifies_clean_with_its_command_in_place(tmp_path):
    croupier = Path(sys.executable).parent / "croupier"
    assert croupier.exists()
    text = UNIT.read_text()
    assert "ExecStart=/opt/croupier/venv/bin/croupier run --config /etc/croupier/%i.toml" in text
    instance = tmp_path / "croupier-table@bj-01.service"
    instance.write_text(text.replace("/opt/croupier/venv/bin/croupier", str(croupier)))
    result = _verify(instance)
    assert result.returncode == 0 and not (result.stdout + result.stderr).strip(), result.stdout + result.stderr
    # the check can fail: a misspelt key is reported
    broken = tmp_path / "croupier-table@bj-02.service"
    broken.write_text(instance.read_text().replace("ProtectSystem=strict", "ProtectSytem=strict"))
    assert "Unknown key" in (_verify(broken).stdout + _verify(broken).stderr)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="scripts/system-deps installs systemd")
def test_anchor_unit_verifies_clean_and_records_to_its_state_directory(tmp_path):
    croupier = Path(sys.executable).parent / "croupier"
    text = ANCHOR.read_text()
    assert "ExecStart=/opt/croupier/venv/bin/croupier anchor --broker ${ANCHOR_BROKER} --out /var/lib/croupier-anchor/" in text
    unit = tmp_path / ANCHOR.name
    unit.write_text(text.replace("/opt/croupier/venv/bin/croupier", str(croupier)))
    result = _verify(unit)
    assert result.returncode == 0 and not (result.stdout + result.stderr).strip(), result.stdout + result.stderr
    keys = dict(line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#"))
    assert keys["StateDirectory"] == "croupier-anchor" and keys["ProtectSystem"] == "strict"


def test_table_unit_is_hardened():
    keys = dict(line.split("=", 1) for line in UNIT.read_text().splitlines() if "=" in line and not line.startswith("#"))
    assert keys["User"] == "croupier" and keys["NoNewPrivileges"] == "yes" and keys["ProtectSystem"] == "strict"
    assert keys["StateDirectory"] == "croupier/%i" and keys["StateDirectoryMode"] == "0700"
    assert keys["UMask"] == "0077" and keys["CapabilityBoundingSet"] == ""


def test_table_unit_is_notify_with_a_watchdog_and_room_for_descriptors():
    """systemd knows when the table takes inputs and restarts one whose loop hangs
    (controller/sd_notify.py); idle connections cannot exhaust the default 1,024 descriptors."""
    keys = dict(line.split("=", 1) for line in UNIT.read_text().splitlines() if "=" in line and not line.startswith("#"))
    assert keys["Type"] == "notify" and keys["NotifyAccess"] == "main"
    assert keys["WatchdogSec"].removesuffix("s").isdigit() and int(keys["WatchdogSec"].removesuffix("s")) >= 10
    assert int(keys["LimitNOFILE"]) >= 65536
    assert keys["Restart"] == "on-failure"


def test_container_entrypoint_parses():
    entry = ROOT / "deploy" / "container" / "entrypoint.sh"
    assert subprocess.run(["bash", "-n", str(entry)], capture_output=True).returncode == 0


def test_lock_pins_every_dependency_with_hashes():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lock = (ROOT / "requirements.lock").read_text()
    pinned = {m.group(1).lower().replace("_", "-") for m in re.finditer(r"^([A-Za-z0-9_.-]+)==\S+ \\$", lock, re.M)}
    for requirement in project["dependencies"]:
        name = re.split(r"[<>=\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")
        assert name in pinned, f"{name} is not in requirements.lock: regenerate it (docs/deployment.md)"
    blocks = re.split(r"\n(?=[A-Za-z0-9])", lock.split("\n", 2)[2])
    assert all("--hash=sha256:" in block for block in blocks if "==" in block)
    assert "amqtt" not in pinned  # the demo broker stays off a table PC
