"""``[studio]`` is checked at start like a table's config: typos named, keys read, rules built."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.studio.config import StudioConfigError, load

GOOD = """
[studio]
database = "postgresql:///studio"
[studio.tables.rl-eu]
game = "roulette"
preset = "european"
[studio.operators.casino-a]
algorithm = "HS256"
secret_file = "casino-a.secret"
issuer = "casino-a"
[mqtt]
broker = "mqtt://studio@127.0.0.1:1883"
insecure = true
password = "x"
"""


def write(tmp_path: Path, text: str, secret: str = "s" * 40, mode: int = 0o600) -> Path:
    key = tmp_path / "casino-a.secret"
    key.write_text(secret)
    key.chmod(mode)
    path = tmp_path / "studio.toml"
    path.write_text(text)
    return path


def test_a_good_config_loads_with_its_keys(tmp_path: Path) -> None:
    cfg = load(write(tmp_path, GOOD))
    assert cfg.keys() == {"casino-a": "s" * 40}
    assert cfg.studio.tables["rl-eu"].game_rules().limits["straight"].max > 0


@pytest.mark.parametrize(("change", "said"), [
    (("port = 8470", "prot = 8470"), "studio.prot: Extra inputs are not permitted (did you mean 'port'?)"),
    (('issuer = "casino-a"', 'issuer = "casino-a"\naudiense = "x"'), "did you mean 'audience'?"),
    (('preset = "european"', 'preset = "european"\nlimts = {}'), "did you mean 'limits'?"),
    (('game = "roulette"', 'game = "rulette"'), "studio.tables.rl-eu: no game 'rulette'"),
    (('algorithm = "HS256"', 'algorithm = "none"'), "algorithm"),
    (('algorithm = "HS256"', 'algorithm = "RS256"'), "RS256 takes public_key_file"),
])
def test_a_bad_key_is_named(tmp_path: Path, change: tuple[str, str], said: str) -> None:
    text = GOOD.replace('database = "postgresql:///studio"', 'database = "postgresql:///studio"\nport = 8470')
    with pytest.raises(StudioConfigError) as caught:
        load(write(tmp_path, text.replace(*change)))
    assert said in str(caught.value)


def test_a_secret_others_can_read_or_too_short_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StudioConfigError, match="readable by others"):
        load(write(tmp_path, GOOD, mode=0o644))
    with pytest.raises(StudioConfigError, match="at least 32 bytes"):
        load(write(tmp_path, GOOD, secret="short"))


def test_serve_refuses_a_bad_config_naming_the_key_without_a_traceback(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[3]
    path = write(tmp_path, GOOD.replace('issuer = "casino-a"', 'isuer = "casino-a"'))
    result = subprocess.run([sys.executable, "-m", "controller.cli", "studio", "serve", "--config", str(path)],
                            capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(root)})
    assert result.returncode == 2
    assert "isuer" in result.stderr and "did you mean 'issuer'?" in result.stderr and "Traceback" not in result.stderr
