"""The ``[mqtt]`` section of a table config: which broker, and whether the link to it is safe.

A table's link is TLS (``mqtts://...?cafile=...``) under its own account, and its password comes
from the environment (``CROUPIER_MQTT_PASSWORD``) or from a file only the controller can read
(``password_file``, or ``CROUPIER_MQTT_PASSWORD_FILE``), read through pydantic-settings; never
from the TOML, which is committed and copied beside the config. Plaintext links (``mqtt://``,
``unix://``, the embedded demo broker) and anonymous ones are refused at load unless the section
says ``insecure = true``; only such a demo config may also carry a password in the TOML or the
URL. See docs/security.md.
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Self

from pydantic import BaseModel, ConfigDict, PrivateAttr, SecretStr, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, SettingsConfigDict

from drivers.mqtt.url import TLS_OPTIONS, BrokerUrl

PASSWORD_ENV = "CROUPIER_MQTT_PASSWORD"
PASSWORD_FILE_ENV = "CROUPIER_MQTT_PASSWORD_FILE"
NAMED_BROKERS = ("none", "embedded")
HOW_TO_GIVE_A_PASSWORD = (
    f"give it in the environment ({PASSWORD_ENV}=...) or in a file only the controller can read "
    f'(password_file = "/etc/croupier/mqtt.secret", mode 0600)'
)


def _refused(message: str) -> PydanticCustomError:
    """A ValueError that config errors show as written (no "Value error," prefix)."""
    return PydanticCustomError("mqtt_policy", message)


class MqttSecrets(BaseSettings):
    """The broker password from the process environment; the TOML never holds it."""

    model_config = SettingsConfigDict(env_prefix="CROUPIER_MQTT_", extra="ignore")

    password: SecretStr | None = None
    password_file: Path | None = None


def read_secret_file(path: Path) -> str:
    """The first line of ``path``; ValueError when it is missing, empty, or readable by anyone."""
    if not path.is_absolute():
        raise _refused(f"password_file {path} must be an absolute path (e.g. /etc/croupier/mqtt.secret)")
    try:
        mode = path.stat().st_mode
        text = path.read_text()
    except OSError as exc:
        raise _refused(f"cannot read password_file {path}: {exc.strerror or exc}") from None
    if mode & (stat.S_IROTH | stat.S_IWOTH):
        raise _refused(f"password_file {path} is open to every user: chmod 600 {path}")
    secret = text.splitlines()[0].strip() if text.strip() else ""
    if not secret:
        raise _refused(f"password_file {path} is empty")
    return secret


class Mqtt(BaseModel):
    """``broker``: "none" (no pit feed), "embedded" (the in-process demo broker, insecure only),
    or a URL, ``mqtts://user@host:8883?cafile=/etc/croupier/ca.pem`` in production."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    broker: str = "none"
    #: allow plaintext or anonymous MQTT, and a password in this file (demo and lab only)
    insecure: bool = False
    #: a file holding the broker password (its first line); or CROUPIER_MQTT_PASSWORD in the environment
    password_file: Path | None = None
    #: refused unless ``insecure``: a secret does not belong in a config file
    password: SecretStr | None = None

    _secret: str | None = PrivateAttr(None)

    @field_validator("broker")
    @classmethod
    def _broker_known(cls, value: str) -> str:
        if value not in NAMED_BROKERS:
            BrokerUrl.parse(value)  # ValueError naming what is wrong
        return value

    @model_validator(mode="after")
    def _secured(self) -> Self:
        if self.password is not None and not self.insecure:
            raise _refused(f"password: a password is never written in the config; {HOW_TO_GIVE_A_PASSWORD}")
        if self.broker == "none":
            return self
        if self.broker == "embedded":
            if not self.insecure:
                raise _refused(
                    "broker: the embedded demo broker is plaintext and anonymous; set insecure = true for a demo, "
                    "or give the production broker as mqtts://user@host:8883?cafile=/path/ca.pem"
                )
            return self
        self._secret = self.check(self.broker, "broker")
        return self

    def check(self, url_text: str, key: str) -> str | None:
        """Apply this section's policy to a broker URL (``[mqtt]`` or a device's own); returns the
        password to log in with. ValueError naming ``key`` and what to do instead."""
        url = BrokerUrl.parse(url_text)
        if not self.insecure:
            if not url.tls:
                raise _refused(
                    f"{key}: {url_text.split(':', 1)[0]}:// is plaintext; use mqtts://host:8883?cafile=/path/ca.pem, "
                    "or set insecure = true for a demo or lab"
                )
            if url.anonymous:
                raise _refused(f"{key}: the broker URL names no user (mqtts://user@host...); anonymous MQTT is refused "
                                 "unless insecure = true")
            if url.password is not None:
                raise _refused(f"{key}: the broker URL holds a password; {HOW_TO_GIVE_A_PASSWORD}")
            for option in TLS_OPTIONS:
                value = getattr(url, option)
                if value is not None and not Path(value).is_absolute():
                    raise _refused(f"{key}: {option} {value} must be an absolute path")
        secret = self._password(url)
        if secret is None and url.username is not None and url.certfile is None and not self.insecure:
            raise _refused(f"{key}: no password for user {url.username!r}; {HOW_TO_GIVE_A_PASSWORD}")
        return secret

    def _password(self, url: BrokerUrl) -> str | None:
        """Environment first, then a secret file (environment's, then this section's); an insecure
        config's own password or the URL's last."""
        secrets = MqttSecrets()
        if secrets.password is not None:
            return secrets.password.get_secret_value()
        file = secrets.password_file or self.password_file
        if file is not None:
            return read_secret_file(file)
        if self.password is not None:
            return self.password.get_secret_value()
        return url.password

    def connect_url(self, device_broker: str | None = None) -> str:
        """The broker to connect to, with its password: ``device_broker`` (a device's own URL,
        checked by the same policy) or this section's; "none" and "embedded" as they are."""
        if device_broker is not None:
            url_text, secret = device_broker, self.check(device_broker, "broker")
        elif self.broker in NAMED_BROKERS:
            return self.broker
        else:
            url_text, secret = self.broker, self._secret
        url = BrokerUrl.parse(url_text)
        return str(url.with_credentials(url.username, secret if url.username is not None else None))


class BrokerPolicyError(ValueError):
    """A floor process (the pit dashboard, the back office) has no broker, or the ``[mqtt]``
    policy refuses the one given; the message says which and what to do."""


def floor_broker_url(section: Mqtt, broker: str | None = None, insecure: bool = False) -> str:
    """The URL a floor process connects with (password from the environment or the secret file):
    ``broker`` (its ``--broker``) or ``[mqtt] broker``, under the ``[mqtt]`` policy of ``section``
    (``insecure``: its ``--insecure``). Unlike a table, a floor process cannot run without one.
    ``BrokerPolicyError`` when there is none or the policy refuses it."""
    given = section.model_dump(exclude_unset=True)
    if broker is not None:
        given["broker"] = broker
    if insecure:
        given["insecure"] = True
    try:
        mqtt = Mqtt.model_validate(given)
    except ValidationError as exc:
        raise BrokerPolicyError("; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())) from None
    if mqtt.broker in NAMED_BROKERS:
        raise BrokerPolicyError("no broker: give --broker URL or [mqtt] broker")
    return mqtt.connect_url()
