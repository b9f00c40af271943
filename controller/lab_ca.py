"""A throwaway certificate authority for a lab broker and for the TLS tests, made with the openssl
command (``croupier broker-config --make-ca``). A casino floor uses the CA its security team runs;
this one exists so a lab can run TLS exactly as production does (docs/security.md).

Keys are EC P-256, written mode 0600. Leaf certificates carry subjectAltName entries for the host
names and IP addresses clients will dial, since clients verify the broker's name.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

DAYS = 825  # the longest validity current TLS clients accept for a leaf


class CaError(RuntimeError):
    """openssl is missing or refused; the message carries its own."""


@dataclass(frozen=True)
class CertFiles:
    cert: Path
    key: Path


def _openssl(*args: str) -> None:
    tool = shutil.which("openssl")
    if tool is None:
        raise CaError("the openssl command is needed to make a lab CA (apt-get install openssl)")
    done = subprocess.run([tool, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise CaError(f"openssl {args[0]} failed: {done.stderr.strip()[-500:]}")


def _new_key_args(key: Path) -> list[str]:
    return ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(key)]


def make_ca(directory: Path, name: str = "Croupier lab CA", days: int = DAYS) -> CertFiles:
    """``ca.pem`` and ``ca.key`` in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    files = CertFiles(directory / "ca.pem", directory / "ca.key")
    _openssl("req", "-x509", *_new_key_args(files.key), "-out", str(files.cert), "-days", str(days),
             "-subj", f"/CN={name}", "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    files.key.chmod(0o600)
    return files


def subject_alt_names(hosts: list[str]) -> str:
    """``DNS:broker.lan,IP:10.0.0.5`` from host names and addresses."""
    names = []
    for host in hosts:
        try:
            names.append(f"IP:{ipaddress.ip_address(host)}")
        except ValueError:
            names.append(f"DNS:{host}")
    return ",".join(names)


def issue(ca: CertFiles, directory: Path, name: str, *, hosts: list[str] | None = None, days: int = DAYS) -> CertFiles:
    """``<name>.pem`` and ``<name>.key`` signed by ``ca``: a server certificate for ``hosts``, or
    a client certificate (CN = ``name``) when no hosts are given."""
    directory.mkdir(parents=True, exist_ok=True)
    files = CertFiles(directory / f"{name}.pem", directory / f"{name}.key")
    csr, extensions = directory / f"{name}.csr", directory / f"{name}.ext"
    usage = f"extendedKeyUsage=serverAuth\nsubjectAltName={subject_alt_names(hosts)}\n" if hosts else \
        "extendedKeyUsage=clientAuth\n"
    extensions.write_text("basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n" + usage)
    try:
        _openssl("req", "-new", *_new_key_args(files.key), "-out", str(csr), "-subj", f"/CN={name}")
        files.key.chmod(0o600)
        _openssl("x509", "-req", "-in", str(csr), "-CA", str(ca.cert), "-CAkey", str(ca.key),
                 "-set_serial", f"0x{secrets.token_hex(16)}", "-days", str(days), "-out", str(files.cert),
                 "-extfile", str(extensions))
    finally:
        for scratch in (csr, extensions):
            if scratch.exists():
                os.unlink(scratch)
    return files
