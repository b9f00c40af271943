"""A broker password never appears in an error message about its URL."""

import pytest

from drivers.errors import DeviceAddressError
from drivers.mqtt.url import BrokerUrl, redacted


@pytest.mark.parametrize("url", ["http://spot-1:hunter2@host", "mqtt://spot-1:hunter2@:1883",
                                 "mqtt://spot-1:hunter2@host?cafile=/x", "unix://spot-1:hunter2@"])
def test_refused_url_messages_hide_the_password(url: str) -> None:
    with pytest.raises(DeviceAddressError) as refused:
        BrokerUrl.parse(url)
    assert "hunter2" not in str(refused.value)
    assert "spot-1:***@" in str(refused.value)


def test_redacted_keeps_everything_but_the_password() -> None:
    assert redacted("mqtts://pit:s3cret@broker:8883?cafile=/ca.pem") == "mqtts://pit:***@broker:8883?cafile=/ca.pem"
    assert redacted("mqtts://pit@broker:8883") == "mqtts://pit@broker:8883"
