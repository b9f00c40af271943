"""The pages' shared front-end module, unit-tested by node's built-in test runner (Debian's
nodejs); skipped only where node is not installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

TESTS = Path(__file__).with_name("js")


def test_the_shared_front_end_module() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    files = sorted(str(p) for p in TESTS.glob("*.test.js"))
    assert files
    out = subprocess.run([node, "--test", *files], capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "# fail 0" in out.stdout and "# pass 0" not in out.stdout, out.stdout
