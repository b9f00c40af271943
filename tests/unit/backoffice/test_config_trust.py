"""``[tables.<id>]`` in the back office's config: each table's journal key, read as the table
reads its own, and whether its unbacked corrections are taken."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.backoffice.config import BackofficeConfigError, parse
from controller.backoffice.provenance import Trust


def key_file(tmp_path: Path, key: bytes = b"k" * 32, mode: int = 0o600) -> Path:
    path = tmp_path / "bj1.key"
    path.write_bytes(key + b"\n")
    path.chmod(mode)
    return path


def test_a_tables_key_and_trust_are_read(tmp_path: Path) -> None:
    cfg = parse({"tables": {"bj1": {"key_file": str(key_file(tmp_path))}, "bj2": {"unbacked_corrections": True}}})
    assert cfg.trust() == {"bj1": Trust(b"k" * 32), "bj2": Trust(None, unbacked=True)}
    assert parse({}).trust() == {}


@pytest.mark.parametrize(("key", "mode", "said"), [
    (b"k" * 32, 0o644, "readable by others; chmod 0600 it"),
    (b"short", 0o600, "a journal key has at least 32 bytes"),
])
def test_a_key_file_the_table_would_refuse_is_refused(tmp_path: Path, key: bytes, mode: int, said: str) -> None:
    cfg = parse({"tables": {"bj1": {"key_file": str(key_file(tmp_path, key, mode))}}})
    with pytest.raises(BackofficeConfigError, match=said):
        cfg.trust()


def test_a_missing_key_file_is_named(tmp_path: Path) -> None:
    cfg = parse({"tables": {"bj1": {"key_file": str(tmp_path / "absent.key")}}})
    with pytest.raises(BackofficeConfigError, match="tables.bj1.key_file .*absent.key: No such file"):
        cfg.trust()


@pytest.mark.parametrize("tables", [{"bj1": {"key": "x"}}, {"bad id!": {}}])
def test_unknown_settings_and_bad_table_ids_are_refused(tables: dict[str, object]) -> None:
    with pytest.raises(BackofficeConfigError, match="tables"):
        parse({"tables": tables})
