"""``croupier demo`` runs a back office on a throwaway PostgreSQL and prints its URL beside the
console and pit lines; the demo's rounds reach it and its report. Without PostgreSQL's
binaries the demo runs on and says so in one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import psycopg

from tests.integration.backoffice.floor import CLI, wait_until


def start_demo(directory: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([*CLI, "demo", "--dir", str(directory)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, text=True, env={**os.environ, **(env or {})},
                            preexec_fn=_default_sigint)


def _default_sigint() -> None:
    """Ctrl-C works in the demo even under a runner that ignores SIGINT (it would inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def lines_until(demo: subprocess.Popen[str], prefix: str, timeout: float = 90.0) -> list[str]:
    assert demo.stdout is not None
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = demo.stdout.readline()
        if not line:
            break
        seen.append(line.rstrip("\n"))
        if line.startswith(prefix):
            return seen
    raise AssertionError(f"no {prefix!r} line: {seen}")


def stop(demo: subprocess.Popen[str]) -> None:
    """Ctrl-C, as a person stops it: the demo stops its cluster on the way out."""
    demo.send_signal(signal.SIGINT)
    try:
        demo.wait(timeout=30)
    except subprocess.TimeoutExpired:
        demo.kill()
        demo.wait()


def rounds(url: str) -> int:
    try:
        with psycopg.connect(url, connect_timeout=5) as conn:
            row = conn.execute("SELECT count(*) FROM rounds").fetchone()
            return int(row[0]) if row else 0
    except psycopg.OperationalError:
        return 0


def test_the_demo_records_its_floor_in_a_back_office(tmp_path: Path) -> None:
    demo = start_demo(tmp_path / "demo")
    try:
        seen = lines_until(demo, "account pit")
        (line,) = [s for s in seen if s.startswith("backoffice: ")]
        assert seen.index(line) == [s.startswith("pit: ") for s in seen].index(True) + 1
        url = line.removeprefix("backoffice: ")
        assert url.startswith("postgresql://")
        wait_until(lambda: rounds(url) >= 3, 120, "the demo's rounds in the back office")
        result = subprocess.run([*CLI, "backoffice", "report", "--database", url, "--day", "today", "--json"],
                                capture_output=True, text=True, stdin=subprocess.DEVNULL)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["floor"]["rounds"] >= 3  # the gaming day open now
    finally:
        stop(demo)


def test_without_postgresql_the_demo_runs_and_says_so(tmp_path: Path) -> None:
    demo = start_demo(tmp_path / "demo", {"CROUPIER_PG_BIN": str(tmp_path / "no-postgresql")})
    try:
        seen = lines_until(demo, "account pit")
        notes = [s for s in seen if s.startswith("backoffice:")]
        assert len(notes) == 1 and "not running" in notes[0], seen
        assert len([s for s in seen if s.startswith("studio:")]) == 1  # no book, no studio: one line says so
        assert any(s.startswith("pit: http://") for s in seen)
    finally:
        stop(demo)
