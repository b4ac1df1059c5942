"""Fixtures for the card-room tests: one real PostgreSQL cluster per run, one database per test.

Test modules import them (``from pgfixtures import db, pg``): a conftest.py here would shadow
the top-level one that other test modules import as ``conftest``.
"""

from __future__ import annotations

import atexit
import functools
import itertools

import psycopg
import pytest
from pgserver import PgServer

from dealer_assist.cardroom import schema

_numbers = itertools.count(1)


@functools.cache
def shared_server() -> PgServer:
    """The run's one cluster, stopped and deleted when the test process ends."""
    server = PgServer()
    atexit.register(server.close)
    return server


@pytest.fixture(scope="session")
def pg():
    return shared_server()


@pytest.fixture
def db(pg):
    """A fresh database with the card-room schema; yields its owner's URL."""
    name = f"cardroom_{next(_numbers)}"
    with psycopg.connect(pg.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = pg.url(db=name)
    with psycopg.connect(url, autocommit=True) as conn:
        schema.migrate(conn)
    return url


@pytest.fixture
def tablet(pg, db):
    """Make a login role that is table ``card_table``'s tablet; returns its URL."""
    dbname = db.rsplit("/", 1)[1]

    def make(card_table: str, role: str | None = None) -> str:
        role = role or f"tablet_{card_table.lower()}_{dbname}"
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(f"CREATE ROLE {role} LOGIN IN ROLE cardroom_tablet")
            conn.execute("INSERT INTO tablets (role, card_table) VALUES (%s, %s)",
                         [role, card_table])
        return pg.url(user=role, db=dbname)

    return make


@pytest.fixture
def office(pg, db):
    """A back-office login role; returns its URL."""
    dbname = db.rsplit("/", 1)[1]
    role = f"office_{dbname}"
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN IN ROLE cardroom_office")
    return pg.url(user=role, db=dbname)
