"""The TLS context of an ``mqtts://`` broker URL: the broker's certificate is verified against
the URL's ``cafile`` (or the system's CAs) and its host name; a client certificate is presented
when the URL names one. Built once per link, so an unreadable file fails at start."""

from __future__ import annotations

import ssl

from drivers.errors import DeviceAddressError
from drivers.mqtt.url import BrokerUrl


def tls_context(url: BrokerUrl) -> ssl.SSLContext | None:
    """None for a plaintext URL; DeviceAddressError naming the file that cannot be used."""
    if not url.tls:
        return None
    try:
        context = ssl.create_default_context(cafile=url.cafile)
    except (OSError, ssl.SSLError) as exc:
        raise DeviceAddressError(f"broker {url.redacted()}: cannot use cafile {url.cafile}: {_why(exc)}") from None
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    if url.certfile is not None:
        try:
            context.load_cert_chain(url.certfile, url.keyfile)
        except (OSError, ssl.SSLError) as exc:
            files = url.certfile + (f" / {url.keyfile}" if url.keyfile else "")
            raise DeviceAddressError(f"broker {url.redacted()}: cannot use client certificate {files}: {_why(exc)}") from None
    return context


def _why(exc: Exception) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
