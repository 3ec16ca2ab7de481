"""Namespace documents: profile, patterns, facts, global and session notes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from memdesk.core.namespaces import check_namespace, is_working
from memdesk.errors import BadInputError, NotFoundError
from memdesk.services.context import MAX_DOCUMENT_CHARS, Context, check_text
from memdesk.store.models import Document
from memdesk.store.prefix import starts_with

# Built once: every prompt looks up two documents, and building the statement took longer
# than running it.
_BY_NAMESPACE = select(Document).where(Document.namespace == bindparam("namespace"))


def find_document(session: Session, namespace: str) -> Document | None:
    """The document row for ``namespace``, live or in Trash."""
    return session.scalar(_BY_NAMESPACE, {"namespace": namespace})


@dataclass(frozen=True)
class DocumentRow:
    namespace: str
    content: str
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None  # its own expiry, if it has one
    pinned: bool


def document_row(doc: Document) -> DocumentRow:
    return DocumentRow(
        doc.namespace, doc.content, doc.created_at, doc.updated_at, doc.expires_at, bool(doc.pinned)
    )


class Documents:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def get(self, namespace: str) -> DocumentRow | None:
        with self.ctx.store.read() as session:
            doc = find_document(session, check_namespace(namespace))
            return document_row(doc) if doc is not None and doc.deleted_at is None else None

    def text(self, namespace: str) -> str:
        doc = self.get(namespace)
        return doc.content if doc else ""

    def namespaces_starting(self, prefix: str, limit: int) -> list[str]:
        """Namespaces of documents not in Trash that start with ``prefix``, in order, at most
        ``limit`` (for completions)."""
        query = select(Document.namespace).where(starts_with(Document.namespace, prefix))
        query = query.where(Document.deleted_at.is_(None)).order_by(Document.namespace).limit(limit)
        with self.ctx.store.read() as session:
            return list(session.scalars(query))

    def list(self) -> list[DocumentRow]:
        with self.ctx.store.read() as session:
            query = select(Document).where(Document.deleted_at.is_(None)).order_by(Document.namespace)
            return [document_row(doc) for doc in session.scalars(query)]

    def set(self, namespace: str, content: str) -> DocumentRow:
        return self._write(namespace, content, append=False)

    def append(self, namespace: str, content: str) -> DocumentRow:
        return self._write(namespace, content, append=True)

    def _write(self, namespace: str, content: str, append: bool) -> DocumentRow:
        check_namespace(namespace)
        if is_working(namespace):
            raise BadInputError(f"{namespace} is working memory", "use `memdesk working set` to write it")
        check_text(content, f"text for {namespace}", MAX_DOCUMENT_CHARS, allow_empty=not append)
        now = self.ctx.now()
        verb = "Append to" if append else "Edit"
        with self.ctx.change(f"{verb} {namespace}") as session:
            doc = find_document(session, namespace)
            if doc is None:
                doc = Document(namespace=namespace, content="", created_at=now, updated_at=now)
                session.add(doc)
            if doc.deleted_at is not None:
                doc.deleted_at = None
                doc.content = ""
            if append:
                content = appended(doc.content, content)
            check_text(content, f"text for {namespace}", MAX_DOCUMENT_CHARS, allow_empty=True)
            if doc.content != content:
                doc.content = content
                doc.updated_at = now
            return document_row(doc)

    def delete(self, namespace: str) -> None:
        with self.ctx.change(f"Delete {namespace}") as session:
            doc = find_document(session, check_namespace(namespace))
            if doc is None or doc.deleted_at is not None:
                raise NotFoundError(f"no document {namespace}")
            doc.deleted_at = self.ctx.now()


def appended(existing: str, text: str) -> str:
    """A document's text after appending ``text``: on a line of its own after what is there."""
    return existing.rstrip("\n") + "\n" + text if existing.strip() else text
