"""The blackjack tables' harness (stacked shoe on a pty, journal on disk) and the pit feed's
fixtures (journal, a watching pit client) for the flood and pit-command tests."""

from tests.integration.feed.conftest import journal, journal_path, pit
from tests.integration.table.conftest import table_factory

__all__ = ["journal", "journal_path", "pit", "table_factory"]
