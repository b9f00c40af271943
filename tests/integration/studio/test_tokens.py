"""Launch tokens signed with an operator's private key (RS256, ES256): the studio holds only the
public key, takes the algorithm from its config and never from the token, and spends each jti once."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from psycopg_pool import AsyncConnectionPool

from controller.studio.config import OperatorSection
from controller.studio.tokens import TokenRefused, Tokens


def claims(**more: object) -> dict[str, object]:
    now = datetime.now(UTC)
    return {"iss": "casino-b", "aud": "croupier-studio", "sub": "p7", "name": "Seven", "currency": "EUR",
            "jti": uuid.uuid4().hex, "exp": now + timedelta(minutes=5), "limits": {"max_bet": 5000}, **more}


@pytest.mark.parametrize("algorithm", ["RS256", "ES256"])
async def test_a_public_key_operator(tmp_path: Path, pool: AsyncConnectionPool[Any], algorithm: str) -> None:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048) if algorithm == "RS256" \
        else ec.generate_private_key(ec.SECP256R1())
    public = tmp_path / "casino-b.pem"
    public.write_bytes(private.public_key().public_bytes(serialization.Encoding.PEM,
                                                         serialization.PublicFormat.SubjectPublicKeyInfo))
    section = OperatorSection(algorithm=algorithm, public_key_file=public, issuer="casino-b")  # type: ignore[arg-type]
    tokens = Tokens(pool, {"casino-b": section}, {"casino-b": section.key(tmp_path)})
    good = jwt.encode(claims(), private, algorithm=algorithm)
    who = await tokens.join(good)
    assert (who.operator, who.player, who.name, who.currency, who.max_bet) == ("casino-b", "p7", "Seven", "EUR", 5000)
    with pytest.raises(TokenRefused) as replayed:
        await tokens.join(good)
    assert replayed.value.reason == "token_replayed"
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048) if algorithm == "RS256" \
        else ec.generate_private_key(ec.SECP256R1())
    # signed by someone else's key; and an HS256 token keyed with the public key (algorithm confusion)
    pem = public.read_text()
    for forged in (jwt.encode(claims(), other, algorithm=algorithm), _hs256_with(pem)):
        with pytest.raises(TokenRefused) as refused:
            await tokens.join(forged)
        assert refused.value.reason == "token_invalid"


def _hs256_with(key: str) -> str:
    """An HS256 token whose 'secret' is the operator's public key (PyJWT refuses to make one, so by hand)."""
    import base64
    import hashlib
    import hmac
    import json

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    body = {k: (int(v.timestamp()) if isinstance(v, datetime) else v) for k, v in claims().items()}
    head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + b64(json.dumps(body).encode())
    return head + "." + b64(hmac.new(key.encode(), head.encode(), hashlib.sha256).digest())
