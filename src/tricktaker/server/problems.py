"""Errors as RFC 9457 problem details: ``type``, ``title``, ``status``, ``detail`` and,
for a ruleset or request error, ``field`` naming the field at fault."""

from __future__ import annotations

import re
from typing import Any

from tricktaker.server.errors import (
    DamagedError,
    InvalidRequestError,
    NotAllowedError,
    NotFoundError,
    NotPossibleNowError,
    NotSignedInError,
    RefusedError,
    UnavailableError,
)

PROBLEM_TYPE_BASE = "https://tricktaker.invalid/problems/"
"""The ``type`` of every problem is this base and a short code (``table-full``)."""

MEDIA_TYPE = "application/problem+json"

PROBLEM_RESPONSES: dict[int | str, dict[str, Any]] = {
    code: {"description": "A problem+json body.", "content": {MEDIA_TYPE: {}}}
    for code in (400, 401, 403, 404, 409, 413, 422, 429, 503)
}
"""The refusals an operation may answer, for its OpenAPI ``responses``: every one an
RFC 9457 problem body (a 400 for a body that is not JSON at all)."""

_TITLES = {
    400: "Bad request",
    401: "Not signed in to this seat",
    403: "Not allowed",
    404: "Not found",
    409: "Not possible now",
    413: "Request too large",
    422: "Invalid request",
    429: "Too many requests",
    500: "Server error",
    503: "Service unavailable",
}


_STATUS: tuple[tuple[type[RefusedError], int], ...] = (
    (NotFoundError, 404),
    (NotSignedInError, 401),
    (NotAllowedError, 403),
    (NotPossibleNowError, 409),
    (InvalidRequestError, 422),
    (DamagedError, 500),
    (UnavailableError, 503),
)
"""The HTTP status of each kind of refusal."""


def status_of(refusal: RefusedError) -> int:
    """The HTTP status that answers ``refusal``."""
    for kind, status in _STATUS:
        if isinstance(refusal, kind):
            return status
    return 400


def problem_of(refusal: RefusedError) -> tuple[int, dict[str, Any]]:
    """The HTTP status and problem+json body that answer ``refusal``: the one mapping
    of the services' refusals to HTTP."""
    status = status_of(refusal)
    body = problem(status, refusal.code, refusal.detail, field=refusal.field)
    body.update(refusal.extra())
    return status, body


def problem(status: int, code: str, detail: str, *, field: str | None = None) -> dict[str, Any]:
    """A problem+json body."""
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE_BASE + code,
        "title": _TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
    }
    if field is not None:
        body["field"] = field
    return body


_RULESET_FIELD = re.compile(r"^[^:\s]+(?::\d+:\d+)?: (?P<field>[A-Za-z_][\w.\[\]]*): ")


def ruleset_field(message: str) -> str | None:
    """The ruleset field a :class:`~tricktaker.rules.RulesetError` message names
    (``house.toml:3:9: bidding.hook: ...`` -> ``bidding.hook``), if any."""
    found = _RULESET_FIELD.match(message)
    return found["field"] if found else None
