"""The studio's systemd unit passes ``systemd-analyze verify`` without a warning, and is hardened
like the table's."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "systemd" / "croupier-studio.service"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="scripts/system-deps installs systemd")
def test_studio_unit_verifies_clean(tmp_path: Path) -> None:
    croupier = Path(sys.executable).parent / "croupier"
    text = UNIT.read_text()
    assert "ExecStart=/opt/croupier/venv/bin/croupier studio serve --config /etc/croupier/studio.toml" in text
    unit = tmp_path / UNIT.name
    unit.write_text(text.replace("/opt/croupier/venv/bin/croupier", str(croupier)))
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", unit.name], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and not (result.stdout + result.stderr).strip(), result.stdout + result.stderr


def test_studio_unit_is_hardened() -> None:
    keys = dict(line.split("=", 1) for line in UNIT.read_text().splitlines() if "=" in line and not line.startswith("#"))
    assert keys["User"] == "croupier-studio" and keys["NoNewPrivileges"] == "yes" and keys["ProtectSystem"] == "strict"
    assert keys["UMask"] == "0077" and keys["CapabilityBoundingSet"] == "" and int(keys["LimitNOFILE"]) >= 65536
