"""User names and passwords: the rules they follow, and the password hashes.

Passwords are hashed with argon2id (``argon2-cffi``'s :class:`~argon2.PasswordHasher`,
its default parameters, RFC 9106's second recommended setting); a hash made with other
parameters is made again at the next log-in (:func:`verify_password` says when). A log-in
for a name no one has still verifies the password against a hash, so that it takes as
long as one for a real user.
"""

from __future__ import annotations

import functools
import re
import secrets
import threading
import unicodedata
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from tricktaker.server.errors import InvalidRequestError

NAME_MIN = 3
NAME_MAX = 32
PASSWORD_MIN = 8
PASSWORD_MAX = 256
"""The most characters of a password: argon2 takes any length, but a password of
megabytes would cost the server the time to read it for every try."""

NAME_RULE = (
    f"A user name has {NAME_MIN} to {NAME_MAX} characters: letters A to Z (either case),"
    " digits, and . _ - between them; it starts and ends with a letter or a digit."
    " Names differ by more than their case (Ann and ann are one name)."
)
"""The rule for user names, in words (the sign-up refusal says it)."""

_NAME = re.compile(rf"^[A-Za-z0-9](?:[A-Za-z0-9._-]{{{NAME_MIN - 2},{NAME_MAX - 2}}})[A-Za-z0-9]$")

HASHER = PasswordHasher()
"""The password hasher (argon2id, the library's default parameters)."""

_HASHING = threading.BoundedSemaphore(4)
"""At most four hashes at once in the process: each takes 64 MiB of memory."""


@functools.cache
def _dummy_hash() -> str:
    """A hash verified when the name has no user, so that the answer takes as long as
    for one (made once, at the first such log-in)."""
    return HASHER.hash(secrets.token_urlsafe(16))


def name_key(name: str) -> str:
    """The key under which a user name is unique: its lower case.

    >>> name_key("Ann.Lee")
    'ann.lee'
    """
    return name.lower()


def check_name(name: str) -> str:
    """``name`` if it follows :data:`NAME_RULE`, else an ``bad-name`` refusal that says
    the rule (field ``name``).

    >>> check_name("ann_42")
    'ann_42'
    """
    if not _NAME.match(name):
        raise InvalidRequestError("bad-name", NAME_RULE, field="name")
    return name


def check_password(password: str) -> str:
    """``password`` if it is long enough and not too long, else a ``bad-password``
    refusal (field ``password``; the refusal never repeats the password)."""
    length = len(unicodedata.normalize("NFC", password))
    if length < PASSWORD_MIN:
        raise InvalidRequestError(
            "bad-password",
            f"A password has at least {PASSWORD_MIN} characters.",
            field="password",
        )
    if length > PASSWORD_MAX:
        raise InvalidRequestError(
            "bad-password",
            f"A password has at most {PASSWORD_MAX} characters.",
            field="password",
        )
    return password


def _normal(password: str) -> str:
    """The password as hashed: its NFC form, so that one typed on another keyboard
    (é as one character or as e and an accent) is the same password."""
    return unicodedata.normalize("NFC", password)


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (blocking: a fifth of a second of CPU)."""
    with _HASHING:
        return HASHER.hash(_normal(password))


@dataclass(frozen=True, slots=True)
class Verified:
    """A password's check: whether it is right, and the hash to store in place of the
    old one when its parameters are not the hasher's (None: keep it)."""

    right: bool
    new_hash: str | None = None


def verify_password(stored_hash: str | None, password: str) -> Verified:
    """Whether ``password`` is the one ``stored_hash`` was made from (None: there is no
    such user, and the answer is no, after as long a check). Blocking."""
    with _HASHING:
        try:
            HASHER.verify(stored_hash or _dummy_hash(), _normal(password))
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return Verified(False)
        if stored_hash is None:
            return Verified(False)
        if HASHER.check_needs_rehash(stored_hash):
            return Verified(True, HASHER.hash(_normal(password)))
        return Verified(True)
