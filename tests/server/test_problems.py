"""The services' refusals are domain exceptions; one mapping (problems.problem_of) gives
each its HTTP status and RFC 9457 problem body."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tricktaker.server import errors
from tricktaker.server.problems import PROBLEM_TYPE_BASE, problem_of


@pytest.mark.parametrize(
    ("refusal", "status"),
    [
        (errors.TableNotFoundError("abc"), 404),
        (errors.SheetNotFoundError(), 404),
        (errors.BadSeatTokenError(), 401),
        (errors.NotHostError(), 403),
        (errors.ReadOnlyError(), 403),
        (errors.SeatTakenError(2), 409),
        (errors.TableFullError(), 409),
        (errors.TableMovedOnError(), 409),
        (errors.InvalidRequestError("bad-seats", "Give one entry per seat.", field="seats"), 422),
        (errors.DamagedError("sheet-damaged", "The stored sheet cannot be read."), 500),
    ],
)
def test_each_kind_of_refusal_has_its_status(refusal: errors.RefusedError, status: int) -> None:
    answered, body = problem_of(refusal)
    assert answered == status == body["status"]
    assert body["type"] == PROBLEM_TYPE_BASE + refusal.code
    assert body["detail"] == refusal.detail
    assert body.get("field") == refusal.field


def test_a_refused_entry_names_its_rule() -> None:
    status, body = problem_of(errors.EntryRefusedError("Bids must not total 5.", "bids"))
    assert (status, body["rule"], "field" in body) == (422, "bids", False)
    status, body = problem_of(errors.EntryAfterEndError("The game is over.", "end of game"))
    assert (status, body["rule"]) == (409, "end of game")


def test_the_refusals_know_no_http() -> None:
    """errors.py imports nothing of a web framework and names no status code."""
    source = Path(errors.__file__).read_text(encoding="utf-8")
    tree = ast.parse(source)
    nodes = list(ast.walk(tree))
    imported = {node.module or "" for node in nodes if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in nodes if isinstance(node, ast.Import) for a in node.names}
    assert not {m for m in imported if m.split(".")[0] in ("fastapi", "starlette", "http")}
    numbers = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
    assert not numbers & {400, 401, 403, 404, 409, 413, 422, 429, 500}
