"""``[mqtt]`` at load: plaintext and anonymous brokers are refused unless the config says
``insecure = true``, a password is never taken from the TOML or the URL of a secure config, and
the secret comes from the environment or a 0600 file. Then a table's feed over TLS on the
generated floor broker, logged in with nothing but what a production config holds."""

from __future__ import annotations

import asyncio
import tomllib
from pathlib import Path

import pytest

from controller.config import ConfigError, load
from controller.feed import Feed
from controller.journal import Journal
from drivers.mqtt import BrokerUrl, MqttLink
from tests.integration.mqtt_security.conftest import FloorBroker, take, watching
from tests.support.configs import write_table_config
from tests.support.waiting import until

CONFIG_DIR = Path(__file__).resolve().parents[3] / "config"
SECURE = 'broker = "mqtts://bj1-controller@broker.floor:8883?cafile=/etc/croupier/ca.pem"\n'


@pytest.fixture(autouse=True)
def no_secrets_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CROUPIER_MQTT_PASSWORD", raising=False)
    monkeypatch.delenv("CROUPIER_MQTT_PASSWORD_FILE", raising=False)


def config(tmp_path: Path, mqtt: str) -> Path:
    """The bj1 table with ``mqtt`` as the text from ``[mqtt]`` on (it may open more sections)."""
    return write_table_config(tmp_path, table_id="bj1", journal="bj1.journal", limits={},
                              **tomllib.loads("[mqtt]\n" + mqtt))


def secret_file(tmp_path: Path, text: str = "s3cret\n", mode: int = 0o600) -> Path:
    path = tmp_path / "mqtt.secret"
    path.write_text(text)
    path.chmod(mode)
    return path


@pytest.mark.parametrize("example", sorted(CONFIG_DIR.glob("*.toml")), ids=lambda p: p.stem)
def test_every_example_says_insecure_for_its_demo_broker(example: Path, tmp_path: Path) -> None:
    mqtt = load(example).mqtt
    assert mqtt.broker == "embedded" and mqtt.insecure
    copy = tmp_path / example.name
    copy.write_text(example.read_text().replace("insecure = true", "insecure = false"))
    with pytest.raises(ConfigError, match="embedded demo broker is plaintext and anonymous; set insecure = true"):
        load(copy)


@pytest.mark.parametrize(("mqtt", "says"), [
    ('broker = "mqtt://bj1-controller@broker.floor:1883"\n', "mqtt:// is plaintext; use mqtts://"),
    ('broker = "unix://bj1-controller@/run/mosquitto.sock"\n', "unix:// is plaintext"),
    ('broker = "embedded"\n', "embedded demo broker"),
    ('broker = "mqtts://broker.floor:8883?cafile=/etc/croupier/ca.pem"\n', "anonymous MQTT is refused"),
    ('broker = "mqtts://bj1-controller:hunter2@broker.floor:8883"\n', "URL holds a password; give it in the environment"),
    (SECURE + 'password = "hunter2"\n', "never written in the config; give it in the environment (CROUPIER_MQTT_PASSWORD"),
    (SECURE, "no password for user 'bj1-controller'"),
    ('broker = "mqtts://u@h:8883?cafile=ca.pem"\n', "cafile ca.pem must be an absolute path"),
    ('broker = "mqtts://u@h:8883?cafle=/ca.pem"\n', "unknown option 'cafle'"),
    ('broker = "mqtt://u@h:1883?cafile=/ca.pem"\n', "needs TLS: use mqtts://"),
    ('broker = "http://u@h"\n', "scheme must be mqtts://"),
])
def test_an_unsafe_or_wrong_mqtt_section_fails_at_load_saying_what_to_do(tmp_path: Path, mqtt: str, says: str) -> None:
    with pytest.raises(ConfigError, match="mqtt") as refused:
        load(config(tmp_path, mqtt))
    assert says in str(refused.value)
    assert "hunter2" not in str(refused.value)


def test_insecure_allows_plaintext_anonymous_and_a_password_in_the_url(tmp_path: Path) -> None:
    mqtt = load(config(tmp_path, 'broker = "mqtt://c:pw@127.0.0.1:1883"\ninsecure = true\n')).mqtt
    assert BrokerUrl.parse(mqtt.connect_url()).password == "pw"
    assert load(config(tmp_path, 'broker = "unix:///run/m.sock"\ninsecure = true\n')).mqtt.connect_url() == "unix:///run/m.sock"


