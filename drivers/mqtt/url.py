"""Broker addresses as one URL string (config holds device addresses as URLs):
``mqtt://user:pass@host:port`` over TCP, ``unix://user:pass@/path/to.sock`` over a unix socket."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote, unquote, urlsplit

DEFAULT_PORT = 1883


@dataclass(frozen=True)
class BrokerUrl:
    transport: Literal["tcp", "unix"]
    host: str  # hostname, or the socket path for ``unix``
    port: int = DEFAULT_PORT
    username: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str) -> BrokerUrl:
        """Raises ValueError naming what is wrong, so a bad config line fails at start."""
        parts = urlsplit(url)
        username = unquote(parts.username) if parts.username is not None else None
        password = unquote(parts.password) if parts.password is not None else None
        if parts.scheme == "mqtt":
            if not parts.hostname:
                raise ValueError(f"broker URL {url!r} has no host")
            try:
                port = parts.port or DEFAULT_PORT
            except ValueError as exc:
                raise ValueError(f"broker URL {url!r}: {exc}") from None
            return cls("tcp", parts.hostname, port, username, password)
        if parts.scheme == "unix":
            if not parts.path:
                raise ValueError(f"broker URL {url!r} has no socket path")
            return cls("unix", unquote(parts.path), DEFAULT_PORT, username, password)
        raise ValueError(f"broker URL {url!r}: scheme must be mqtt:// or unix://")

    def with_credentials(self, username: str | None, password: str | None) -> BrokerUrl:
        return BrokerUrl(self.transport, self.host, self.port, username, password)

    def __str__(self) -> str:
        auth = ""
        if self.username is not None:
            auth = quote(self.username, safe="")
            if self.password is not None:
                auth += ":" + quote(self.password, safe="")
            auth += "@"
        if self.transport == "unix":
            return f"unix://{auth}{quote(self.host)}"
        return f"mqtt://{auth}{self.host}:{self.port}"

    def redacted(self) -> str:
        """For logs and banners: the password never leaves in clear."""
        shown = str(self.with_credentials(self.username, "-" if self.password is not None else None))
        return shown.replace(":-@", ":***@", 1)
