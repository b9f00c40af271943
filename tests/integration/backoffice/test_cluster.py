"""The suite's PostgreSQL is a real server: it keeps data over a restart on the same port, and
each test gets a database of its own."""

from __future__ import annotations

import psycopg

from controller.backoffice.cluster import Cluster
from tests.fixtures.postgres import create_database


def test_a_fresh_database_per_test_on_a_real_server(database: str) -> None:
    with psycopg.connect(database) as conn:
        version = conn.execute("SHOW server_version_num").fetchone()
        tables = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
    assert version is not None and int(version[0]) >= 130000
    assert tables == (0,)


def test_a_restart_keeps_committed_rows_and_the_port(postgres: Cluster) -> None:
    url = create_database(postgres)
    with psycopg.connect(url) as conn:
        conn.execute("CREATE TABLE kept (n int)")
        conn.execute("INSERT INTO kept VALUES (1), (2)")
    port, pid = postgres.port, postgres.pid
    postgres.stop("immediate")  # as after a crash: recovered from the WAL
    assert not postgres.running
    postgres.start()
    assert postgres.port == port and postgres.pid != pid
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT sum(n) FROM kept").fetchone() == (3,)