def test_the_password_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROUPIER_MQTT_PASSWORD", "from-env")
    url = BrokerUrl.parse(load(config(tmp_path, SECURE)).mqtt.connect_url())
    assert (url.tls, url.username, url.password, url.cafile) == (True, "bj1-controller", "from-env", "/etc/croupier/ca.pem")


def test_the_password_from_a_secret_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = secret_file(tmp_path, "from-file\n")
    mqtt = load(config(tmp_path, SECURE + f'password_file = "{path}"\n')).mqtt
    assert BrokerUrl.parse(mqtt.connect_url()).password == "from-file"
    assert "from-file" not in repr(mqtt) and "from-file" not in str(mqtt.model_dump())
    other = secret_file(tmp_path / "..", "from-env-file\n")
    monkeypatch.setenv("CROUPIER_MQTT_PASSWORD_FILE", str(other.resolve()))
    assert BrokerUrl.parse(load(config(tmp_path, SECURE)).mqtt.connect_url()).password == "from-env-file"


@pytest.mark.parametrize(("text", "mode", "says"), [
    ("s3cret\n", 0o644, "open to every user: chmod 600"),
    ("\n", 0o600, "is empty"),
])
def test_a_bad_secret_file_is_refused(tmp_path: Path, text: str, mode: int, says: str) -> None:
    path = secret_file(tmp_path, text, mode)
    with pytest.raises(ConfigError, match=says):
        load(config(tmp_path, SECURE + f'password_file = "{path}"\n'))
    with pytest.raises(ConfigError, match="cannot read password_file"):
        load(config(tmp_path, SECURE + f'password_file = "{tmp_path}/missing"\n'))
    with pytest.raises(ConfigError, match="must be an absolute path"):
        load(config(tmp_path, SECURE + 'password_file = "mqtt.secret"\n'))


def test_the_spots_own_broker_follows_the_same_policy(tmp_path: Path) -> None:
    path = config(tmp_path, 'broker = "none"\n\n[devices.spots]\nenabled = true\nbroker = "mqtt://c:pw@h:1883"\n')
    with pytest.raises(ConfigError, match="devices.spots.broker: mqtt:// is plaintext"):
        load(path)


async def test_a_table_feed_over_tls_from_a_production_config(tmp_path: Path, floor: FloorBroker) -> None:
    """The config names the broker, its CA and a secret file, and nothing else: the feed logs in
    as bj1-controller over TLS and the pit reads its state."""
    secret = secret_file(tmp_path, floor.password("bj1-controller") + "\n")
    url = f"mqtts://bj1-controller@127.0.0.1:{floor.port}?cafile={floor.out / 'tls' / 'ca.pem'}"
    cfg = load(config(tmp_path, f'broker = "{url}"\npassword_file = "{secret}"\n'))
    async with watching(floor.client("pit"), "croupier/bj1/state") as pit:
        with Journal(tmp_path / "bj1.journal") as journal:
            async with Feed.connect(cfg.mqtt.connect_url(), journal, "bj1", backoff_max=0.5) as feed:
                feed.set_state({"phase": "betting"})
                got = await take(pit, 1)
                await asyncio.wait_for(feed.link.wait_connected(), 5)
    assert b'"phase":"betting"' in got[0].payload and feed.link.url.tls


async def test_a_wrong_secret_never_connects(tmp_path: Path, floor: FloorBroker) -> None:
    secret = secret_file(tmp_path, "not-the-password\n")
    url = f"mqtts://bj1-controller@127.0.0.1:{floor.port}?cafile={floor.out / 'tls' / 'ca.pem'}"
    cfg = load(config(tmp_path, f'broker = "{url}"\npassword_file = "{secret}"\n'))
    async with MqttLink(cfg.mqtt.connect_url(), "croupier-bj1-feed", backoff_min=0.05, backoff_max=0.1) as link:
        await until(lambda: link.reconnect.failures >= 3, "three refused attempts")
        assert link.connections == 0 and "not authori" in link.last_error.lower()
