"""The in-process table of tests/integration/table (stacked shoe on a pty, journal on disk)."""

from tests.integration.table.conftest import table_factory

__all__ = ["table_factory"]
