"""``croupier broker-config`` as an operator runs it: the files, their modes, the ACL's shape,
the password hashes (checked against an independent PBKDF2 and by mosquitto itself in
test_floor_acl.py), and the mistakes it refuses before writing anything."""

from __future__ import annotations

import base64
import hashlib
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from controller import broker_config
from controller.cli import app

runner = CliRunner()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_lab_floor_with_its_own_ca(tmp_path: Path) -> None:
    out = tmp_path / "floor"
    result = runner.invoke(app, ["broker-config", "--tables", "bj1,rl1:0", "--spots", "2", "--out", str(out),
                                 "--make-ca", "--host", "broker.lab", "--readers", "viewer,audit"])
    assert result.exit_code == 0, result.output
    users = sorted(p.stem for p in (out / "secrets").glob("*.secret"))
    # client ids are bound to accounts by default: each table's spots link has an account of its own
    assert users == ["audit", "bj1-controller", "bj1-spot-1", "bj1-spot-2", "bj1-spots", "pit", "rl1-controller",
                     "rl1-spots", "viewer"]
    assert mode(out / "secrets") == 0o700 and mode(out / "passwd") == 0o600
    assert all(mode(p) == 0o600 for p in (out / "secrets").iterdir())
    assert mode(out / "tls" / "ca.key") == 0o600 and mode(out / "tls" / "broker.key") == 0o600
    conf = (out / "mosquitto.conf").read_text()
    assert "allow_anonymous false" in conf and "listener 8883\n" in conf and "require_certificate false" in conf
    assert "use_username_as_clientid true" in conf
    assert f"cafile {out.absolute()}/tls/ca.pem" in conf and f"acl_file {out.absolute()}/acl" in conf
    assert "listener 1883" not in conf and "\nport " not in conf  # no plaintext listener at all
    assert 'broker = "mqtts://bj1-controller@broker.lab:8883?cafile=' in result.output
    # every password in secrets/ matches its hash in passwd (PBKDF2-SHA512, recomputed here)
    hashes = dict(line.split(":", 1) for line in (out / "passwd").read_text().splitlines())
    for user in users:
        _, kind, rounds, salt, digest = hashes[user].split("$")
        password = (out / "secrets" / f"{user}.secret").read_text().strip()
        assert kind == "7" and len(password) >= 40
        assert base64.b64decode(digest) == hashlib.pbkdf2_hmac("sha512", password.encode(), base64.b64decode(salt), int(rounds))


def test_the_acl_names_every_topic_of_each_account(tmp_path: Path) -> None:
    floor = broker_config.accounts(broker_config.parse_tables("bj1:1", 7), readers=["viewer"])
    acl = broker_config.acl_text(floor)
    blocks = {b.splitlines()[0]: b.splitlines()[1:] for b in acl.split("\n\n")[1:]}
    assert blocks["user bj1-spot-1"] == ["topic write croupier/bj1/spot/1/press", "topic write croupier/bj1/spot/1/online",
                                         "topic read croupier/bj1/spot/1/lamp"]
    assert blocks["user pit"] == ["topic read croupier/bj1/#", "topic write croupier/bj1/command"]
    assert not [line for line in blocks["user viewer"] if not line.startswith("topic read ")]
    assert "topic read croupier/bj1/command" in blocks["user bj1-controller"]
    assert not [line for line in blocks["user bj1-controller"] if "write" in line and "command" in line]
    assert len({a.password for a in floor}) == len(floor)


def test_the_operators_own_tls_files(tmp_path: Path) -> None:
    out = tmp_path / "floor"
    result = runner.invoke(app, ["broker-config", "--tables", "bj1", "--out", str(out), "--cafile", "/etc/ssl/ca.pem",
                                 "--certfile", "/etc/ssl/broker.pem", "--keyfile", "/etc/ssl/broker.key",
                                 "--install-dir", "/etc/mosquitto/croupier", "--client-certs", "--port", "8884"])
    assert result.exit_code == 0, result.output
    conf = (out / "mosquitto.conf").read_text()
    assert "cafile /etc/ssl/ca.pem\ncertfile /etc/ssl/broker.pem\nkeyfile /etc/ssl/broker.key" in conf
    assert "password_file /etc/mosquitto/croupier/passwd" in conf and "require_certificate true" in conf
    assert "listener 8884" in conf and not (out / "tls").exists()


@pytest.mark.parametrize(("args", "says"), [
    (["--tables", "bj1"], "--make-ca"),
    (["--tables", "bj1", "--make-ca", "--cafile", "/ca.pem"], "go together"),
    (["--tables", "bj1/x", "--make-ca"], "letters, digits"),
    (["--tables", "bj1,bj1", "--make-ca"], "given twice"),
    (["--tables", "bj1:many", "--make-ca"], "spots after ':'"),
    (["--tables", ",", "--make-ca"], "no table given"),
    (["--tables", "bj1", "--make-ca", "--pit", "bj1-controller"], "used twice"),
])
def test_mistakes_are_refused_before_anything_is_written(tmp_path: Path, args: list[str], says: str) -> None:
    out = tmp_path / "floor"
    result = runner.invoke(app, ["broker-config", "--out", str(out), *args])
    assert result.exit_code == 2 and says in result.output, result.output
    assert not (out / "mosquitto.conf").exists()


def test_an_existing_floor_is_not_overwritten(tmp_path: Path) -> None:
    args = ["broker-config", "--tables", "bj1", "--out", str(tmp_path), "--make-ca", "--host", "localhost"]
    assert runner.invoke(app, args).exit_code == 0
    before = (tmp_path / "passwd").read_text()
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and "exists" in again.output and (tmp_path / "passwd").read_text() == before
