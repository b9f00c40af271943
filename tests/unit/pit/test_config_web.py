"""The dashboard's ``[pit]`` web keys: TLS given as a pair, and the fallback currency."""

from __future__ import annotations

import pytest

from controller.pit.config import PitConfigError, parse


def test_tls_and_currency_reach_the_server() -> None:
    config = parse({"pit": {"tls_cert": "/etc/c.pem", "tls_key": "/etc/c.key", "currency": "CHF", "currency_digits": 2}})
    assert config.server_options() == {"tls": ("/etc/c.pem", "/etc/c.key"), "currency": ("CHF", 2)}
    assert parse({}).server_options() == {"tls": None, "currency": ("EUR", 2)}


@pytest.mark.parametrize("pit", [{"tls_cert": "/etc/c.pem"}, {"tls_key": "/etc/c.key"}, {"currency": "euro"},
                                 {"currency_digits": 7}])
def test_a_half_tls_pair_or_a_bad_currency_fails_at_start(pit: dict[str, object]) -> None:
    with pytest.raises(PitConfigError, match="pit"):
        parse({"pit": pit})
