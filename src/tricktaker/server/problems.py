"""Errors as RFC 9457 problem details: ``type``, ``title``, ``status``, ``detail`` and,
for a ruleset or request error, ``field`` naming the field at fault."""

from __future__ import annotations

import re
from typing import Any

PROBLEM_TYPE_BASE = "https://tricktaker.invalid/problems/"
"""The ``type`` of every problem is this base and a short code (``table-full``)."""

MEDIA_TYPE = "application/problem+json"

PROBLEM_RESPONSES: dict[int | str, dict[str, Any]] = {
    code: {"description": "A problem+json body.", "content": {MEDIA_TYPE: {}}}
    for code in (400, 401, 403, 404, 409, 413, 422, 429)
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
}


class ServiceError(Exception):
    """A request the server refuses, with a message for the player."""

    def __init__(self, status: int, code: str, detail: str, *, field: str | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.field = field

    def body(self) -> dict[str, Any]:
        """The problem+json body."""
        return problem(self.status, self.code, self.detail, field=self.field)


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
