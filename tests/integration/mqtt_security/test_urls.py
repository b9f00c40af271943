"""``mqtts://`` broker URLs: TLS options from the query, refused typos, a round trip through
``str`` for any user, password and file path, and passwords kept out of ``redacted()``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.mqtt import BrokerUrl


def test_mqtts_with_a_ca_and_a_client_certificate() -> None:
    url = BrokerUrl.parse("mqtts://bj1-controller@broker.floor?cafile=/etc/croupier/ca.pem"
                          "&certfile=/etc/croupier/bj1.pem&keyfile=/etc/croupier/bj1.key")
    assert (url.transport, url.tls, url.host, url.port, url.username, url.password) == \
        ("tcp", True, "broker.floor", 8883, "bj1-controller", None)
    assert (url.cafile, url.certfile, url.keyfile) == ("/etc/croupier/ca.pem", "/etc/croupier/bj1.pem", "/etc/croupier/bj1.key")
    assert not url.anonymous and BrokerUrl.parse(str(url)) == url
    assert BrokerUrl.parse("mqtts://h:8884").port == 8884 and BrokerUrl.parse("mqtts://h").anonymous
    assert not BrokerUrl.parse("mqtts://h?certfile=/c.pem").anonymous  # the certificate names the client
    assert not BrokerUrl.parse("mqtt://h").tls


def test_the_password_never_shows_in_redacted() -> None:
    url = BrokerUrl.parse("mqtts://c:hunter2@h?cafile=/ca.pem")
    assert url.redacted() == "mqtts://c:***@h:8883?cafile=/ca.pem" and url.password == "hunter2"


@pytest.mark.parametrize(("bad", "says"), [
    ("mqtts://h?cafle=/ca.pem", "unknown option 'cafle'"),
    ("mqtts://h?cafile=", "exactly one path"),
    ("mqtts://h?cafile=/a&cafile=/b", "exactly one path"),
    ("mqtts://h?keyfile=/k.pem", "keyfile without certfile"),
    ("mqtt://h?cafile=/ca.pem", "needs TLS"),
    ("unix:///s.sock?cafile=/ca.pem", "needs TLS"),
    ("mqtts://h?cafile", "unreadable query"),
    ("mqtts://", "has no host"),
    ("mqtts://h:99999", "(?i)port out of range"),
])
def test_bad_tls_urls_say_what_is_wrong(bad: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        BrokerUrl.parse(bad)


text = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=20)
path = st.lists(st.text("abcXYZ019._- ", min_size=1, max_size=8), min_size=1, max_size=4).map(lambda p: "/" + "/".join(p))


@given(user=text, password=st.none() | text, cafile=st.none() | path, cert=st.none() | st.tuples(path, st.none() | path),
       port=st.integers(1, 65535))
def test_any_tls_url_survives_a_round_trip(user: str, password: str | None, cafile: str | None,
                                           cert: tuple[str, str | None] | None, port: int) -> None:
    url = BrokerUrl("tcp", "broker.floor", port, user, password, tls=True, cafile=cafile,
                    certfile=cert[0] if cert else None, keyfile=cert[1] if cert else None)
    assert BrokerUrl.parse(str(url)) == url
    if password is not None:
        assert f":{password}@" not in url.redacted()
