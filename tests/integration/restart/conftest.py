"""Journals of realistic blackjack rounds, synthesised through the real core (bench/restart.py)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from controller.config import load
from controller.journal import Journal
from controller.process import build_core
from controller.table.core import TableCore

ROOT = Path(__file__).resolve().parents[3]
CONFIG = ROOT / "config" / "blackjack-ru6.toml"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_restart", ROOT / "bench" / "restart.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def bench() -> ModuleType:
    return _bench()


@pytest.fixture
def synthesised(bench: ModuleType, tmp_path: Path) -> Callable[[int], Path]:
    def make(size: int) -> Path:
        path = tmp_path / f"journal-{size}.sqlite"
        bench.synthesise(path, size)
        return path

    return make


@pytest.fixture
def fresh_core() -> Callable[[], TableCore]:
    config = load(CONFIG)
    return lambda: build_core(config)


def kinds(path: Path) -> list[str]:
    with Journal(path) as j:
        return [e.kind for e in j.entries()]
