"""Bearer tokens for the local HTTP servers: created, listed, revoked and checked.

A token is shown once, when it is created; the store keeps only its SHA-256. Token rows
are credentials, not memories: they are not part of the undo history.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select

from memdesk.errors import BadInputError, ConflictError, NotFoundError, StoreError
from memdesk.services.context import Context
from memdesk.store.models import ApiToken

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
# "last used" is kept to the minute, so checking a token rarely writes.
_TOUCH_EVERY = timedelta(minutes=1)


@dataclass(frozen=True)
class TokenInfo:
    name: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


def check_token_name(name: object) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise BadInputError(
            f"token name {name!r} is not valid",
            "use letters, digits and . _ - (up to 32 characters, starting with a letter or digit)",
        )
    return name


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _info(row: ApiToken) -> TokenInfo:
    return TokenInfo(row.name, row.created_at, row.last_used_at, row.revoked_at)


class Tokens:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._noting: threading.Thread | None = None

    def create(self, name: str) -> str:
        """A new token for ``name``; the only time the plain token is available."""
        check_token_name(name)
        token = secrets.token_urlsafe(32)
        with self.ctx.store.write() as session:
            row = session.scalar(select(ApiToken).where(ApiToken.name == name))
            if row is not None and row.revoked_at is None:
                raise ConflictError(
                    f"a token named {name!r} exists", f"revoke it first: memdesk token revoke {name}"
                )
            if row is None:
                row = ApiToken(name=name)
                session.add(row)
            row.token_hash = hash_token(token)
            row.created_at = self.ctx.now()
            row.last_used_at = None
            row.revoked_at = None
        return token

    def list(self) -> list[TokenInfo]:
        with self.ctx.store.read() as session:
            return [_info(row) for row in session.scalars(select(ApiToken).order_by(ApiToken.name))]

    def revoke(self, name: str) -> None:
        with self.ctx.store.write() as session:
            row = session.scalar(select(ApiToken).where(ApiToken.name == name))
            if row is None or row.revoked_at is not None:
                raise NotFoundError(f"no active token named {name!r}", "see `memdesk token list`")
            row.revoked_at = self.ctx.now()

    def verify(self, token: str) -> str | None:
        """The name of the active token ``token`` is, or None; notes (in the background) when
        it was last used. Only reads on the calling thread."""
        digest = hash_token(token)
        # Plain rows, not model objects: this runs on every request.
        query = select(ApiToken.id, ApiToken.name, ApiToken.token_hash, ApiToken.last_used_at).where(
            ApiToken.revoked_at.is_(None)
        )
        with self.ctx.store.read() as session:
            rows = session.execute(query).all()
        match = next((row for row in rows if hmac.compare_digest(row.token_hash, digest)), None)
        if match is None:
            return None
        now = self.ctx.now()
        if match.last_used_at is None or now - match.last_used_at >= _TOUCH_EVERY:
            # Noting the use is a write, which may wait for another writer: it never delays
            # the request, and a note lost to a busy database is harmless.
            self._noting = threading.Thread(target=self._touch, args=(match.id, now), daemon=True)
            self._noting.start()
        return match.name

    def settle(self) -> None:
        """Wait until the last note of a token's use is written (or given up)."""
        if self._noting is not None:
            self._noting.join()

    def _touch(self, token_id: int, now: datetime) -> None:
        try:
            with self.ctx.store.write() as session:
                row = session.get(ApiToken, token_id)
                if row is not None:
                    row.last_used_at = now
        except StoreError:
            pass
