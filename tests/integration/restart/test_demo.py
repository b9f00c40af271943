"""``croupier demo`` as an operator uses it: ``--version``, ``--dir`` taken from the working
directory, and a table the pit closes and reopens goes on playing (its console stays usable)."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import httpx

from controller.demo import Demo
from controller.table import inputs
from controller.verify import verify_file
from tests.integration.restart.processes import Lines

TABLE = "baccarat"


def test_version_is_the_installed_one():
    run = subprocess.run([sys.executable, "-m", "controller.cli", "--version"], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == f"croupier {version('croupier')}"


def test_demo_dir_is_taken_from_the_working_directory(tmp_path: Path):
    demo = Lines("demo", "--dir", "floor", cwd=tmp_path)
    try:
        assert demo.until("journals: ") == f"journals: {tmp_path / 'floor'}"
        demo.until("pit: http")
        code, stderr = demo.stop(signal.SIGTERM)
    finally:
        demo.kill()
    assert code == 0, stderr
    assert {p.name for p in (tmp_path / "floor").glob("*.journal")} == {"bj-ru6.journal", "rl-eu.journal",
                                                                         "baccarat.journal"}
    assert (tmp_path / "floor").is_dir()  # a --dir is kept (the next demo resumes from it)
    for table in ("bj-ru6", "rl-eu", "baccarat"):  # each journal keyed, its key beside it (0600)
        key = tmp_path / "floor" / f"{table}.key"
        assert key.stat().st_mode & 0o777 == 0o600
        verdict = verify_file(tmp_path / "floor" / f"{table}.journal", key.read_bytes().strip())
        assert verdict.ok and verdict.keyed and verdict.unkeyed == 0, verdict.lines()
    again = Lines("demo", "--dir", "floor", cwd=tmp_path)  # and the next demo resumes them, keyed
    try:
        again.until("pit: http")
        code, stderr = again.stop(signal.SIGTERM)
    finally:
        again.kill()
    assert code == 0, stderr


def _pit(loop, command: str, n: int) -> None:
    loop.submit(inputs.PIT_COMMAND, {"v": 1, "id": f"t-{command}-{n}", "sender": "pit", "command": command},
                "pit:pit")


async def test_a_table_closed_and_reopened_in_the_demo_plays_on(tmp_path: Path):
    demo = Demo(tmp_path)
    ready = asyncio.Event()
    task = asyncio.create_task(demo.run(lambda _: ready.set()))
    try:
        await asyncio.wait_for(ready.wait(), 90)
        loop = demo.loops[TABLE]
        await loop.until(lambda core: core.closed_rounds >= 1, timeout=60)
        _pit(loop, "close_after_round", 1)
        await loop.until(lambda core: core.closing and core.engine is None, timeout=60)
        closed_at = loop.core.closed_rounds
        # several of the simulated dealer's paces (the behaviour under test: nobody opens a round
        # while closed; the demo's people act on wall time, there is no event for "did not act")
        await asyncio.sleep(1.0)
        assert loop.core.closed_rounds == closed_at and loop.core.engine is None
        table_task = next(t for t in asyncio.all_tasks() if t.get_name() == f"table {TABLE}")
        assert not table_task.done()  # the table task did not end on close
        password = next(a.password for a in demo.accounts_shown if a.user == "dealer")
        async with httpx.AsyncClient() as client:
            signed = await client.post(demo.consoles[TABLE] + "api/login", json={"user": "dealer", "password": password})
        assert signed.status_code == 200, signed.text  # was 500: the table behind it was gone
        _pit(loop, "reopen", 2)
        await loop.until(lambda core: core.closed_rounds > closed_at, timeout=60)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
