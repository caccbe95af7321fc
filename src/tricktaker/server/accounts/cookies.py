"""The session cookie, its CSRF token, and the check of the CSRF token on every request
that changes something (docs/protocol.md, Accounts).

A signed-in browser holds two cookies: ``tricktaker_session``, the session's opaque
random id (``HttpOnly``: the page's scripts cannot read it), and ``tricktaker_csrf``,
the session's CSRF token, which the page reads and sends back in the
``X-CSRF-Token`` header. The token is the SHA-256 of the session id under a label of
its own, so only someone who holds the session id (the server, and the browser that
holds the cookie) can make it, and another site, which can make the browser send the
cookies but can read neither, cannot send the header. Both cookies are ``SameSite=Lax``
with the path ``/``, and ``Secure`` when the request came over HTTPS: directly, or
through a proxy that uvicorn trusts saying so (``X-Forwarded-Proto``, docs/deploy.md).

Every ``POST``, ``PUT``, ``PATCH`` and ``DELETE`` request that carries the session
cookie must carry the matching header, else it is refused (403, ``csrf``) before its
route runs. Requests without the cookie (bots, the command line, the protocol's
clients with their Bearer seat and host tokens) are not checked: they carry nothing a
forged request could use.
"""

from __future__ import annotations

import hashlib
import hmac

from fastapi import Request, Response
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from tricktaker.server.accounts.store import SESSION_LONGEST
from tricktaker.server.problems import problem
from tricktaker.server.request_limits import problem_response

SESSION_COOKIE = "tricktaker_session"
"""The cookie that holds the session id (``HttpOnly``)."""

CSRF_COOKIE = "tricktaker_csrf"
"""The cookie that holds the session's CSRF token, for the page to send back."""

CSRF_HEADER = "X-CSRF-Token"
"""The request header that carries the CSRF token."""

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that change something: checked for the CSRF token."""


def csrf_token(session_token: str) -> str:
    """The CSRF token of the session whose cookie holds ``session_token``.

    >>> len(csrf_token("x")), csrf_token("x") == csrf_token("x") != csrf_token("y")
    (64, True)
    """
    return hashlib.sha256(b"tricktaker-csrf:" + session_token.encode("utf-8")).hexdigest()


def cookie_of(headers: Headers, name: str) -> str | None:
    """The value of the cookie ``name`` in a request's ``Cookie`` headers (None: none,
    or the header cannot be read)."""
    for header in headers.getlist("cookie"):
        value = cookie_parser(header).get(name)  # Starlette's lenient parser, as browsers
        if value:
            return value
    return None


def session_token_of(request: Request) -> str | None:
    """The session id the request's cookie holds (None: no session cookie)."""
    return cookie_of(request.headers, SESSION_COOKIE)


def over_https(request: Request) -> bool:
    """Whether the request came over HTTPS (uvicorn sets the scheme from a trusted
    proxy's ``X-Forwarded-Proto``): then the cookies are ``Secure``."""
    return request.url.scheme in ("https", "wss")


def set_session_cookies(response: Response, request: Request, session_token: str) -> None:
    """Give the browser its session cookie and the session's CSRF token."""
    secure = over_https(request)
    age = int(SESSION_LONGEST.total_seconds())
    response.set_cookie(
        SESSION_COOKIE,
        session_token,
        max_age=age,
        path="/",
        secure=secure,
        httponly=True,
        samesite="lax",
    )
    response.set_cookie(
        CSRF_COOKIE,
        csrf_token(session_token),
        max_age=age,
        path="/",
        secure=secure,
        httponly=False,
        samesite="lax",
    )


def clear_session_cookies(response: Response, request: Request) -> None:
    """Take both cookies back (log out, or a session that has ended)."""
    secure = over_https(request)
    for name, http_only in ((SESSION_COOKIE, True), (CSRF_COOKIE, False)):
        response.delete_cookie(name, path="/", secure=secure, httponly=http_only, samesite="lax")


class CsrfCheck:
    """ASGI middleware: a ``POST``, ``PUT``, ``PATCH`` or ``DELETE`` request that carries
    the session cookie without the matching ``X-CSRF-Token`` header is answered 403
    (``csrf``), before it reaches ``app``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            headers = Headers(scope=scope)
            session = cookie_of(headers, SESSION_COOKIE)
            if session is not None:
                sent = headers.get(CSRF_HEADER, "")
                if not hmac.compare_digest(sent.encode("utf-8"), csrf_token(session).encode()):
                    refusal = problem(
                        403,
                        "csrf",
                        "This request carries the session cookie but not the page's CSRF"
                        f" token ({CSRF_HEADER}): reload the page and try again.",
                    )
                    await problem_response(403, refusal)(scope, receive, send)
                    return
        await self.app(scope, receive, send)
