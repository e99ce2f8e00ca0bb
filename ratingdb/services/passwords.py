"""Passwords: what a good one is, and argon2id hashing with a bound on how many run at once.

- A password has 12 to 1024 characters, is not the user name, not only white space, not one
  character or a short pattern repeated, and not guessable: zxcvbn's estimate (its dictionary
  of the 30,000 most common breached passwords, keyboard walks, sequences, dates, leetspeak)
  must put it at score 3 or more (at least 10^8 guesses), the score its authors recommend for
  passwords guarded by a slow hash and throttling.
- argon2id with argon2-cffi's defaults costs 64 MiB and tens of milliseconds of CPU per
  check: without a bound, 60 sign-ins at once took the back office to 1.1 GB. At most
  ``HASHING_SLOTS`` run at once per process; the others wait for a slot up to
  ``HASHING_WAIT`` and are then refused with :class:`HashingBusy` (503 with Retry-After), never
  queued without end.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ratingdb.errors import InputError
from ratingdb.rules.messages import N_, Message

MIN_LENGTH = 12
#: argon2 hashes whatever it is given; a megabyte-long "password" is only a way to burn CPU.
MAX_LENGTH = 1024
#: zxcvbn's lowest acceptable score (0-4): 3 is "safely unguessable: moderate protection from
#: offline slow-hash scenario" (at least 10^8 guesses).
MIN_SCORE = 3
#: zxcvbn refuses longer input; a longer password is judged on its first 72 characters.
ZXCVBN_MAX = 72
#: Password checks and hashes running at once in one process (each holds 64 MiB).
HASHING_SLOTS = 4
#: Seconds a sign-in waits for a free slot before it is refused as busy.
HASHING_WAIT = 10.0
#: A pattern of up to 4 characters repeated to fill the whole password.
_REPEATED = re.compile(r"(.{1,4}?)\1+", re.DOTALL)

_hasher = PasswordHasher()
_slots = threading.BoundedSemaphore(HASHING_SLOTS)


class HashingBusy(Exception):
    """Every hashing slot stayed taken for ``HASHING_WAIT`` seconds: try again later."""


def check(password: str, username: str, field: str = "password") -> None:
    """Refuse a password nobody should use (see the module's docstring), naming the field."""
    if len(password) < MIN_LENGTH:
        raise InputError(Message(N_("must have at least %(count)s characters"),
                                 {"count": MIN_LENGTH}), field=field)  # fmt: skip
    if len(password) > MAX_LENGTH:
        raise InputError(Message(N_("must have at most %(count)s characters"),
                                 {"count": MAX_LENGTH}), field=field)  # fmt: skip
    if not password.strip():
        raise InputError(Message(N_("must not be only spaces")), field=field)
    if password.strip().casefold() == username.casefold():
        raise InputError(Message(N_("must not be the user name")), field=field)
    if _REPEATED.fullmatch(password):
        raise InputError(Message(N_("must not be a character or a short pattern repeated")),
                         field=field)  # fmt: skip
    from zxcvbn import zxcvbn  # its dictionaries take a moment to load: only when needed

    estimate = zxcvbn(password[:ZXCVBN_MAX], user_inputs=[username, "ratingdb", "chess"])
    if estimate["score"] < MIN_SCORE:
        raise InputError(
            Message(N_("is too easy to guess (%(why)s): use a longer phrase of unrelated words"),
                    {"why": _why(estimate["feedback"].get("warning"))}),
            field=field,
        )  # fmt: skip


#: zxcvbn's warnings (it words them in English only) as the reason given after ours: its
#: sentence in lower case without the full stop, marked here for the back office's catalogue
#: (tests/services/test_passwords.py reads zxcvbn's source: none is missing).
GUESSABLE_BECAUSE: Final = frozenset({
    N_("straight rows of keys are easy to guess"),
    N_("short keyboard patterns are easy to guess"),
    N_('repeats like "aaa" are easy to guess'),
    N_('repeats like "abcabcabc" are only slightly harder to guess than "abc"'),
    N_('sequences like "abc" or "6543" are easy to guess'),
    N_("recent years are easy to guess"),
    N_("dates are often easy to guess"),
    N_("this is a top-10 common password"),
    N_("this is a top-100 common password"),
    N_("this is a very common password"),
    N_("this is similar to a commonly used password"),
    N_("a word by itself is easy to guess"),
    N_("names and surnames by themselves are easy to guess"),
    N_("common names and surnames are easy to guess"),
})  # fmt: skip


def _why(warning: str | None) -> Message:
    """zxcvbn's warning as a message (a page words it in the officer's language)."""
    if not warning:
        return Message(N_("it is too easy to guess"))
    return Message(warning.rstrip(".").lower())


@contextmanager
def _slot() -> Iterator[None]:
    if not _slots.acquire(timeout=HASHING_WAIT):
        raise HashingBusy("too many sign-ins at once: try again in a few seconds")
    try:
        yield
    finally:
        _slots.release()


def hash_password(password: str) -> str:
    with _slot():
        return _hasher.hash(password)


def verify(password_hash: str, password: str) -> bool:
    """Whether ``password`` is the one hashed; a stored hash argon2 cannot read signs nobody in
    (it is not a wrong password, but it is no right one either)."""
    with _slot():
        try:
            return _hasher.verify(password_hash, password)
        except VerifyMismatchError:
            return False
        except (VerificationError, InvalidHashError):
            return False


def needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)


def verify_nobody(password: str) -> None:
    """Check ``password`` against a hash of nothing anybody knows, so that an unknown user
    takes as long to refuse as a known one."""
    verify(_dummy_hash(), password[:MAX_LENGTH])


_DUMMY_HASH: str | None = None


def _dummy_hash() -> str:
    global _DUMMY_HASH
    if _DUMMY_HASH is None:
        _DUMMY_HASH = hash_password(secrets.token_urlsafe(16))
    return _DUMMY_HASH
