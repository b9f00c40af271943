"""``croupier diagnose --config F`` (the table runtime's diagnostics dump, docs/deployment.md): live
from a running table over its socket beside the journal (devices with their link state, the
feed's link and backlog, the open round and hold), from the config and the journal once it is
stopped, and never a secret."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.config import load
from controller.runtime.diagnostics import diagnostics_socket, read_live
from tests.fixtures.mosquitto import free_port
from tests.integration.table.conftest import running_table, write_config

SECRET = "s3cret-broker-pass"


def diagnose(config: Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["diagnose", "--config", str(config)])
    return result.exit_code, result.output


async def test_a_running_table_tells_its_parts_and_a_stopped_one_its_journal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROUPIER_MQTT_PASSWORD", SECRET)
    port = free_port()  # nothing listens: the feed's link keeps trying, and says why
    path = write_config(tmp_path, stacked=None, mqtt={"broker": f"mqtt://diag@127.0.0.1:{port}", "insecure": True})
    config = load(path)
    with open(tmp_path / "out.txt", "w") as out:
        async with running_table(config, out) as loop:
            await loop.until(lambda core: core.health.online("shoe"), timeout=20)
            loop.command("open_round", "test-dealer")
            await loop.until(lambda core: core.engine is not None, timeout=10)
            await loop.settled()
            code, text = await asyncio.to_thread(diagnose, path)
            assert code == 0, text
            live = json.loads(text)
            assert live["source"] == "live"
            shoe = live["devices"]["shoe"]
            assert shoe["online"] is True and shoe["link"]["state"] == "connected" and shoe["link"]["connects"] >= 1
            assert shoe["url"]  # the simulator's line
            feed = live["feed"]
            assert feed["state"] in ("connecting", "waiting") and feed["last_error"] and feed["failures"] >= 1
            assert feed["broker"] == f"mqtt://diag:***@127.0.0.1:{port}"
            assert feed["backlog"] >= 1  # nothing has reached a broker
            assert live["table"]["round"] == loop.core.round_id is not None
            assert live["table"]["hold"] is None
            assert live["journal"]["seq"] >= 2 and live["journal"]["path"] == str(config.journal_path)
            assert live["config"]["table"] == "t1" and live["config"]["mqtt"]["broker"] == f"mqtt://diag@127.0.0.1:{port}"
            assert SECRET not in text
            last, round_id = loop.journal.last_seq(), loop.core.round_id
    assert not diagnostics_socket(config).exists()  # the stopped table leaves no socket behind
    assert read_live(diagnostics_socket(config)) is None
    code, text = diagnose(path)
    assert code == 0, text
    stored = json.loads(text)
    assert stored["source"].startswith("config and journal")
    assert stored["journal"]["exists"] is True and stored["journal"]["seq"] >= last
    assert stored["journal"]["last_round"] == {"round": round_id, "closed": False}  # left open: the restart holds
    assert stored["journal"]["last_start"] is not None
    assert stored["config"]["devices"]["shoe"]["transport"] == "simulated"
    assert SECRET not in text


def test_a_table_never_started_has_no_journal_yet(tmp_path: Path) -> None:
    path = write_config(tmp_path, stacked=None)
    code, text = diagnose(path)
    assert code == 0, text
    dump = json.loads(text)
    assert dump["journal"] == {"path": str(load(path).journal_path), "exists": False}
    assert not load(path).journal_path.exists()  # diagnose made nothing


def test_a_config_that_does_not_load_is_refused_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[table]\nid = 3\n")
    code, text = diagnose(bad)
    assert code == 2 and "error:" in text and "Traceback" not in text
