"""A throwaway RabbitMQ: Debian's ``rabbitmq-server`` started as a child process with its own node
name, cookie (``$HOME``), data and log directories, its own ``epmd`` on a free port and an AMQP
listener on a free loopback port, stopped by its PID (and its process group). The tests' broker
(tests/fixtures/rabbitmq.py, restartable on the same port for outage tests) and ``croupier demo``'s
operator feed both run it; nothing here is for production, where RabbitMQ is the floor's own.

Given a directory, the node keeps its data there across runs: the same node name, user and
password (``node.json``) and so the same Mnesia and message store, so a durable queue and the
messages it held come back when the broker starts again from that directory (``croupier demo
--dir``); without one, a temporary directory removed on ``close``.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

#: the script itself (/usr/sbin's wrapper switches user); ``CROUPIER_RABBITMQ_SERVER`` names another
SERVER = Path("/usr/lib/rabbitmq/bin/rabbitmq-server")
SERVER_ENV = "CROUPIER_RABBITMQ_SERVER"
EPMD = ("/usr/bin/epmd",)
READY_TIMEOUT = 90.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def find_epmd() -> Path:
    for candidate in (*EPMD, shutil.which("epmd")):
        if candidate and os.access(candidate, os.X_OK):
            return Path(candidate)
    raise RuntimeError("epmd not found (it ships with erlang-base, a dependency of rabbitmq-server)")


class RabbitServer:
    """One throwaway broker; ``url`` is its AMQP address with its own user and password."""

    def __init__(self, directory: Path | None = None) -> None:
        self.server = Path(os.environ.get(SERVER_ENV) or SERVER)
        if not os.access(self.server, os.X_OK):
            raise RuntimeError(f"{self.server} not found (apt-get install rabbitmq-server, or scripts/system-deps)")
        self.epmd_bin = find_epmd()
        self.kept = directory is not None
        self.dir = Path(tempfile.mkdtemp(prefix="rmq-")) if directory is None else directory
        self.node, self.user, self.password = self._identity()
        self.port = 0
        self.dist_port = 0
        self.epmd_port = 0
        self._server: subprocess.Popen[bytes] | None = None
        self._epmd: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"amqp://{self.user}:{self.password}@127.0.0.1:{self.port}/"

    @property
    def running(self) -> bool:
        return self._server is not None and self._server.poll() is None

    def start(self) -> None:
        if self.running:
            return
        if not self.port:
            self.port, self.dist_port, self.epmd_port = free_port(), free_port(), free_port()
            self._write_config()
        if self._epmd is None or self._epmd.poll() is not None:
            self._epmd = subprocess.Popen([str(self.epmd_bin), "-port", str(self.epmd_port), "-address", "127.0.0.1"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        log = (self.dir / "server.log").open("ab")
        self._server = subprocess.Popen([str(self.server)], env=self._env(), stdout=log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        deadline = time.monotonic() + READY_TIMEOUT
        while not self._listening():
            if self._server.poll() is not None or time.monotonic() > deadline:
                code = self._server.poll()
                self.stop()
                raise RuntimeError(f"rabbitmq did not accept on port {self.port} ("
                                   f"{'exited ' + str(code) if code is not None else f'{READY_TIMEOUT:.0f} s'}): "
                                   f"{self._log_tail()[-600:]}")
            time.sleep(0.1)

    def stop(self) -> None:
        """SIGTERM to the server's process group (the script's ``erl`` and its helpers), by its PID."""
        process, self._server = self._server, None
        if process is None:
            return
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        try:
            os.killpg(process.pid, signal.SIGKILL)  # helpers (inet_gethost, erl_child_setup) of the group
        except ProcessLookupError:
            pass

    def close(self) -> None:
        self.stop()
        if self._epmd is not None:
            self._epmd.terminate()
            self._epmd.wait(timeout=10)
            self._epmd = None
        if not self.kept:
            shutil.rmtree(self.dir, ignore_errors=True)

    # -- internals ------------------------------------------------------------------------------
    def _identity(self) -> tuple[str, str, str]:
        """Node name, user and password: new for a temporary directory; a kept one's from its
        ``node.json`` (written on its first run), as its Mnesia knows them."""
        fresh = {"node": f"croupier-{secrets.token_hex(4)}@localhost", "user": "croupier",
                 "password": secrets.token_hex(8)}
        if not self.kept:
            return fresh["node"], fresh["user"], fresh["password"]
        self.dir.mkdir(parents=True, exist_ok=True)
        path = self.dir / "node.json"
        if not path.exists():
            path.touch(mode=0o600)
            path.write_text(json.dumps(fresh))
        known = json.loads(path.read_text())
        return str(known["node"]), str(known["user"]), str(known["password"])

    def _env(self) -> dict[str, str]:
        d = self.dir
        return {
            **{k: v for k, v in os.environ.items() if not k.startswith(("RABBITMQ_", "ERL_"))},
            "HOME": str(d),  # the Erlang cookie lives here
            "RABBITMQ_NODENAME": self.node,
            "RABBITMQ_NODE_IP_ADDRESS": "127.0.0.1",
            "RABBITMQ_NODE_PORT": str(self.port),
            "RABBITMQ_DIST_PORT": str(self.dist_port),
            "ERL_EPMD_PORT": str(self.epmd_port),
            "RABBITMQ_BASE": str(d),
            "RABBITMQ_CONF_ENV_FILE": str(d / "rabbitmq-env.conf"),
            "RABBITMQ_CONFIG_FILE": str(d / "rabbitmq.conf"),
            "RABBITMQ_ADVANCED_CONFIG_FILE": str(d / "advanced.config"),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(d / "enabled_plugins"),
            "RABBITMQ_MNESIA_BASE": str(d / "mnesia"),
            "RABBITMQ_LOG_BASE": str(d / "log"),
            "RABBITMQ_PID_FILE": str(d / "server.pid"),
            "RABBITMQ_SERVER_ERL_ARGS": "+S 1:1 +A 4",  # a small node: the machine is shared
        }

    def _write_config(self) -> None:
        d = self.dir
        (d / "rabbitmq-env.conf").write_text("")
        (d / "advanced.config").write_text("[].\n")
        (d / "enabled_plugins").write_text("[].\n")
        (d / "rabbitmq.conf").write_text(
            f"listeners.tcp.default = 127.0.0.1:{self.port}\n"
            f"default_user = {self.user}\n"
            f"default_pass = {self.password}\n"
            "loopback_users = none\n"
            "disk_free_limit.absolute = 1MB\n"
            "log.console = true\n"
            "log.file = false\n")

    def _listening(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False

    def _log_tail(self) -> str:
        path = self.dir / "server.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""
