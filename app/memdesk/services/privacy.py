"""What assistants may read: the items the person keeps private, and the apps each assistant
is limited to.

A private app, entry or document never reaches an assistant: every composed prompt, recall,
every MCP tool and resource and the admin API leave it out, answering as if it were absent.
It stays visible and editable in the window. Marking is memory (a history step, undoable);
an assistant's app limit is a setting like its trust level, read on every call so a running
server follows a change from its next call.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from memdesk.core.namespaces import check_namespace
from memdesk.core.privacy import NOUNS, TARGET_FORMS, ReadScope, Target, TargetKind, parse_stored
from memdesk.core.trust import is_assistant
from memdesk.errors import BadInputError, NotFoundError
from memdesk.services.apps import check_app_id
from memdesk.services.context import Context
from memdesk.services.entries import check_key
from memdesk.store.listing import PRIVATE_TARGETS
from memdesk.store.models import App, AssistantApp, Document, Entry, PrivateItem

# Straight from the driver: on the path of every prompt, SQLAlchemy's own work for these
# took ten times as long as the queries.
_APP_LIMIT = "SELECT app_id FROM assistant_apps WHERE actor = :reader"
# Built once: on the path of recall, building the statement took longer than running it.
_PRIVATE_OF_KIND = {
    kind: select(PrivateItem.target).where(PrivateItem.target.startswith(f"{kind}:", autoescape=True))
    for kind in TargetKind
}


def parse_target(text: str) -> Target:
    """``app:NAME``, ``entry:KEY`` or ``doc:NAMESPACE``, its name checked as its kind's."""
    kind, sep, name = text.partition(":")
    try:
        chosen = TargetKind(kind.strip().lower())
    except ValueError:
        chosen = None
    if not sep or chosen is None:
        raise BadInputError(f"{text!r} is not an item", f"name it as {TARGET_FORMS}")
    check = {TargetKind.APP: check_app_id, TargetKind.ENTRY: check_key, TargetKind.DOC: check_namespace}
    return Target(chosen, check[chosen](name))


@dataclass(frozen=True)
class PrivateInfo:
    target: Target
    since: datetime
    exists: bool  # False: the item is in Trash or gone, and the mark waits for it


class Privacy:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    # --- reading ------------------------------------------------------------------------

    def scope(self, reader: str | None = None, session: Session | None = None) -> ReadScope:
        """What ``reader`` (default: whoever acts now) may read, from the store as it is now
        (as ``session`` sees it, when given: a prompt reads everything in one snapshot)."""
        reader = self.ctx.current_actor if reader is None else reader
        store = self.ctx.store
        with store.read(consistent=False, within=session) as session:
            targets = [parse_stored(target) for (target,) in store.raw_rows(session, PRIVATE_TARGETS, {})]
            apps = None
            if is_assistant(reader):
                limit = store.raw_rows(session, _APP_LIMIT, {"reader": reader})
                apps = frozenset(app for (app,) in limit) or None
        return ReadScope(
            *(frozenset(t.name for t in targets if t.kind is kind) for kind in TargetKind), apps=apps
        )

    def is_private(self, target: Target) -> bool:
        with self.ctx.store.read() as session:
            return session.get(PrivateItem, str(target)) is not None

    def list(self) -> list[PrivateInfo]:
        """Every private item, by kind and name; whether each is there now."""
        with self.ctx.store.read() as session:
            rows = list(session.scalars(select(PrivateItem).order_by(PrivateItem.target)))
            return [
                PrivateInfo(parse_stored(r.target), r.created_at, self._exists(session, r.target))
                for r in rows
            ]

    # --- marking ------------------------------------------------------------------------

    def set_private(self, target: Target, private: bool) -> bool:
        """Mark or unmark ``target`` as one history step; False when it already was so.

        Marking an item that is not there (or is in Trash) is refused; unmarking one that is
        gone is allowed, so a mark left behind can be cleared.
        """
        label = f"{'Make' if private else 'Stop making'} {target.words} private"
        with self.ctx.change(label) as session:
            row = session.get(PrivateItem, str(target))
            if private and not self._exists(session, str(target)):
                raise NotFoundError(f"no {NOUNS[target.kind]} {target.name!r}")
            if (row is not None) == private:
                return False
            if private:
                session.add(PrivateItem(target=str(target), created_at=self.ctx.now()))
            else:
                session.delete(row)
        return True

    @staticmethod
    def _exists(session: Session, stored: str) -> bool:
        target = parse_stored(stored)
        if target.kind is TargetKind.APP:
            query = select(App.app_id).where(App.app_id == target.name)
        elif target.kind is TargetKind.ENTRY:
            query = select(Entry.id).where(Entry.key == target.name, Entry.deleted_at.is_(None))
        else:
            query = select(Document.id).where(
                Document.namespace == target.name, Document.deleted_at.is_(None)
            )
        return session.scalar(query) is not None

    # --- app limits ---------------------------------------------------------------------

    def set_app_limit(self, name: str, apps: Iterable[str] | None) -> str:
        """Limit an assistant to ``apps`` (None: lift the limit); the actor it was set for.

        An assistant not known yet is named in full (``mcp:NAME``) and is known from then on;
        an app need not exist yet: the limit applies when it appears.
        """
        # Only a limit names an assistant: reading the private items (which a window does as
        # it opens) does not load the assistants' module.
        from memdesk.services.assistants import Assistants

        actor = Assistants(self.ctx).resolve(name)
        chosen = None if apps is None else sorted({check_app_id(app.strip()) for app in apps})
        if chosen is not None and not chosen:
            raise BadInputError("name at least one app", "or give --all to lift the limit")
        with self.ctx.store.write() as session:
            session.execute(delete(AssistantApp).where(AssistantApp.actor == actor))
            now = self.ctx.now()
            session.add_all(AssistantApp(actor=actor, app_id=app, updated_at=now) for app in chosen or ())
        return actor


def private_names(session: Session, kind: TargetKind) -> frozenset[str]:
    """The names of the private items of one kind, read in ``session``."""
    return frozenset(parse_stored(target).name for target in session.scalars(_PRIVATE_OF_KIND[kind]))

