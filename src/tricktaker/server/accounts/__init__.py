"""Player accounts (issue 31; docs/protocol.md, Accounts): user names and argon2
password hashes, sessions in an ``HttpOnly`` cookie with a CSRF token checked on every
request that changes something, log-ins limited per name and per address, and a
guest's seats, tables and sheets kept when they sign up.

:func:`install_accounts` puts them on the server's application. Another route that
wants the signed-in user takes a parameter of type :data:`SignedInUser` (401 without a
session), or depends on :func:`optional_user` (None for a guest).
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from tricktaker.server.accounts.cookies import CsrfCheck, clear_session_cookies
from tricktaker.server.accounts.limits import AccountLimits, TooManyTriesError
from tricktaker.server.accounts.routes import (
    AccountNotSignedInError,
    Accounts,
    SignedIn,
    SignedInUser,
    StaleSessionError,
    accounts_router,
    optional_user,
    signed_in_user,
)
from tricktaker.server.deps import Database
from tricktaker.server.problems import problem, problem_of
from tricktaker.server.request_limits import problem_response

__all__ = [
    "Accounts",
    "SignedIn",
    "SignedInUser",
    "install_accounts",
    "optional_user",
    "signed_in_user",
]


def install_accounts(app: FastAPI, database: Database, *, limits: bool = True) -> Accounts:
    """Mount the account routes on ``app`` with the CSRF check of every request, on
    ``database`` (``limits``: limit failed log-ins and sign-ups; off for benchmarks).
    Call it before the application starts."""
    accounts = Accounts(database, AccountLimits.default() if limits else None)
    app.state.accounts = accounts
    app.add_middleware(CsrfCheck)

    async def too_many(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, TooManyTriesError)
        body = problem(429, exc.code, exc.detail)
        return problem_response(429, body, {"Retry-After": str(exc.retry_after)})

    async def not_signed_in(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, AccountNotSignedInError)
        status, body = problem_of(exc)
        body["title"] = "Not signed in"  # to an account (the 401 of a seat says "to this seat")
        answer = problem_response(status, body)
        if isinstance(exc, StaleSessionError):  # its cookies are taken back
            clear_session_cookies(answer, request)
        return answer

    app.add_exception_handler(TooManyTriesError, too_many)
    app.add_exception_handler(AccountNotSignedInError, not_signed_in)
    app.include_router(accounts_router(accounts))
    return accounts
