"""Join codes and secrets (:mod:`secrets`, never :mod:`random`).

A join code is read off a projector and typed on a phone: 6 characters from an alphabet
without look-alikes (no O/0, no I/1/L), upper case, 31**6 ≈ 887 million codes. The teacher's
secret is 128 random bits (``token_urlsafe(16)``, 22 characters); only its SHA-256 is stored,
and it is compared with :func:`hmac.compare_digest` (constant time).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no O/0, no I/1/L
CODE_LENGTH = 6
SECRET_BYTES = 16  # 128 bits
SECRET_LENGTH = 22  # token_urlsafe(16): 16 bytes in base64url, unpadded
SECRET_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str | None:
    """A typed join code in its stored form, or ``None`` when it cannot be one.

    Spaces and dashes are dropped and case ignored; the look-alikes a student may type for a
    code's letters (O for 0 is impossible: neither is used) are refused, not guessed.

    >>> normal_code(" ab-c 234 ")
    'ABC234'
    >>> normal_code("ABC10O") is None
    True
    """
    code = "".join(str(text).split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def valid_code(text) -> bool:
    """Whether ``text`` is a join code as stored (what a link's ``room``/``join`` carries).

    Checked before any query: a link's parameter is anyone's text (a NUL byte, a megabyte).

    >>> valid_code("ABC234"), valid_code("abc234"), valid_code(chr(0)), valid_code(None)
    (True, False, False, False)
    """
    return (isinstance(text, str) and len(text) == CODE_LENGTH
            and all(c in ALPHABET for c in text))


def valid_secret(text) -> bool:
    """Whether ``text`` has the form of a teacher's secret or a student's token.

    >>> valid_secret(new_secret()), valid_secret("x"), valid_secret("a" * 21 + chr(0))
    (True, False, False)
    """
    return (isinstance(text, str) and len(text) == SECRET_LENGTH
            and all(c in SECRET_ALPHABET for c in text))


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def same_secret(given: str, stored_digest: str) -> bool:
    """Whether ``given`` is the secret whose digest is stored (constant-time comparison)."""
    return hmac.compare_digest(digest(str(given)), stored_digest)
