"""``croupier anchor``: a recorder off the table that keeps every journal head it sees.

Each table's feed publishes its journal head (seq and chain hash) on the retained
``croupier/<table>/head`` topic after every round and at least once a minute while it moves.
The anchor subscribes to every table's head and appends each new one to a file, one JSON line
per head, synced to disk. Heads kept here are the outside witness ``croupier verify-journal
--against FILE`` checks the journal against: a journal rewritten after a head was recorded no
longer has that row with that hash, even if whoever rewrote it had the journal's key
(docs/security.md). Run it on another machine than the tables, under an account that may only
read the feed.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Annotated, TextIO

import typer

from controller.journal import utc_now
from controller.verify import Head, parse_head

log = logging.getLogger(__name__)

HEADS = "croupier/+/head"
CLIENT_ID = "croupier-anchor"


class HeadFile:
    """Appends heads to a file, each durable (fsync) before the next is read; a head already
    recorded for its table (same seq and hash) is not written again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._last: dict[str, tuple[int, str]] = {}
        self.recorded = 0
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    head = parse_head(json.loads(line))
                except ValueError:
                    continue
                if head is not None:
                    self._last[head.table] = (head.seq, head.hash)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o640)
        self._out: TextIO = os.fdopen(fd, "a", encoding="utf-8")

    def record(self, head: Head) -> bool:
        if self._last.get(head.table) == (head.seq, head.hash):
            return False
        line = {"v": 1, "table": head.table, "seq": head.seq, "hash": head.hash, "ts": head.ts, "seen": utc_now()}
        self._out.write(json.dumps(line, separators=(",", ":")) + "\n")
        self._out.flush()
        os.fsync(self._out.fileno())
        self._last[head.table] = (head.seq, head.hash)
        self.recorded += 1
        return True

    def close(self) -> None:
        self._out.close()


def head_of(topic: str, payload: bytes) -> Head | None:
    """The head a message carries, if it is one and names the table of its own topic."""
    parts = topic.split("/")
    try:
        head = parse_head(json.loads(payload))
    except ValueError:
        return None
    if head is None or len(parts) != 3 or parts[1] != head.table:
        return None
    return head


async def record(url: str, out: Path, client_id: str = CLIENT_ID) -> None:
    """Record until cancelled."""
    from drivers.mqtt import MqttLink, Received

    heads = HeadFile(out)
    link = MqttLink(url, client_id, backoff_max=5.0)
    subscription = link.subscribe(HEADS, qos=1, limit=10_000)
    try:
        async with link:
            typer.echo(f"anchor: recording {HEADS} to {out}")
            async for item in subscription:
                if not isinstance(item, Received):
                    continue
                head = head_of(str(item.topic), item.payload)
                if head is None:
                    log.warning("anchor: not a journal head on %s: ignored", item.topic)
                    continue
                heads.record(head)
    finally:
        heads.close()


def register(app: typer.Typer) -> None:
    @app.command("anchor")
    def anchor(
        broker: Annotated[str, typer.Option(
            help="mqtts://user@host:8883?cafile=... (a read-only account; password: CROUPIER_MQTT_PASSWORD)")],
        out: Annotated[Path, typer.Option(help="the file heads are appended to, one JSON line each")],
        insecure: Annotated[bool, typer.Option("--insecure", help="allow a plaintext or anonymous broker (lab only)")]
        = False,
        client_id: Annotated[str, typer.Option(help="the recorder's MQTT client id")] = CLIENT_ID,
    ) -> None:
        """Record every table's published journal head to a file (for verify-journal --against)."""
        from pydantic import ValidationError

        from controller import stopping
        from controller.mqtt_config import Mqtt

        try:
            url = Mqtt.model_validate({"broker": broker, "insecure": insecure}).connect_url()
        except ValidationError as exc:
            said = "; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())
            typer.echo(f"error: --broker: {said}", err=True)
            raise typer.Exit(2) from None
        except ValueError as exc:
            typer.echo(f"error: --broker: {exc}", err=True)
            raise typer.Exit(2) from None
        try:
            stopping.run(record(url, out, client_id))
        except OSError as exc:
            typer.echo(f"error: {out}: {exc}", err=True)
            raise typer.Exit(2) from None
