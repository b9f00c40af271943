"""A production mosquitto for a floor of tables (``croupier broker-config``): a TLS listener, one
account per controller, bet spot, pit dashboard and read-only consumer, and the ACL that lets
each publish only what it owns (docs/security.md, docs/protocols.md for the topics):

- ``<table>-controller``: the table's feed (``event round alert ledger state prompt online``)
  and the spots' lamps out; its ``command`` topic and the spots' ``press``/``online`` in;
- ``<table>-spot-<n>``: its own ``press`` and ``online`` out, its own ``lamp`` in;
- with ``--bind-client-ids``, every client's id is its user name (``use_username_as_clientid``),
  so no password can take another account's session, and the table's spots link logs in as
  ``<table>-spots`` (the controller's password) beside its feed as ``<table>-controller``;
- the pit dashboard's account (``pit``): every table's topics in, and alone the ``command`` topics out
  (and a studio's tables' ``studio_command``: its acknowledgement of the studio's alerts);
- read-only accounts (``viewer``): the feed topics in, nothing out;
- the back office's account (``--backoffice``), read-only like a viewer, plus the pit commands;
- a studio's account (``--studio NAME=T1,T2``, docs/studio.md): alone it writes those tables'
  ``studio`` topic (its seal and totals), it reads their ``studio_command`` (the pit's
  acknowledgement of its alerts), it writes their ``alert`` (its flagged wallet movements,
  docs/operators.md), and it reads their ``betting``, ``round``, ``state``, ``head`` and ``event``;
  those tables' controllers read their ``studio`` topic and write ``betting``;
- on a central broker (``--central``), one account per pit bridge (``bridge-<pit>``) that may
  write only its own pit's tables' forwarded topics, and read their ``command`` only when the
  pit takes commands from the centre; no table or spot account (those log in at their pit).

A pit broker's config can carry its bridge to a central broker (``bridge_conf``): ``round``,
``alert``, ``ledger``, ``online``, ``head`` and ``state`` out, ``command`` in only if asked.

mosquitto's ``%u`` pattern cannot take the spot number out of a user name, so the ACL names every
account. Passwords are random (32 bytes, URL-safe), hashed for ``password_file`` in mosquitto's
own PBKDF2-SHA512 format, and handed to the operator in ``secrets/<user>.secret`` (mode 0600),
one file per account, ready to be a controller's ``password_file``.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from controller.feed.messages import Topics

#: the topics a controller publishes for the pit: every leaf the feed has, but those it reads
#: (``command``, ``studio``), and ``head`` (the journal's published head, docs/protocols.md)
FEED_LEAVES = tuple(dict.fromkeys(
    [name for name, value in vars(Topics).items() if isinstance(value, property) and name not in ("command", "studio")]
    + ["head"]))
#: what a studio reads of its tables (docs/studio.md)
STUDIO_LEAVES = ("betting", "round", "state", "head", "event")
#: what a pit's bridge forwards to the central broker (not ``event`` or ``prompt``: the busy ones)
BRIDGED_LEAVES = ("round", "alert", "ledger", "online", "head", "state")
#: what the back office reads (docs/backoffice.md)
BACKOFFICE_LEAVES = ("round", "alert", "event", "head", "state")
PASSWD_ITERATIONS = 101  # mosquitto_passwd's default; the passwords are random, not guessable words
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
USER_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")


@dataclass(frozen=True)
class Table:
    id: str
    spots: int


@dataclass(frozen=True)
class Account:
    username: str
    password: str
    #: (access, topic) pairs: access is "read" or "write"
    topics: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class TlsPaths:
    """Where the broker will find its CA, certificate and key (paths on the broker's host)."""

    cafile: Path
    certfile: Path
    keyfile: Path


def parse_tables(spec: str, default_spots: int) -> list[Table]:
    """``bj1,bj2:5,rl1:0`` -> tables with ``default_spots`` unless ``:N`` says otherwise."""
    tables: list[Table] = []
    for item in filter(None, (part.strip() for part in spec.split(","))):
        name, _, count = item.partition(":")
        if not TABLE_ID.fullmatch(name):
            raise ValueError(f"table id {name!r}: letters, digits, - and _ only (at most 32)")
        if count and not (count.isdigit() and int(count) <= 999):
            raise ValueError(f"{item!r}: spots after ':' is a number from 0 to 999")
        if any(t.id == name for t in tables):
            raise ValueError(f"table {name!r} given twice")
        tables.append(Table(name, int(count) if count else default_spots))
    if not tables:
        raise ValueError("no table given (e.g. --tables bj1,bj2)")
    return tables


@dataclass(frozen=True)
class PitBridge:
    """A pit whose broker bridges to this (central) broker: its name and its tables."""

    name: str
    tables: tuple[str, ...]
    commands: bool = False

    @property
    def username(self) -> str:
        return f"bridge-{self.name}"


def _members(option: str, spec: str, members: str, tables: list[Table]) -> tuple[str, ...]:
    """The table ids of ``T1,T2`` in ``--option NAME=T1,T2``: from ``--tables``, at least one."""
    known = {t.id for t in tables}
    ids = tuple(filter(None, (m.strip() for m in members.split(","))))
    unknown = [t for t in ids if t not in known]
    if not ids or unknown:
        raise ValueError(f"{option} {spec!r}: tables from --tables, at least one ({', '.join(unknown)} unknown)")
    return ids


@dataclass(frozen=True)
class Studio:
    """The remote players' studio (``croupier studio``) and the tables it takes bets for."""

    username: str
    tables: tuple[str, ...]


def parse_studios(specs: Iterable[str], tables: list[Table]) -> list[Studio]:
    """``studio=rl1,bj1``: the studio's account name and its tables."""
    out: list[Studio] = []
    for spec in specs:
        name, sep, members = spec.partition("=")
        if not sep or not USER_NAME.fullmatch(name):
            raise ValueError(f"--studio {spec!r}: NAME=T1,T2 (the studio's account, then its tables)")
        out.append(Studio(name, _members("--studio", spec, members, tables)))
    return out


def parse_bridges(specs: Iterable[str], tables: list[Table]) -> list[PitBridge]:
    """``north=bj1,bj2`` (``north+commands=...``: the centre may command that pit's tables)."""
    out: list[PitBridge] = []
    for spec in specs:
        name, sep, members = spec.partition("=")
        name, plus, flag = name.partition("+")
        if not sep or not USER_NAME.fullmatch(name) or (plus and flag != "commands"):
            raise ValueError(f"--pit-bridge {spec!r}: PIT=T1,T2 (or PIT+commands=T1,T2)")
        ids = _members("--pit-bridge", spec, members, tables)
        taken = {t for b in out for t in b.tables} & set(ids)
        if taken:
            raise ValueError(f"--pit-bridge {spec!r}: {sorted(taken)[0]} is in two pits")
        out.append(PitBridge(name, ids, bool(plus)))
    return out


def accounts(tables: Iterable[Table], pit: str = "pit", readers: Iterable[str] = ("viewer",), *,
             backoffice: str | None = None, bridges: Iterable[PitBridge] = (), central: bool = False,
             bind_client_ids: bool = False, studios: Iterable[Studio] = ()) -> list[Account]:
    """Every account of the floor with a fresh random password and the topics it may use."""
    tables = list(tables)
    bridges = list(bridges)
    studios = list(studios)
    remote = {t for s in studios for t in s.tables}
    names = [pit, *readers, *([backoffice] if backoffice else [])]
    for name in names:
        if not USER_NAME.fullmatch(name):
            raise ValueError(f"account name {name!r}: letters, digits, '.', '-' and '_' only")
    out = [a for t in ([] if central else tables) for a in _table_accounts(t, bind_client_ids, t.id in remote)]
    pit_topics = [(access, f"croupier/{t.id}/{leaf}") for t in tables for access, leaf in (("read", "#"), ("write", "command"))]
    # the studio's own alerts (its flagged wallet movements) are acknowledged to the studio
    pit_topics += [("write", f"croupier/{t}/studio_command") for t in sorted(remote)]
    out.append(_account(pit, pit_topics))
    for reader in readers:
        out.append(_account(reader, [("read", f"croupier/{t.id}/{leaf}") for t in tables for leaf in FEED_LEAVES]))
    if backoffice:
        out.append(_account(backoffice, [("read", f"croupier/{t.id}/{leaf}") for t in tables for leaf in BACKOFFICE_LEAVES]))
    out += [_studio_account(studio) for studio in ([] if central else studios)]
    out += [_bridge_account(bridge) for bridge in bridges]
    taken = [a.username for a in out]
    clash = sorted({n for n in taken if taken.count(n) > 1})
    if clash:
        raise ValueError(f"account name {clash[0]!r} is used twice")
    return out


def _table_accounts(t: Table, bind_client_ids: bool, remote: bool) -> list[Account]:
    """A table's controller (and, with ``bind_client_ids``, its spots link's) account, and one per
    bet spot; a ``remote`` table's controller reads the studio's seal and totals too."""
    root = f"croupier/{t.id}"
    controller = [("write", f"{root}/{leaf}") for leaf in FEED_LEAVES]
    controller += [("read", f"{root}/head")]  # its last run's retained head, checked at start (feed.py)
    controller += [("read", f"{root}/command")]
    studio_link = [("read", f"{root}/studio")] if remote else []  # the studio's seal and totals
    spot_link = [("write", f"{root}/spot/+/lamp"), ("read", f"{root}/spot/+/press"), ("read", f"{root}/spot/+/online")]
    if bind_client_ids:
        # one connection per account: the table's spots link gets its own account, same password
        own = _account(f"{t.id}-controller", controller + studio_link)
        out = [own, Account(f"{t.id}-spots", own.password, tuple(spot_link))]
    else:
        # one account for both of the table's links, its rights in the order they always had
        out = [_account(f"{t.id}-controller", [*controller[:-1], spot_link[0], controller[-1], *spot_link[1:],
                                               *studio_link])]
    for n in range(1, t.spots + 1):
        spot = f"{root}/spot/{n}"
        out.append(_account(f"{t.id}-spot-{n}", [("write", f"{spot}/press"), ("write", f"{spot}/online"),
                                                  ("read", f"{spot}/lamp")]))
    return out


def _studio_account(studio: Studio) -> Account:
    """A studio writes its tables' ``studio`` topic and reads what it needs of them (docs/studio.md)."""
    rights = [("write", f"croupier/{t}/{leaf}") for t in studio.tables for leaf in ("studio", "alert")]
    return _account(studio.username, rights + [("read", f"croupier/{t}/{leaf}") for t in studio.tables
                                               for leaf in (*STUDIO_LEAVES, "studio_command")])


def _bridge_account(bridge: PitBridge) -> Account:
    """A pit bridge writes its tables' bridged leaves (and reads their commands where the centre may command)."""
    rights = [("write", f"croupier/{t}/{leaf}") for t in bridge.tables for leaf in BRIDGED_LEAVES]
    rights += [("read", f"croupier/{t}/command") for t in bridge.tables] if bridge.commands else []
    return _account(bridge.username, rights)


def _account(username: str, topics: list[tuple[str, str]]) -> Account:
    return Account(username, secrets.token_urlsafe(32), tuple(topics))


def acl_text(accounts: Iterable[Account]) -> str:
    """mosquitto's acl_file: nothing for anyone not named (anonymous clients are refused anyway)."""
    blocks = []
    for a in accounts:
        blocks.append("\n".join([f"user {a.username}", *(f"topic {access} {topic}" for access, topic in a.topics)]))
    return "# written by croupier broker-config: one block per account, nothing else is allowed\n\n" + \
        "\n\n".join(blocks) + "\n"


def password_hash(password: str, salt: bytes | None = None, iterations: int = PASSWD_ITERATIONS) -> str:
    """mosquitto 2's ``$7$`` format (PBKDF2-HMAC-SHA512), as ``mosquitto_passwd`` writes it."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def passwd_text(accounts: Iterable[Account]) -> str:
    return "".join(f"{a.username}:{password_hash(a.password)}\n" for a in accounts)


def mosquitto_conf(directory: Path, tls: TlsPaths, *, port: int = 8883, bind: str | None = None,
                   client_certificates: bool = False, bind_client_ids: bool = False) -> str:
    """One TLS listener, no anonymous clients, the password file and ACL in ``directory``."""
    listener = f"listener {port} {bind}" if bind else f"listener {port}"
    lines = [
        "# written by croupier broker-config (docs/security.md); TLS only, every client logs in",
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {directory / 'passwd'}",
        f"acl_file {directory / 'acl'}",
        "persistence true",
        "persistence_location /var/lib/mosquitto/",
        "max_queued_messages 10000",
        # QoS 1 messages in flight to one client at a time: the back office acknowledges after its
        # commit, so this is its largest batch (mosquitto's default of 20 caps it near 1,000 msg/s)
        "max_inflight_messages 200",
        # a message to a subscriber right after another (a table's round record after its betting
        # leaf) waited ~40 ms on Nagle for the ACK of the one before
        "set_tcp_nodelay true",
        "",
        listener,
        "protocol mqtt",
        f"cafile {tls.cafile}",
        f"certfile {tls.certfile}",
        f"keyfile {tls.keyfile}",
        "tls_version tlsv1.2",
        f"require_certificate {'true' if client_certificates else 'false'}",
    ]
    if bind_client_ids:  # a client's id is its user name: no account can take another's session
        lines.append("use_username_as_clientid true")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class BridgeTo:
    """This pit broker's bridge to the central broker."""

    name: str  # the pit's name: the central account is ``bridge-<name>``
    host: str
    port: int
    cafile: Path  # the CA of the central broker's certificate (a path on this broker's host)
    password: str
    commands: bool = False


def bridge_to(address: str | None, name: str | None, cafile: Path | None, password_file: Path | None,
              commands: bool = False) -> BridgeTo | None:
    """The ``--bridge-*`` options as a bridge (None without ``--bridge-to``); ValueError naming what is missing."""
    if address is None:
        if name or cafile or password_file or commands:
            raise ValueError("--bridge-name, --bridge-cafile, --bridge-password-file and --bridge-commands need --bridge-to")
        return None
    host, _, port_text = address.rpartition(":")
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"--bridge-to {address!r}: HOST:PORT of the central broker's TLS listener")
    if name is None or not USER_NAME.fullmatch(name):
        raise ValueError("--bridge-to needs --bridge-name: this pit's name (letters, digits, '.', '-', '_')")
    if cafile is None or password_file is None:
        raise ValueError("--bridge-to needs --bridge-cafile (the central CA) and --bridge-password-file "
                         f"(the central broker's secrets/bridge-{name}.secret)")
    password = password_file.read_text().strip()
    if not password or any(c.isspace() for c in password):
        raise ValueError(f"{password_file}: one password on one line")
    return BridgeTo(name, host, int(port_text), cafile.absolute(), password, commands)


