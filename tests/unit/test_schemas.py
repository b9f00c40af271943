"""docs/schemas/*.json are the pydantic models' own JSON Schemas: a model changed without
re-exporting (``python scripts/export_schemas.py``) fails here, naming the stale file."""

from __future__ import annotations

import importlib.util
import json
import re
import typing
from pathlib import Path
from types import ModuleType

import pytest

from controller.feed.commands import CommandKind

ROOT = Path(__file__).resolve().parents[2]


def exporter() -> ModuleType:
    spec = importlib.util.spec_from_file_location("export_schemas", ROOT / "scripts" / "export_schemas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_schemas_match_the_models() -> None:
    stale = exporter().stale(ROOT / "docs" / "schemas")
    assert not stale, f"out of date, run: .venv/bin/python scripts/export_schemas.py ({', '.join(stale)})"


def test_a_drifted_missing_or_stray_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    export = exporter()
    assert export.main(["--out", str(tmp_path)]) == 0
    assert export.main(["--check", "--out", str(tmp_path)]) == 0
    press = tmp_path / "spot-press.json"
    edited = json.loads(press.read_text())
    del edited["properties"]["amount"]  # as if the model had gained a field since the export
    press.write_text(json.dumps(edited, indent=2) + "\n")
    (tmp_path / "pit-command.json").unlink()
    (tmp_path / "old-message.json").write_text("{}\n")
    assert export.main(["--check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert all(name in err for name in ("spot-press.json", "pit-command.json", "old-message.json"))


def load(stem: str) -> dict[str, typing.Any]:
    data: dict[str, typing.Any] = json.loads((ROOT / "docs" / "schemas" / f"{stem}.json").read_text())
    return data


def test_the_schemas_say_what_the_protocol_says() -> None:
    press = load("spot-press")
    assert press["additionalProperties"] is False and set(press["required"]) == {"v", "device", "seq", "button"}
    device = re.compile(press["properties"]["device"]["pattern"])
    assert device.search("spot-3") and not device.search("spot-3x") and not device.search("xspot-3")  # anchored
    command = load("pit-command")
    assert command["properties"]["command"]["enum"] == list(typing.get_args(CommandKind))
    assert "sender" in command["required"]
    events = load("shoe-events")
    assert {"card", "noread", "cut", "hello", "online", "offline", "refused"} <= set(events["discriminator"]["mapping"])
