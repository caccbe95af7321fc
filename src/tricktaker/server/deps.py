"""What the table and sheet packages of the server share: the database and the thread
its calls run in, tokens from the ``Authorization`` header, rate limits, and loading a
ruleset from a request (a shipped game or a house-rules file, with options)."""

from __future__ import annotations

import asyncio
import math
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.orm import sessionmaker

from tricktaker.rules import load_ruleset
from tricktaker.rules.errors import RulesetError
from tricktaker.rules.ruleset import Ruleset
from tricktaker.server.db import WalCheckpointer, make_engine, sqlite_file, unavailable
from tricktaker.server.errors import InvalidRequestError, UnavailableError
from tricktaker.server.problems import ruleset_field

T = TypeVar("T")

MAX_BODY_BYTES = 64 * 1024
"""The largest request body (a house-rules file must fit)."""


# ------------------------------------------------------------ the database


class Database:
    """The server's database: its engine, its sessions, and the threads that run the
    store functions off the event loop (one for SQLite, whose writer is one). Tables
    and sheets alike run their store calls here (:meth:`run`)."""

    def __init__(self, db_url: str) -> None:
        self.url = db_url
        in_file = sqlite_file(db_url)
        self.engine = make_engine(db_url, checkpoint_apart=in_file)
        self._checkpointer = WalCheckpointer(self.engine) if in_file else None
        """Copies SQLite's write-ahead log into the database file, off the commits."""
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        workers = 1 if db_url.startswith("sqlite") else 8
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="tricktaker-db")

    def start(self) -> None:
        """Start copying SQLite's write-ahead log (a file database only)."""
        if self._checkpointer is not None:
            self._checkpointer.start()

    async def run(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store function (``function(sessions, *args, **kwargs)``) off the event
        loop. A database that cannot store anything just now (stopped, out of reach, its
        disk full) raises :class:`~tricktaker.server.errors.UnavailableError`: the
        function's transaction was rolled back, and the same call may be made again."""
        loop = asyncio.get_running_loop()
        call = partial(function, self.sessions, *args, **kwargs)
        try:
            return await loop.run_in_executor(self._pool, call)
        except Exception as error:
            reason = unavailable(error)
            if reason is None:
                raise
            raise UnavailableError(reason) from error

    def close(self) -> None:
        """Finish the calls under way and release the database."""
        self._pool.shutdown(wait=True)
        if self._checkpointer is not None:
            self._checkpointer.stop()
        self.engine.dispose()


# ------------------------------------------------------------ tokens


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header (None: none given, or
    another scheme)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


# ------------------------------------------------------------ rate limits


class TokenBucket:
    """A rate limit: ``rate`` a second on average, ``burst`` at once."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = now

    def take(self, now: float) -> bool:
        """Take one token at time ``now`` (False: none left, slow down)."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def wait(self) -> float:
        """Seconds from the last :meth:`take` until a token is there again (0: one is)."""
        return max(0.0, (1.0 - self.tokens) / self.rate)


class RateLimits:
    """A :class:`TokenBucket` for each key (a client's address), ``rate`` a second with
    ``burst`` at once; forgotten all together past ``keys_kept`` keys."""

    def __init__(self, rate: float, burst: float, keys_kept: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keys_kept = keys_kept
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, key: str, now: float) -> bool:
        """Take one token of ``key``'s bucket at time ``now`` (False: slow down)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, now)
        allowed = bucket.take(now)
        if allowed and len(self._buckets) > self.keys_kept:
            self._buckets.clear()
        return allowed

    def retry_after(self, key: str) -> int:
        """Whole seconds (at least 1) after which ``key``, refused by :meth:`take`, has a
        token again: an HTTP ``Retry-After``."""
        bucket = self._buckets.get(key)
        return max(1, math.ceil(bucket.wait())) if bucket is not None else 1


# ------------------------------------------------------------ requests


class Body(BaseModel):
    """A request body of the HTTP API: each field takes a JSON value of its own type
    only, as the schema says (``true`` is not a number, as lax validation would take
    it), else a 422 problem names the field."""

    model_config = ConfigDict(strict=True)


# ------------------------------------------------------------ rules


class RulesRequest(Body):
    """The rules of a new table or sheet: a shipped ``game`` or an uploaded
    ``ruleset_toml``, with options."""

    game: str | None = Field(default=None, max_length=100, description="A shipped game id.")
    ruleset_toml: str | None = Field(
        default=None, max_length=MAX_BODY_BYTES, description="A house-rules file's text."
    )
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=50)


def load_rules(request: RulesRequest) -> tuple[Ruleset, str | None]:
    """The ruleset a request asks for, and its house-rules TOML (None: a shipped game).
    Refused (``bad-request``, ``bad-ruleset``) when the request gives both or neither,
    or when the rules do not load."""
    if (request.game is None) == (request.ruleset_toml is None):
        raise InvalidRequestError(
            "bad-request", "Give either game (a shipped game id) or ruleset_toml.", field="game"
        )
    options = {
        k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in request.options.items()
    }
    try:
        if request.game is not None:
            if "/" in request.game or request.game.endswith(".toml"):
                raise RulesetError(f"unknown game {request.game!r}")
            return load_ruleset(request.game, options=options), None
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "house-rules.toml"
            path.write_text(request.ruleset_toml or "", encoding="utf-8")
            try:
                return load_ruleset(path, options=options), request.ruleset_toml
            except RulesetError as exc:
                raise RulesetError(str(exc).replace(f"{folder}/", "")) from None
    except (RulesetError, LookupError, TypeError, ValueError) as exc:
        text = str(exc)
        field = ruleset_field(text) or ("options" if "option" in text else None)
        if field is None:  # the request's own field at fault: the game, or the file
            field = "game" if request.game is not None else "ruleset_toml"
        raise InvalidRequestError("bad-ruleset", text, field=field) from None
