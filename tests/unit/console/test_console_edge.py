"""The console's edge: what a page may send, who may send it, what the view hides, the config."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.auth import accounts_from_config, hash_password
from controller.config import ConfigError, load
from controller.console.actions import RequestRefused, check_request, legal_actions, parse_request
from controller.games.blackjack.outcome import BlackjackBox
from controller.games.blackjack.view import BlackjackView
from controller.journal import Entry
from controller.process import build_core
from controller.table import inputs

CONFIG = """
[table]
id = "t1"
game = "blackjack"
preset = "ru6"
journal = "t.journal"
{extra}
"""


def config(tmp_path: Path, extra: str = "") -> Any:
    path = tmp_path / "t.toml"
    path.write_text(CONFIG.format(extra=extra))
    return load(path)


def command(core: Any, seq: int, name: str, **args: Any) -> None:
    core.step(Entry(seq, "2026-01-01T00:00:00Z", core.round_id, inputs.COMMAND, "test", inputs.command(name, **args)))


@pytest.fixture
def core(tmp_path: Path) -> Any:
    table = build_core(config(tmp_path))
    table.step(Entry(1, "2026-01-01T00:00:00Z", None, inputs.DEVICE, "shoe", {"device": "shoe", "type": "online"}))
    return table


def request(name: str, round_id: str | None = None, cseq: int = 1, **args: Any) -> Any:
    return parse_request({"type": "command", "cseq": cseq, "round": round_id, "command": name, "args": args})


def test_only_what_the_table_takes_now_is_offered_and_accepted(core: Any) -> None:
    assert [a["command"] for a in legal_actions(core)] == ["open_round", "new_shoe"]
    assert check_request(core, "dealer", request("open_round")) == {}
    with pytest.raises(RequestRefused, match="not possible now"):
        check_request(core, "dealer", request("close_betting"))
    command(core, 2, "open_round")
    assert [a["command"] for a in legal_actions(core)] == ["bet", "close_betting", "void_round"]
    with pytest.raises(RequestRefused, match="look again"):  # the page still showed no round
        check_request(core, "dealer", request("close_betting"))
    assert check_request(core, "dealer", request("close_betting", core.round_id)) == {}
    bet = request("bet", core.round_id, box=1, amount=1250, kind="main")
    assert check_request(core, "dealer", bet) == {"box": 1, "amount": 1250, "kind": "main"}


def test_pit_actions_are_refused_to_a_dealer(core: Any) -> None:
    for name, args in (("approve_correction", {"correction": 4}), ("acknowledge_alert", {"alert": 2}),
                       ("close_after_round", {}), ("reopen", {})):
        with pytest.raises(RequestRefused, match="pit boss only"):
            check_request(core, "dealer", request(name, **args))
        assert check_request(core, "pit_boss", request(name, **args)) == args


@pytest.mark.parametrize("raw, why", [
    ({"type": "command", "cseq": 1, "round": None, "command": "bet", "args": {"box": 1, "amount": 10.5}}, "amount"),
    ({"type": "command", "cseq": 1, "round": None, "command": "bet", "args": {"box": "1", "amount": 100}}, "box"),
    ({"type": "command", "cseq": 1, "round": None, "command": "bet", "args": {"box": 1, "amount": -5}}, "amount"),
    ({"type": "command", "cseq": 1, "round": None, "command": "bet", "args": {"box": 1, "amount": True}}, "amount"),
    ({"type": "command", "cseq": 1, "round": None, "command": "bet", "args": {"sneaky": 1}}, "sneaky"),
    ({"type": "command", "cseq": 0, "round": None, "command": "open_round"}, "cseq"),
    ({"type": "command", "round": None, "command": "open_round"}, "cseq"),
    ({"type": "command", "cseq": 1, "round": None, "command": "x" * 65}, "command"),
])
def test_malformed_requests_are_refused_naming_the_field(raw: dict[str, Any], why: str) -> None:
    with pytest.raises(RequestRefused, match=why):
        parse_request(raw)


def test_an_impossible_keyed_card_is_refused_at_the_edge(core: Any) -> None:
    command(core, 2, "open_round")
    command(core, 3, "bet", box=1, amount=500, player="A")
    command(core, 4, "close_betting")
    core.step(Entry(5, "t", core.round_id, inputs.DEVICE, "shoe", {"device": "shoe", "type": "noread", "n": 1}))
    assert core.keyin == 1
    picker = legal_actions(core)[0]
    assert picker["widget"] == "cards" and len(picker["cards"]) == 52
    for _ in range(6):  # every ace of spades of the ru6 shoe is out (dealt in earlier rounds)
        core.shoe.composition.take("AS")
    # the offer is built once per step: the next input (any) shows the shoe as it is now
    core.step(Entry(6, "t", core.round_id, inputs.DEVICE, "shoe", {"device": "shoe", "type": "online"}))
    assert "AS" not in legal_actions(core)[0]["cards"]
    with pytest.raises(RequestRefused, match="cannot be in this shoe"):
        check_request(core, "dealer", request("key_card", core.round_id, card="AS"))
    assert check_request(core, "dealer", request("key_card", core.round_id, card="ah")) == {"card": "AH"}
    with pytest.raises(RequestRefused):
        check_request(core, "dealer", request("key_card", core.round_id, card="ZZ"))


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
FIELDS = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["command", "snapshot", 3]), "cseq": st.integers(-2, 2**60) | JSON,
    "round": st.none() | st.text(max_size=10), "command": st.sampled_from(sorted(inputs.COMMANDS)) | JSON,
    "args": st.dictionaries(st.sampled_from(["box", "amount", "card", "kind", "hand", "x"]), JSON, max_size=3)})


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(raw=FIELDS | JSON)
def test_no_request_escapes_as_anything_but_a_refusal(core: Any, raw: Any) -> None:
    try:
        check_request(core, "dealer", parse_request(raw))
    except RequestRefused as exc:
        assert exc.code and exc.message


def test_face_down_cards_never_reach_the_page() -> None:
    def hands(box: dict[str, Any]) -> list[Any]:
        outcome = BlackjackView.outcome_model.model_validate(
            {"phase": "play", "dealer": {"cards": [], "face_down": [], "total": 0, "blackjack": False},
             "boxes": [BlackjackBox.model_validate({"owner": "", "insurance": 0, **box})]})
        return BlackjackView().boxes(outcome)[0]["hands"]

    dark = {"box": 1, "hands": [{"hand": 1, "cards": ["5S", "6D", "KH"], "total": 21, "status": "live",
                                 "multiplier": 2, "face_down": [2]}]}
    (hand,) = hands(dark)
    assert hand["cards"] == ["5S", "6D", None] and hand["total"] is None and hand["state"] == "doubled"
    stood = {"box": 2, "hands": [{"hand": 1, "cards": ["TS", "9C"], "total": 19, "status": "live", "multiplier": 1,
                                  "face_down": []}]}
    assert hands(stood)[0]["state"] == "stood"


def test_console_accounts_and_currency_in_config(tmp_path: Path) -> None:
    digest = hash_password("pw")
    loaded = config(tmp_path, f"""currency = "GBP"

