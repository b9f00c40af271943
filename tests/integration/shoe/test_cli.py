"""`croupier sim shoe` / `croupier listen shoe`: the standalone simulator and the lone driver."""

import json
import os
import subprocess
import sys

from typer.testing import CliRunner

from controller.cli import app
from tests.support.waiting import wait_until

runner = CliRunner()


def test_listen_usb_simulated_prints_json_events():
    result = runner.invoke(
        app, ["listen", "shoe", "--usb", "1209:0001", "--simulated", "--pace", "0.05", "--count", "6", "--json"]
    )
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.output.splitlines()]
    assert len(events) == 6
    assert events[0] == {"type": "online", "device": "shoe", "detail": "usb:1209:0001"}
    cards = [e for e in events if e["type"] == "card"]
    assert cards and [e["n"] for e in cards] == list(range(1, len(cards) + 1))


def test_listen_needs_exactly_one_address():
    assert runner.invoke(app, ["listen", "shoe"]).exit_code == 2
    assert runner.invoke(app, ["listen", "shoe", "--usb", "zz"]).exit_code == 2


def test_sim_shoe_on_a_pty_and_listen_to_it(tmp_path):
    link = tmp_path / "shoe-tty"
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "sim", "shoe", "--seed", "5", "--pace", "0.05", "--link", str(link)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=os.getcwd(),
    )
    try:
        line = proc.stdout.readline()
        assert "listening on" in line and str(link) in line, line
        wait_until(link.exists, "the simulator's link", within=10, process=proc)
        result = runner.invoke(app, ["listen", "shoe", "--port", str(link), "--count", "5", "--json"])
        assert result.exit_code == 0, result.output
        events = [json.loads(line) for line in result.output.splitlines()]
        assert events[0]["type"] == "online" and all("type" in e for e in events)
        cards = [e for e in events if e["type"] == "card"]
        assert [e["n"] for e in cards] == list(range(cards[0]["n"], cards[0]["n"] + len(cards)))
    finally:
        proc.terminate()
        proc.wait(10)
