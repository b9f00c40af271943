"""`croupier hash-password`: the hash an operator pastes into `[accounts.<name>] password_hash`."""

from typer.testing import CliRunner

from controller.auth import Account, Accounts
from controller.cli import app


def test_the_printed_hash_signs_the_account_in() -> None:
    result = CliRunner().invoke(app, ["hash-password", "--stdin"], input="correct horse battery\n")
    assert result.exit_code == 0, result.output
    printed = result.output.strip()
    assert printed.startswith("$argon2id$") and "correct horse" not in printed
    accounts = Accounts({"dana": Account("dana", "dealer", printed)})
    assert accounts.sign_in("dana", "correct horse battery") is not None
    assert accounts.sign_in("dana", "correct horse batterY") is None


def test_a_too_short_password_is_refused() -> None:
    result = CliRunner().invoke(app, ["hash-password", "--stdin"], input="short\n")
    assert result.exit_code == 2
    assert "8 to 256" in result.output