def bridge_conf(bridge: BridgeTo, tables: Iterable[Table]) -> str:
    """A mosquitto bridge: every table's forwarded topics out at QoS 1 over TLS, ``command`` in
    only if asked. ``cleansession false``: the central broker keeps the bridge's session, and this
    broker queues what the bridge could not send while the link was down, sent once it is back."""
    lines = [
        "",
        f"# bridge of pit {bridge.name} to the central broker (docs/backoffice.md)",
        f"connection croupier-bridge-{bridge.name}",
        f"address {bridge.host}:{bridge.port}",
        f"remote_clientid croupier-bridge-{bridge.name}",
        f"remote_username bridge-{bridge.name}",
        f"remote_password {bridge.password}",
        f"bridge_cafile {bridge.cafile}",
        "bridge_insecure false",
        "bridge_protocol_version mqttv311",
        "try_private false",
        "cleansession false",
        "notifications false",
        "restart_timeout 1 10",
        "start_type automatic",
    ]
    for t in tables:
        lines += [f"topic croupier/{t.id}/{leaf} out 1" for leaf in BRIDGED_LEAVES]
        if bridge.commands:
            lines.append(f"topic croupier/{t.id}/command in 1")
    return "\n".join(lines) + "\n"


def write_private(path: Path, text: str) -> None:
    """Created 0600 from the first byte (never world-readable, even for an instant)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    path.chmod(0o600)


def write_files(out: Path, floor: list[Account], conf: str) -> list[Path]:
    """mosquitto.conf, passwd and acl in ``out``; each password in ``out/secrets/<user>.secret``."""
    out.mkdir(parents=True, exist_ok=True)
    secrets_dir = out / "secrets"
    secrets_dir.mkdir(mode=0o700, exist_ok=True)
    secrets_dir.chmod(0o700)
    written = [out / "mosquitto.conf", out / "acl"]
    if "\nremote_password " in conf:  # a bridge's password is in it: the broker's user alone reads it
        write_private(out / "mosquitto.conf", conf)
    else:
        (out / "mosquitto.conf").write_text(conf)
    (out / "acl").write_text(acl_text(floor))
    write_private(out / "passwd", passwd_text(floor))
    written.append(out / "passwd")
    for account in floor:
        path = secrets_dir / f"{account.username}.secret"
        write_private(path, account.password + "\n")
        written.append(path)
    return written


def generate(out: Path, tables: list[Table], *, tls: TlsPaths | None, make_ca: bool, hosts: list[str],
             port: int = 8883, bind: str | None = None, pit: str = "pit", readers: Iterable[str] = ("viewer",),
             client_certificates: bool = False, install_dir: Path | None = None, backoffice: str | None = None,
             bridges: Iterable[PitBridge] = (), central: bool = False, bridge_to: BridgeTo | None = None,
             bind_client_ids: bool = False, studios: Iterable[Studio] = ()) -> list[str]:
    """Everything ``croupier broker-config`` writes; returns what to tell the operator.
    ValueError (or ``lab_ca.CaError``) on anything it cannot do, before writing a file."""
    if (out / "mosquitto.conf").exists():
        raise ValueError(f"{out / 'mosquitto.conf'} exists: choose an empty --out directory (passwords would change)")
    if (tls is None) == (not make_ca):
        raise ValueError("give the broker's TLS files (--cafile, --certfile, --keyfile) or --make-ca for a lab, not both")
    bridges = list(bridges)
    if central and bridge_to is not None:
        raise ValueError("a central broker has no bridge of its own: give --central or --bridge-to, not both")
    studios = list(studios)
    floor = accounts(tables, pit, readers, backoffice=backoffice, bridges=bridges, central=central,
                     bind_client_ids=bind_client_ids, studios=studios)
    home = (install_dir or out).absolute()
    notes: list[str] = []
    if make_ca:
        from controller import lab_ca

        ca = lab_ca.make_ca(out / "tls")
        lab_ca.issue(ca, out / "tls", "broker", hosts=hosts)
        tls = TlsPaths(home / "tls" / "ca.pem", home / "tls" / "broker.pem", home / "tls" / "broker.key")
        notes.append(f"lab CA: {out / 'tls' / 'ca.pem'} (give it to every client as ?cafile=); "
                     f"broker certificate for {', '.join(hosts)}; keep {out / 'tls' / 'ca.key'} off the floor")
    assert tls is not None
    conf = mosquitto_conf(home, tls, port=port, bind=bind, client_certificates=client_certificates,
                          bind_client_ids=bind_client_ids)
    if bridge_to is not None:
        conf += bridge_conf(bridge_to, tables)
        notes.append(f"bridge of pit {bridge_to.name} to {bridge_to.host}:{bridge_to.port} "
                     f"({'command in, ' if bridge_to.commands else ''}{', '.join(BRIDGED_LEAVES)} out); "
                     "mosquitto.conf holds its password: mode 0600")
    written = write_files(out, floor, conf)
    notes[:0] = [f"wrote {path}" for path in written[:3]]
    notes.append(f"{len(floor)} accounts; their passwords are in {out / 'secrets'}/<user>.secret (mode 0600)")
    notes.append("mosquitto runs as user mosquitto: chown mosquitto the passwd file and the broker key, "
                 f"then: mosquitto -c {home / 'mosquitto.conf'}")
    for b in bridges:
        notes.append(f"pit {b.name}: its broker bridges here as {b.username} (secrets/{b.username}.secret: give it to "
                     f"that pit's broker-config as --bridge-password-file)")
    for s in studios:
        notes.append(f"studio {s.username} ({', '.join(s.tables)}): its broker URL is mqtts://{s.username}@{hosts[0]}:{port}"
                     f"?cafile=/etc/croupier/ca.pem; set [table] remote = true on those tables")
    if backoffice:
        notes.append(f"back office: [mqtt] broker = \"mqtts://{backoffice}@{hosts[0]}:{port}?cafile=/etc/croupier/ca.pem\"")
    for t in [] if central or not bind_client_ids else tables:
        notes.append(f"table {t.id}: [devices.spots] broker = \"mqtts://{t.id}-spots@{hosts[0]}:{port}?cafile=/etc/croupier/ca.pem\""
                     " (client ids are bound to accounts: the spots link has its own, with the controller's password)")
    for t in [] if central else tables:
        notes.append(f"table {t.id}: [mqtt] broker = \"mqtts://{t.id}-controller@{hosts[0]}:{port}?cafile=/etc/croupier/ca.pem\""
                     f", password_file = \"/etc/croupier/mqtt.secret\" (a copy of secrets/{t.id}-controller.secret)")
    return notes