[console]
enabled = true
port = 0

[accounts.dana]
role = "dealer"
password_hash = "{digest}"
""")
    assert loaded.table.currency == "GBP" and loaded.table.currency_digits == 2
    assert loaded.console.enabled and loaded.console.port == 0
    accounts = accounts_from_config(loaded.accounts, ttl=60, clock=lambda: 0.0)
    session = accounts.sign_in("dana", "pw")
    assert session is not None and session.role == "dealer"
    assert accounts.sign_in("dana", "wrong") is None
    assert config(tmp_path).table.currency == "EUR"


@pytest.mark.parametrize("extra, named", [
    ("[console]\nenabeld = true", "console.enabeld"),
    ("[accounts.dana]\nrole = \"croupier\"\npassword_hash = \"$argon2id$x\"", "accounts.dana.role"),
    ("[accounts.dana]\nrole = \"dealer\"\npassword_hash = \"hunter2\"", "accounts.dana.password_hash"),
    ("currency = \"euro\"", "table.currency"),
])
def test_console_config_mistakes_name_the_key(tmp_path: Path, extra: str, named: str) -> None:
    path = tmp_path / "t.toml"
    # a [table] key goes under [table]; a section of its own after it
    path.write_text(CONFIG.format(extra=extra) if not extra.startswith("[") else CONFIG.format(extra="") + extra + "\n")
    with pytest.raises(ConfigError, match=named.replace(".", r"\.")):
        load(path)


def test_sessions_expire_on_the_injected_clock(tmp_path: Path) -> None:
    now = [0.0]
    digest = hash_password("pw")
    loaded = config(tmp_path, f'\n[accounts.dana]\nrole = "dealer"\npassword_hash = "{digest}"\n')
    accounts = accounts_from_config(loaded.accounts, ttl=10, clock=lambda: now[0])
    session = accounts.sign_in("dana", "pw")
    assert session is not None and accounts.session(session.token) == session
    now[0] = 10.0
    assert accounts.session(session.token) is None


def test_the_console_takes_tls_as_a_pair() -> None:
    from pydantic import ValidationError

    from controller.config import ConsoleSection

    assert ConsoleSection(tls_cert="/c.pem", tls_key="/c.key").tls_key == "/c.key"
    with pytest.raises(ValidationError, match="both tls_cert and tls_key"):
        ConsoleSection(tls_cert="/c.pem")


def test_open_betting_is_not_offered_while_the_shoe_is_offline_and_the_console_says_why(tmp_path: Path) -> None:
    from controller.console.actions import refusals

    core = build_core(config(tmp_path))  # the shoe has not reported since the table started
    assert "open_round" not in [a["command"] for a in legal_actions(core)]
    assert [(r["command"], r["code"]) for r in refusals(core)] == [("open_round", "device.shoe.offline")]
    with pytest.raises(RequestRefused, match="the shoe has not reported") as refused:
        check_request(core, "dealer", request("open_round"))
    assert refused.value.code == "console.not_now"
