"""Schemathesis over the server's own OpenAPI schema (issue 11, point 6).

docs/protocol.md, HTTP API: every refusal is a 4xx problem body; the server never answers
with a server error, and every answer matches the schema it publishes at
``/openapi.json``. Schemathesis generates requests from that schema (valid and invalid
bodies, paths, headers) for every operation and checks each answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import argon2
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

from tricktaker.server import create_app
from tricktaker.server.accounts import passwords

CONFIG = schemathesis.Config.from_dict(
    {
        "checks": {
            # A request the schema allows may still name no game, an unknown bot, a seat
            # the table lacks: a 422 problem naming the field (docs/protocol.md, Errors).
            "positive_data_acceptance": {
                "expected-statuses": ["2xx", "3xx", 401, 403, 404, 409, 422, 429]
            },
            # A body over 64 KiB is refused before it is read: 413.
            "negative_data_rejection": {
                "expected-statuses": [400, 401, 403, 404, 405, 409, 413, 415, 422, 429]
            },
        }
    }
)


@pytest.fixture
def api_schema(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[schemathesis.schemas.BaseSchema]:
    """The server's schema, loaded from the running application (its lifespan run), with
    one real table (:data:`TABLES`) so that generated requests reach past the 404. No
    per-address HTTP rate limit: every request here comes from one address, and a 429
    would hide the operation behind it. Passwords are hashed by argon2 with its cheapest
    parameters: the hundreds of sign-ups and log-ins generated here check the answers'
    shapes, not the hash's cost (tests/server/test_accounts.py runs the real one)."""
    cheapest = argon2.PasswordHasher.from_parameters(argon2.profiles.CHEAPEST)
    monkeypatch.setattr(passwords, "HASHER", cheapest)
    app = create_app(db_url, http_rate=None)
    with TestClient(app) as client:
        made = client.post("/tables", json={"game": "blackout", "seats": ["human", "easy"]})
        assert made.status_code == 201, made.text
        TABLES[:] = [made.json()["table"]["id"]]
        yield schemathesis.openapi.from_asgi("/openapi.json", app, config=CONFIG)


TABLES: list[str] = []
"""The id of the real table of the running test's server."""

schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_api_answers_every_request_as_its_schema_says(case: schemathesis.Case[Any]) -> None:
    """docs/protocol.md, HTTP API, Errors: no 5xx, and every answer (status, content
    type, body) conforms to the published schema. Half the requests that name a table
    name the real one."""
    table_id = (case.path_parameters or {}).get("table_id")
    if isinstance(table_id, str) and len(table_id) % 2 == 0 and TABLES:
        case.path_parameters = {**(case.path_parameters or {}), "table_id": TABLES[0]}
    case.call_and_validate()
