"""The account routes under ``/api`` (docs/protocol.md, Accounts): sign up, log in and
out, the signed-in user with the tables and sheets linked to them, their sessions, and
claiming what this browser's tokens prove.

Every answer is JSON; every refusal an RFC 9457 problem body. No answer carries a
password, its hash or a session id (a session is named by its public ``id`` only).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import Field

from tricktaker.server.accounts import store
from tricktaker.server.accounts.cookies import (
    clear_session_cookies,
    csrf_token,
    session_token_of,
    set_session_cookies,
)
from tricktaker.server.accounts.deletion import (
    DELETED_NAME,
    clubs_to_hand_over,
    delete_account,
)
from tricktaker.server.accounts.limits import AccountLimits
from tricktaker.server.accounts.passwords import (
    PASSWORD_MAX,
    check_name,
    check_password,
    hash_password,
    name_key,
    verify_password,
)
from tricktaker.server.db import new_token
from tricktaker.server.deps import Body, Database
from tricktaker.server.errors import (
    InvalidRequestError,
    NotAllowedError,
    NotFoundError,
    NotSignedInError,
)
from tricktaker.server.problems import PROBLEM_RESPONSES

# ----------------------------------------------------------------- requests

HASHING_THREADS = 4
"""Passwords hashed or checked at once (each takes 64 MiB for a fifth of a second)."""

T = TypeVar("T")

CLAIM_MOST = 500
"""The most tokens of each kind one claim may carry."""

NO_CONTROL = r"^[^\x00-\x1f\x7f]+$"
"""An id or token has no control character (PostgreSQL's text refuses NUL outright: a
422 naming the field, never a server error)."""


class ProofIn(Body):
    """A token this browser holds for a table (a seat or host token) or a sheet (its
    edit token or edit-link key), with the table's or sheet's id."""

    id: str = Field(
        min_length=1,
        max_length=64,
        pattern=NO_CONTROL,
        description="The table's or sheet's id (no control characters).",
    )
    token: str = Field(
        min_length=1,
        max_length=128,
        pattern=NO_CONTROL,
        description="The token that proves it (no control characters).",
    )


class ClaimIn(Body):
    """What a guest's browser holds: its seat tokens, host tokens and sheets' edit tokens.
    Each one that proves a seat, table or sheet links it to the signed-in user."""

    seats: list[ProofIn] = Field(default_factory=list, max_length=CLAIM_MOST)
    hosts: list[ProofIn] = Field(default_factory=list, max_length=CLAIM_MOST)
    sheets: list[ProofIn] = Field(default_factory=list, max_length=CLAIM_MOST)


class Credentials(Body):
    """A user name and password (sign up, log in), and optionally what this browser
    holds as a guest, to keep."""

    name: str = Field(max_length=64, description="The user name (3 to 32 characters).")
    password: str = Field(
        max_length=PASSWORD_MAX * 4, description="The password (8 characters or more)."
    )
    claim: ClaimIn | None = None


class PasswordChange(Body):
    """The current password and the new one."""

    current_password: str = Field(
        max_length=PASSWORD_MAX * 4, description="The password the account has now."
    )
    new_password: str = Field(
        max_length=PASSWORD_MAX * 4, description="The new password (8 characters or more)."
    )


class PasswordCheck(Body):
    """The account's password, to confirm what the request asks."""

    password: str = Field(max_length=PASSWORD_MAX * 4, description="The account's password.")


# ----------------------------------------------------------------- the service


class UserNameTakenError(InvalidRequestError):
    """Another user has the name (in any case)."""

    def __init__(self) -> None:
        super().__init__("name-taken", "That user name is taken: choose another.", field="name")


class AccountNotSignedInError(NotSignedInError):
    """Not signed in to an account: no session, an ended one, or a refused log-in (401,
    titled "Not signed in")."""


class StaleSessionError(AccountNotSignedInError):
    """The request's session cookie names no session (it ended, or was revoked): the
    answer takes the cookies back."""

    def __init__(self) -> None:
        super().__init__(
            "not-signed-in", "Your session has ended (logged out or expired): log in again."
        )


