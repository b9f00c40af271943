"""The broker fixture fails loudly (never skips) when mosquitto is missing; its ACL text."""

from __future__ import annotations

import pytest

from tests.fixtures import mosquitto as fixture


def test_missing_mosquitto_is_an_error_naming_the_remedy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fixture, "CANDIDATES", ("/nonexistent/mosquitto",))
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("MOSQUITTO", raising=False)
    with pytest.raises(RuntimeError, match="mosquitto not found"):
        fixture.find_mosquitto()


def test_acl_names_each_spot_user() -> None:
    acl = fixture.acl_text(2)
    assert "user spot-2\ntopic write croupier/+/spot/2/press\ntopic write croupier/+/spot/2/online\n" in acl
    assert "topic read croupier/+/spot/2/lamp" in acl
    assert "spot-3" not in acl
