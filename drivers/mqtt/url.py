"""Broker addresses as one URL string (config holds device addresses as URLs):

- ``mqtts://user@host:8883?cafile=/etc/croupier/ca.pem`` over TLS (the production form; the
  server certificate is checked against ``cafile``, or the system's CAs when it is left out;
  ``certfile`` and ``keyfile`` add a client certificate);
- ``mqtt://user:pass@host:1883`` over plain TCP, ``unix://user:pass@/path/to.sock`` over a unix
  socket (both plaintext: a table refuses them unless its config says ``insecure``).

The URL may carry a password for tools and tests; a table's config takes it from a secret
instead (docs/security.md).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qs, quote, unquote, urlencode, urlsplit

from drivers.errors import DeviceAddressError

DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883
TLS_OPTIONS = ("cafile", "certfile", "keyfile")


_PASSWORD = re.compile(r"(?<=://)([^:@/]*):[^@/]*@")


def redacted(url: str) -> str:
    """``url`` with any password replaced by ``***``: error messages and logs never show it."""
    return _PASSWORD.sub(r"\1:***@", url)


@dataclass(frozen=True)
class BrokerUrl:
    transport: Literal["tcp", "unix"]
    host: str  # hostname, or the socket path for ``unix``
    port: int = DEFAULT_PORT
    username: str | None = None
    password: str | None = None
    tls: bool = False
    #: PEM file of the CA that signed the broker's certificate (None: the system's CAs)
    cafile: str | None = None
    #: client certificate (PEM), and its key when not in the same file
    certfile: str | None = None
    keyfile: str | None = None

    @classmethod
    def parse(cls, url: str) -> BrokerUrl:
        """Raises ``DeviceAddressError`` (a ValueError) naming what is wrong, so a bad config line fails at start."""
        parts = urlsplit(url)
        username = unquote(parts.username) if parts.username is not None else None
        password = unquote(parts.password) if parts.password is not None else None
        if parts.scheme in ("mqtt", "mqtts"):
            if not parts.hostname:
                raise DeviceAddressError(f"broker URL {redacted(url)!r} has no host")
            tls = parts.scheme == "mqtts"
            try:
                port = parts.port or (DEFAULT_TLS_PORT if tls else DEFAULT_PORT)
            except ValueError as exc:
                raise DeviceAddressError(f"broker URL {redacted(url)!r}: {exc}") from None
            options = _tls_options(url, parts.query, tls)
            return cls("tcp", parts.hostname, port, username, password, tls, **options)
        if parts.scheme == "unix":
            if not parts.path:
                raise DeviceAddressError(f"broker URL {redacted(url)!r} has no socket path")
            _tls_options(url, parts.query, tls=False)
            return cls("unix", unquote(parts.path), DEFAULT_PORT, username, password)
        raise DeviceAddressError(f"broker URL {redacted(url)!r}: scheme must be mqtts://, mqtt:// or unix://")

    @property
    def anonymous(self) -> bool:
        """No user name and no client certificate: the broker cannot tell this client from anyone."""
        return self.username is None and self.certfile is None

    def with_credentials(self, username: str | None, password: str | None) -> BrokerUrl:
        return dataclasses.replace(self, username=username, password=password)

    def __str__(self) -> str:
        auth = ""
        if self.username is not None:
            auth = quote(self.username, safe="")
            if self.password is not None:
                auth += ":" + quote(self.password, safe="")
            auth += "@"
        if self.transport == "unix":
            return f"unix://{auth}{quote(self.host)}"
        if not self.tls:
            return f"mqtt://{auth}{self.host}:{self.port}"
        options = {k: v for k in TLS_OPTIONS if (v := getattr(self, k)) is not None}
        query = "?" + urlencode(options, safe="/") if options else ""
        return f"mqtts://{auth}{self.host}:{self.port}{query}"

    def redacted(self) -> str:
        """For logs and banners: the password never leaves in clear."""
        shown = str(self.with_credentials(self.username, "-" if self.password is not None else None))
        return shown.replace(":-@", ":***@", 1)


def _tls_options(url: str, query: str, tls: bool) -> dict[str, str]:
    """``cafile``, ``certfile`` and ``keyfile`` from the query; anything else is a typo."""
    if not query:
        return {}
    try:
        fields = parse_qs(query, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise DeviceAddressError(f"broker URL {redacted(url)!r}: unreadable query {query!r}") from None
    unknown = sorted(set(fields) - set(TLS_OPTIONS))
    if unknown:
        raise DeviceAddressError(f"broker URL {redacted(url)!r}: unknown option {unknown[0]!r} (known: {', '.join(TLS_OPTIONS)})")
    if not tls:
        raise DeviceAddressError(f"broker URL {redacted(url)!r}: {', '.join(fields)} needs TLS: use mqtts://")
    options: dict[str, str] = {}
    for key, values in fields.items():
        if len(values) != 1 or not values[0]:
            raise DeviceAddressError(f"broker URL {redacted(url)!r}: {key} needs exactly one path")
        options[key] = values[0]
    if "keyfile" in options and "certfile" not in options:
        raise DeviceAddressError(f"broker URL {redacted(url)!r}: keyfile without certfile")
    return options
