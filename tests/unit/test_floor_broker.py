"""The broker policy of the floor processes lives below them (``controller.mqtt_config``): the
pit dashboard and the back office take it from there, and say the same thing for the same
``[mqtt]`` section, each under its own error."""

from __future__ import annotations

import pytest

from controller.backoffice.config import BackofficeConfigError
from controller.backoffice.config import parse as parse_backoffice
from controller.mqtt_config import PASSWORD_ENV, PASSWORD_FILE_ENV, BrokerPolicyError, Mqtt, floor_broker_url
from controller.pit.config import PitConfigError
from controller.pit.config import parse as parse_pit

PLAIN = "mqtt://broker.floor:1883"
TLS = "mqtts://pit@broker.floor:8883?cafile=/etc/croupier/ca.pem"


@pytest.fixture(autouse=True)
def _no_password_around(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    monkeypatch.delenv(PASSWORD_FILE_ENV, raising=False)


@pytest.mark.parametrize(("section", "broker", "insecure", "says"), [
    ({}, None, False, "no broker: give --broker URL or [mqtt] broker"),
    ({}, "embedded", True, "no broker"),
    ({}, PLAIN, False, "plaintext"),
    ({}, TLS, False, "no password for user 'pit'"),
])
def test_both_faces_refuse_what_the_policy_refuses(section: dict[str, object], broker: str | None, insecure: bool,
                                                  says: str) -> None:
    with pytest.raises(BrokerPolicyError) as shared:
        floor_broker_url(Mqtt.model_validate(section), broker, insecure)
    assert says in str(shared.value)
    with pytest.raises(PitConfigError) as pit:
        parse_pit({"mqtt": section}).broker_url(broker, insecure)
    with pytest.raises(BackofficeConfigError) as backoffice:
        parse_backoffice({"mqtt": section}).broker_url(broker, insecure)
    assert str(pit.value) == str(backoffice.value) == str(shared.value)


def test_both_faces_connect_with_the_same_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PASSWORD_ENV, "s3cret")
    section = {"broker": TLS}
    url = floor_broker_url(Mqtt.model_validate(section))
    assert url.startswith("mqtts://pit:s3cret@broker.floor:8883")
    assert parse_pit({"mqtt": section}).broker_url() == parse_backoffice({"mqtt": section}).broker_url() == url
    assert floor_broker_url(Mqtt(), PLAIN, insecure=True) == PLAIN