class WrongPasswordError(NotAllowedError):
    """The password given to confirm a change is not the account's (403; it counts as
    a failed log-in of the account's name)."""

    def __init__(self) -> None:
        super().__init__("wrong-password", "That is not your account's password.", field="password")


BAD_LOGIN = "That user name and password do not match an account."
"""The refusal of a log-in, the same whether the name has no user or the password is
wrong."""


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A request's user, with its session and the session's cookie token."""

    user: store.User
    session: store.SessionInfo
    token: str


class Accounts:
    """The account service on the server's database (``app.state.accounts``)."""

    def __init__(self, database: Database, limits: AccountLimits | None) -> None:
        self.database = database
        self.limits = limits
        self._hashing = ThreadPoolExecutor(HASHING_THREADS, thread_name_prefix="tricktaker-hash")
        """The threads that hash and check passwords: a flood of log-ins waits here, not
        in the threads the rest of the server shares."""

    async def hashing(self, function: Callable[..., T], *args: Any) -> T:
        """Run a password function (blocking: argon2) in the hashing threads."""
        return await asyncio.get_running_loop().run_in_executor(self._hashing, function, *args)

    async def signed_in(self, request: Request) -> SignedIn | None:
        """The request's user and session (None: no session cookie);
        :class:`StaleSessionError` for a cookie whose session has ended."""
        token = session_token_of(request)
        if token is None:
            return None
        found = await self.database.run(store.session_user, token)
        if found is None:
            raise StaleSessionError()
        return SignedIn(found[0], found[1], token)

    async def start(self, request: Request, response: Response, user: store.User) -> SignedIn:
        """Start a session of ``user`` for the request's browser (its cookies set on
        ``response``; a session its cookie held before ends)."""
        old = session_token_of(request)
        if old is not None:
            await self.database.run(store.end_session_of_token, old)
        token = new_token()
        agent = request.headers.get("user-agent", "")
        info = await self.database.run(
            store.start_session, user.id, secrets.token_urlsafe(12), token, agent
        )
        set_session_cookies(response, request, token)
        return SignedIn(user, info, token)

    async def confirm_password(self, request: Request, user: store.User, password: str) -> None:
        """Check that ``password`` is the user's, limited as log-ins are (a wrong one is
        a failed log-in of their name): :class:`WrongPasswordError` if it is not."""
        key = name_key(user.name)
        address = _address(request)
        if self.limits is not None:
            await self.database.run(self.limits.check_login, key, address)
        stored_hash = await self.database.run(store.password_hash_of, user.id)
        verified = await self.hashing(verify_password, stored_hash, password)
        if stored_hash is None or not verified.right:
            if self.limits is not None:
                await self.database.run(self.limits.failed_login, key, address)
            raise WrongPasswordError()

    async def claim(self, user: store.User, claim: ClaimIn | None) -> store.Claimed:
        """Link what ``claim``'s tokens prove to ``user``."""
        if claim is None:
            return store.Claimed([], [], [], 0)

        def proofs(items: list[ProofIn]) -> list[store.Proof]:
            return [store.Proof(item.id, item.token) for item in items]

        return await self.database.run(
            store.claim,
            user.id,
            seats=proofs(claim.seats),
            hosts=proofs(claim.hosts),
            sheets=proofs(claim.sheets),
        )


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


def _stamp(moment: datetime) -> str:
    return store.aware(moment).isoformat()


def user_json(user: store.User) -> dict[str, Any]:
    """A user in an answer: id, name and when they signed up."""
    return {"id": user.id, "name": user.name, "created_at": _stamp(user.created_at)}


def claimed_json(claimed: store.Claimed) -> dict[str, Any]:
    """What a claim linked, in an answer."""
    return {
        "seats": [{"table_id": table_id, "seat": seat} for table_id, seat in claimed.seats],
        "hosted": claimed.hosted,
        "sheets": claimed.sheets,
        "refused": claimed.refused,
    }


