"""People of the server tests: people signed up on a real server (a session cookie, and
the CSRF token a browser's page sends with every request that changes something), and
the databases a module's server runs on (the ``module_server`` fixture of
tests/server/conftest.py).

The modules that sign people up (accounts, clubs, players' pages, duplicate, the
authorization matrix) use these rather than each a copy of its own.
"""

from __future__ import annotations

import ssl
from typing import Any

import httpx
import pytest

from tests.server_process import ServerProcess

PASSWORD = "correct horse battery"
"""Everyone's password in these tests (8 characters or more, as sign-up wants)."""

TLS = ssl.create_default_context()
"""One TLS context for every client made here: the servers are plain HTTP, and
``httpx.Client`` would otherwise load the system's certificates for each client (about
a tenth of a second of CPU)."""

DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
"""The parameters of a module's server: a SQLite file, then a database of the session's
real PostgreSQL server."""


def sign_up(client: httpx.Client, name: str, password: str = PASSWORD, **more: Any) -> Any:
    """Sign up ``name`` (``more``: further fields, such as ``claim``); the client keeps
    the session's cookies. Answers the JSON."""
    made = client.post("/api/signup", json={"name": name, "password": password, **more})
    assert made.status_code == 201, made.text
    return made.json()


def csrf(client: httpx.Client) -> dict[str, str]:
    """The CSRF header of the client's session, from its (readable) CSRF cookie."""
    return {"X-CSRF-Token": client.cookies["tricktaker_csrf"]}


def person(server: ServerProcess, name: str, password: str = PASSWORD) -> httpx.Client:
    """A new client of ``server`` signed up as ``name``, sending its CSRF token with
    every request, as the browser's page does."""
    client = httpx.Client(base_url=server.url, timeout=30, verify=TLS)
    sign_up(client, name, password)
    client.headers.update(csrf(client))
    return client