def _signed_in_answer(signed: SignedIn, claimed: store.Claimed) -> dict[str, Any]:
    return {
        "user": user_json(signed.user),
        "session": signed.session.id,
        "csrf_token": csrf_token(signed.token),
        "claimed": claimed_json(claimed),
    }


async def signed_in_user(request: Request) -> SignedIn:
    """A route's dependency: the request's signed-in user and session (401
    ``not-signed-in`` without a session cookie; a cookie whose session ended is answered
    401 and taken back)."""
    accounts: Accounts = request.app.state.accounts
    found = await accounts.signed_in(request)
    if found is None:
        raise AccountNotSignedInError("not-signed-in", "Log in first.")
    return found


async def optional_user(request: Request) -> store.User | None:
    """A route's dependency: the request's signed-in user, or None for a guest (also
    for a cookie whose session has ended)."""
    accounts: Accounts = request.app.state.accounts
    try:
        found = await accounts.signed_in(request)
    except StaleSessionError:
        return None
    return None if found is None else found.user


SignedInUser = Annotated[SignedIn, Depends(signed_in_user)]
"""A route parameter's type: the signed-in user (see :func:`signed_in_user`)."""

SessionIdPath = Annotated[str, Path(min_length=1, max_length=32)]


# ----------------------------------------------------------------- the routes


def accounts_router(accounts: Accounts) -> APIRouter:
    """The ``/api`` routes of accounts."""
    router = APIRouter(prefix="/api", tags=["accounts"], responses=PROBLEM_RESPONSES)

    @router.post("/signup", status_code=201)
    async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Make an account and sign this browser in; ``claim`` links the seats, tables and
        sheets this browser's tokens prove."""
        name = check_name(body.name)
        check_password(body.password)
        if accounts.limits is not None:
            await accounts.database.run(accounts.limits.check_signup, _address(request))
        password_hash = await accounts.hashing(hash_password, body.password)
        try:
            user = await accounts.database.run(
                store.create_user, name, name_key(name), password_hash
            )
        except store.NameTakenError:
            raise UserNameTakenError() from None
        signed = await accounts.start(request, response, user)
        claimed = await accounts.claim(user, body.claim)
        return _signed_in_answer(signed, claimed)

    @router.post("/login")
    async def log_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Sign this browser in; ``claim`` links what its tokens prove. Refused alike for
        a name with no account and a wrong password (401 ``bad-login``); too many failed
        tries for the name or from the address: 429 with ``Retry-After``."""
        key = name_key(body.name)
        address = _address(request)
        limits = accounts.limits
        if limits is not None:
            await accounts.database.run(limits.check_login, key, address)
        found = await accounts.database.run(store.password_of, key)
        stored_hash = found[1] if found is not None else None
        verified = await accounts.hashing(verify_password, stored_hash, body.password)
        if found is None or not verified.right:
            if limits is not None:
                await accounts.database.run(limits.failed_login, key, address)
            raise AccountNotSignedInError("bad-login", BAD_LOGIN)
        user = found[0]
        await accounts.database.run(store.logged_in, user.id, verified.new_hash)
        signed = await accounts.start(request, response, user)
        claimed = await accounts.claim(user, body.claim)
        return _signed_in_answer(signed, claimed)

    @router.post("/logout", status_code=204)
    async def log_out(request: Request, response: Response) -> None:
        """End this browser's session (revoked in the database) and take its cookies."""
        token = session_token_of(request)
        if token is not None:
            await accounts.database.run(store.end_session_of_token, token)
        clear_session_cookies(response, request)

    @router.get("/me")
    async def me(signed: SignedInUser) -> dict[str, Any]:
        """The signed-in user, this session's CSRF token, and the tables (with the seats
        they held, and whether they made it) and score sheets linked to them;
        ``hand_over``: the clubs they alone organise that have other members (to hand
        over before they may delete the account)."""
        held = await accounts.database.run(store.holdings, signed.user.id)
        hand_over = await accounts.database.run(clubs_to_hand_over, signed.user.id)
        return {
            "user": user_json(signed.user),
            "session": signed.session.id,
            "csrf_token": csrf_token(signed.token),
            "tables": [
                {"id": table_id, "seats": seats, "host": host}
                for table_id, seats, host in held.tables
            ],
            "sheets": [{"id": sheet_id} for sheet_id in held.sheets],
            "hand_over": [{"id": club_id, "name": name} for club_id, name in hand_over],
        }

    @router.post("/me/claim")
    async def claim(body: ClaimIn, signed: SignedInUser) -> dict[str, Any]:
        """Link the seats, tables and sheets that this browser's tokens prove to the
        signed-in user (a seat or table another user holds stays theirs)."""
        claimed = await accounts.claim(signed.user, body)
        return claimed_json(claimed)

    @router.get("/me/sessions")
    async def sessions(signed: SignedInUser) -> dict[str, Any]:
        """The user's sessions (browsers signed in), the latest seen first; ``current``
        marks this one."""
        listed = await accounts.database.run(store.sessions_of, signed.user.id)
        return {
            "sessions": [
                {
                    "id": info.id,
                    "created_at": _stamp(info.created_at),
                    "last_seen_at": _stamp(info.last_seen_at),
                    "expires_at": _stamp(info.expires_at),
                    "user_agent": info.user_agent,
                    "current": info.id == signed.session.id,
                }
                for info in listed
            ]
        }

    @router.delete("/me/sessions/others")
    async def revoke_others(signed: SignedInUser) -> dict[str, Any]:
        """Sign out every other device: end every session of the user but this one;
        ``ended`` says how many."""
        ended = await accounts.database.run(
            store.end_other_sessions, signed.user.id, signed.session.id
        )
        return {"ended": ended}

    @router.delete("/me/sessions/{session_id}", status_code=204)
    async def revoke(
        session_id: SessionIdPath, signed: SignedInUser, request: Request, response: Response
    ) -> None:
        """End one of the user's sessions (this one too: then log in again)."""
        if not await accounts.database.run(store.end_session, signed.user.id, session_id):
            raise NotFoundError("no-session", "You have no session of that id.")
        if session_id == signed.session.id:
            clear_session_cookies(response, request)

    @router.delete("/me/sessions", status_code=204)
    async def revoke_all(signed: SignedInUser, request: Request, response: Response) -> None:
        """Log out everywhere: end every session of the user, this one included."""
        await accounts.database.run(store.end_sessions, signed.user.id)
        clear_session_cookies(response, request)

    @router.post("/me/password")
    async def change_password(
        body: PasswordChange, signed: SignedInUser, request: Request, response: Response
    ) -> dict[str, Any]:
        """Change the password, given the current one (limited as log-ins are): every
        session of the user ends, and this browser is given a new one (new cookies and
        CSRF token); ``ended``: how many other sessions ended."""
        check_password(body.new_password)
        await accounts.confirm_password(request, signed.user, body.current_password)
        new_hash = await accounts.hashing(hash_password, body.new_password)
        ended = await accounts.database.run(store.change_password, signed.user.id, new_hash)
        renewed = await accounts.start(request, response, signed.user)
        answer = _signed_in_answer(renewed, store.Claimed([], [], [], 0))
        answer["ended"] = max(0, ended - 1)
        return answer

    @router.delete("/me", status_code=204)
    async def delete_me(
        body: PasswordCheck, signed: SignedInUser, request: Request, response: Response
    ) -> None:
        """Delete the account, given its password (docs/accounts.md, Deleting your
        account): 409 ``hand-over-first`` while the user alone organises a club with other
        members. Every session ends and this browser's cookies are taken back."""
        await accounts.confirm_password(request, signed.user, body.password)
        deleted = await accounts.database.run(delete_account, signed.user.id)
        service = getattr(request.app.state, "service", None)
        held = getattr(service, "tables_held", None)
        for table_id, seats in deleted.seats.items():  # the tables this process holds
            live = held.cached(table_id) if held is not None else None
            if live is not None:
                for seat in live.data.seats:
                    if seat.seat in seats:
                        seat.name = DELETED_NAME
        clear_session_cookies(response, request)

    return router
