"""Commands on what the store holds: doc, working, app, entry, recall, session."""

from __future__ import annotations

import argparse
from datetime import datetime
from typing import TYPE_CHECKING

from memdesk.cli.io import listed, note_if_instructions, one_line, say_aside, text_argument
from memdesk.core.plural import plural
from memdesk.core.records import APP_IMPORTANCE_SCALE, ENTRY_IMPORTANCE_SCALE

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk
    from memdesk.services.working import WorkingState


def _moment(value: str) -> datetime:
    from memdesk.core.timefmt import parse_moment
    from memdesk.errors import BadInputError

    try:
        return parse_moment(value, "time")
    except BadInputError as error:
        raise argparse.ArgumentTypeError(f"{error.message} ({error.hint})") from None


def _positive_int(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {value!r}")
    return int(value)


def register(subparsers: argparse._SubParsersAction) -> None:
    _register_doc(subparsers)
    _register_working(subparsers)
    _register_app(subparsers)
    _register_entry(subparsers)
    _register_recall(subparsers)
    _register_session(subparsers)


# --- doc --------------------------------------------------------------------------------


def _register_doc(subparsers: argparse._SubParsersAction) -> None:
    doc = subparsers.add_parser("doc", help="namespace documents (user/profile, global, ...)")
    sub = doc.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser("list", help="list documents").set_defaults(handler=doc_list)
    show = sub.add_parser("show", help="print a document")
    show.add_argument("namespace", metavar="NS")
    show.set_defaults(handler=doc_show)
    for name, handler in (("set", doc_set), ("append", doc_append)):
        parser = sub.add_parser(name, help=f"{name} a document's text ('-' reads stdin)")
        parser.add_argument("namespace", metavar="NS")
        parser.add_argument("text", metavar="TEXT")
        parser.set_defaults(handler=handler)


def doc_list(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.core.timefmt import format_iso
    from memdesk.core.tokens import estimate_tokens

    docs = app.documents.list()
    for doc in docs:
        print(f"{doc.namespace}\t{format_iso(doc.updated_at)}\t{estimate_tokens(doc.content)} tokens")
    return listed(app, len(docs))


def doc_show(args: argparse.Namespace, app: Memdesk) -> int:
    doc = app.documents.get(args.namespace)
    if doc is not None and doc.content:
        print(doc.content)
    else:  # on standard error: standard output stays the document itself, here nothing
        written = "" if doc is not None else " (nothing has been written to it yet)"
        say_aside(f"{args.namespace} is empty{written}.")
    return 0


def doc_set(args: argparse.Namespace, app: Memdesk) -> int:
    text = text_argument(args.text)
    doc = app.documents.set(args.namespace, text)
    print(f"set {doc.namespace} ({plural(len(doc.content), 'character')})")
    note_if_instructions(text)
    return 0


def doc_append(args: argparse.Namespace, app: Memdesk) -> int:
    text = text_argument(args.text)
    doc = app.documents.append(args.namespace, text)
    print(f"appended to {doc.namespace} (now {plural(len(doc.content), 'character')})")
    note_if_instructions(text)
    return 0


# --- working ----------------------------------------------------------------------------


def _register_working(subparsers: argparse._SubParsersAction) -> None:
    working = subparsers.add_parser("working", help="working memory (recent context that expires)")
    sub = working.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = sub.add_parser("show", help="print working memory while it is live")
    show.add_argument("--all", action="store_true", help="show it even when expired, with its state")
    set_ = sub.add_parser("set", help="replace working memory ('-' reads stdin)")
    set_.add_argument("text", metavar="TEXT")
    set_.add_argument(
        "--ttl-days",
        type=_positive_int,
        metavar="N",
        help="days until it expires (default: the setting memory.working_memory_ttl_days; "
        "the line printed says when)",
    )
    extend = sub.add_parser("extend", help="push the expiry back by DAYS")
    extend.add_argument("days", type=_positive_int, metavar="DAYS")
    pin = sub.add_parser("pin", help="keep it until expired by hand")
    expire = sub.add_parser("expire", help="expire it now (it stays, greyed, until replaced)")
    for parser, handler in ((show, working_show), (set_, working_set), (extend, working_extend),
                            (pin, working_pin), (expire, working_expire)):  # fmt: skip
        parser.add_argument("--session", metavar="S", help="session (per-session mode)")
        parser.set_defaults(handler=handler)


def _state_line(state: WorkingState) -> str:
    from memdesk.core.timefmt import format_iso

    if state.pinned or state.expires_at is None:
        status = "pinned (no expiry)"
    elif state.live:
        status = f"live, expires {format_iso(state.expires_at)}"
    else:
        status = state.reason
    return f"# {state.namespace}: {status}; updated {format_iso(state.updated_at)}"


def _print_state(state: WorkingState) -> None:
    print(_state_line(state))


def working_show(args: argparse.Namespace, app: Memdesk) -> int:
    state = app.working.state(args.session)
    if state is None:
        return 0
    if args.all:
        _print_state(state)
        print(state.content)
        return 0
    # Standard output is the text alone, for scripts; when it expires is said aside.
    if state.live:
        say_aside(_state_line(state))
        print(state.content)
    else:
        say_aside(f"{_state_line(state)}: not in the prompt (--all prints it)")
    return 0


def working_set(args: argparse.Namespace, app: Memdesk) -> int:
    text = text_argument(args.text)
    _print_state(app.working.write(text, args.ttl_days, args.session))
    note_if_instructions(text)
    return 0


def working_extend(args: argparse.Namespace, app: Memdesk) -> int:
    _print_state(app.working.extend(args.days, args.session))
    return 0


def working_pin(args: argparse.Namespace, app: Memdesk) -> int:
    _print_state(app.working.pin(args.session))
    return 0


def working_expire(args: argparse.Namespace, app: Memdesk) -> int:
    _print_state(app.working.expire(args.session))
    return 0


# --- app --------------------------------------------------------------------------------


def _memory_id(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"expected a memory id (a number), not {value!r}")
    return int(value)


def _register_app(subparsers: argparse._SubParsersAction) -> None:
    app = subparsers.add_parser("app", help="per-app memories (capped per app)")
    sub = app.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser("list", help="apps with their memory counts").set_defaults(handler=app_list)
    show = sub.add_parser("show", help="an app's memories, most recently updated first")
    show.add_argument("app_id", metavar="APP")
    show.set_defaults(handler=app_show)
    add = sub.add_parser("add", help="add a memory (the oldest goes to Trash over the cap)")
    add.add_argument("app_id", metavar="APP")
    add.add_argument("text", metavar="TEXT")
    add.add_argument("--created", type=_moment, metavar="TIME", help="ISO 8601 or Unix seconds")
    add.add_argument(
        "--importance", type=int, metavar="N", help=f"how much it matters: {APP_IMPORTANCE_SCALE}"
    )
    add.add_argument("--tag", action="append", default=[], metavar="T")
    add.set_defaults(handler=app_add)
    edit = sub.add_parser("edit", help="replace a memory's text")
    edit.add_argument("memory_id", type=_memory_id, metavar="ID")
    edit.add_argument("text", metavar="TEXT")
    edit.set_defaults(handler=app_edit)
    rm = sub.add_parser("rm", help="move a memory to Trash")
    rm.add_argument("memory_id", type=_memory_id, metavar="ID")
    rm.set_defaults(handler=app_rm)
    purge = sub.add_parser("purge", help="move all of an app's memories to Trash")
    purge.add_argument("app_id", metavar="APP")
    purge.add_argument("--yes", action="store_true", help="confirm")
    purge.set_defaults(handler=app_purge)


def app_list(args: argparse.Namespace, app: Memdesk) -> int:
    summaries = app.apps.list_apps()
    for summary in summaries:
        name = f"\t{summary.name}" if summary.name else ""
        flag = "\tOVER CAP" if summary.over_cap else ""
        print(f"{summary.app_id}\t{summary.live}/{summary.cap}{name}{flag}")
    return listed(app, len(summaries))


def app_show(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.core.timefmt import format_day
    from memdesk.errors import NotFoundError

    if app.apps.app(args.app_id) is None:
        raise NotFoundError(f"no app {args.app_id!r}", "`memdesk app list` lists the apps")
    memories = app.apps.memories(args.app_id, include_expired=False)
    for memory in memories:
        print(f"{memory.id} [{format_day(memory.created_at)}] {memory.content}")
    if not memories:
        say_aside(f"{args.app_id} has no live memories.")
    return 0


def app_add(args: argparse.Namespace, app: Memdesk) -> int:
    text = text_argument(args.text)
    result = app.apps.add(args.app_id, text, args.created, args.importance, args.tag)
    print(f"added {result.memory.id} to {args.app_id}")
    for removed in result.removed:
        print(f"moved {removed.id} to Trash (oldest; the cap is {app.apps.cap})")
    note_if_instructions(text)
    return 0


def app_edit(args: argparse.Namespace, app: Memdesk) -> int:
    text = text_argument(args.text)
    memory = app.apps.edit(args.memory_id, text)
    print(f"edited {memory.id} in {memory.app_id}")
    note_if_instructions(text)
    return 0


def app_rm(args: argparse.Namespace, app: Memdesk) -> int:
    app.apps.delete([args.memory_id])
    print(f"moved {args.memory_id} to Trash (undo with `memdesk undo`)")
    return 0


def app_purge(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.errors import BadInputError

    if not args.yes:
        raise BadInputError("purge needs --yes", "it moves every memory of the app to Trash")
    count = app.apps.purge(args.app_id)
    print(f"moved {plural(count, 'memory', 'memories')} of {args.app_id} to Trash (undo with `memdesk undo`)")
    return 0


# --- entry ------------------------------------------------------------------------------


def _register_entry(subparsers: argparse._SubParsersAction) -> None:
    entry = subparsers.add_parser("entry", help="knowledge and timeline entries")
    sub = entry.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = sub.add_parser("add", help="add an entry, or update the one with this key")
    add.add_argument("key", metavar="KEY")
    add.add_argument("text", metavar="TEXT")
    add.add_argument("--category", choices=("knowledge", "timeline"), default="knowledge")
    add.add_argument(
        "--importance",
        type=float,
        metavar="X",
        help=f"how much it matters: {ENTRY_IMPORTANCE_SCALE} (default 0.5)",
    )
    add.set_defaults(handler=entry_add)
    rm = sub.add_parser("rm", help="move an entry to Trash")
    rm.add_argument("key", metavar="KEY")
    rm.set_defaults(handler=entry_rm)
    list_ = sub.add_parser(
        "list", help="entries, newest first; an expired one is marked (expired TIME), as recall leaves it out"
    )
    list_.add_argument("--category", choices=("knowledge", "timeline"))
    list_.set_defaults(handler=entry_list)


def entry_add(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.errors import NotFoundError

    text = text_argument(args.text)
    try:
        app.entries.get(args.key)
        verb = "updated"
    except NotFoundError:
        verb = "added"
    entry = app.entries.upsert(args.key, text, args.category, args.importance)
    print(f"{verb} {entry.category} entry {entry.key}")
    note_if_instructions(text)
    return 0


def entry_rm(args: argparse.Namespace, app: Memdesk) -> int:
    app.entries.delete_key(args.key)
    print(f"moved entry {args.key} to Trash (undo with `memdesk undo`)")
    return 0


def entry_list(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.core.timefmt import format_iso

    entries = app.entries.list(args.category)
    for entry in entries:
        # Recall and the prompt leave an expired entry out; the list keeps it, marked.
        expired = f" (expired {format_iso(entry.expires_at)})" if entry.expired and entry.expires_at else ""
        print(f"{entry.key} [{entry.category}]{expired} {one_line(entry.content)}")
    return listed(app, len(entries))


# --- recall -----------------------------------------------------------------------------


def _register_recall(subparsers: argparse._SubParsersAction) -> None:
    recall = subparsers.add_parser("recall", help="full-text search of entries, best first")
    recall.add_argument("query", metavar="QUERY")
    recall.add_argument("--limit", type=_positive_int, default=5, metavar="N")
    recall.add_argument("--category", choices=("knowledge", "timeline"))
    recall.add_argument("--since", type=_moment, metavar="TIME", help="ISO 8601 or Unix seconds")
    recall.add_argument("--until", type=_moment, metavar="TIME", help="ISO 8601 or Unix seconds")
    recall.set_defaults(handler=recall_run)


def recall_run(args: argparse.Namespace, app: Memdesk) -> int:
    hits = app.recall.entries(args.query, args.limit, args.category, args.since, args.until)
    for hit in hits:
        print(f"{hit.ref}: {' '.join(hit.text.split())}")
    return listed(app, len(hits))


# --- session ----------------------------------------------------------------------------


def _register_session(subparsers: argparse._SubParsersAction) -> None:
    session = subparsers.add_parser("session", help="conversation logs that compaction reads")
    sub = session.add_subparsers(dest="action", metavar="ACTION", required=True)
    log = sub.add_parser("log", help="append a message to a session")
    log.add_argument("session_id", metavar="SESSION")
    log.add_argument("--role", choices=("user", "assistant", "system"), required=True)
    log.add_argument("text", metavar="TEXT")
    log.add_argument("--app", metavar="APP")
    log.set_defaults(handler=session_log)
    sub.add_parser("list", help="sessions with message counts").set_defaults(handler=session_list)
    show = sub.add_parser("show", help="a session's messages")
    show.add_argument("session_id", metavar="SESSION")
    show.set_defaults(handler=session_show)


def session_log(args: argparse.Namespace, app: Memdesk) -> int:
    app.sessions.log(args.session_id, args.role, text_argument(args.text), args.app)
    print(f"logged a {args.role} message in {args.session_id}")
    return 0


def session_list(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.core.timefmt import format_iso

    sessions = app.sessions.list()
    for s in sessions:
        consolidated = format_iso(s.last_consolidated_at) if s.last_consolidated_at else "never"
        print(
            f"{s.id}\t{s.app_id or '-'}\t{plural(s.messages, 'message')}\t{s.unconsolidated} new\t"
            f"consolidated {consolidated}"
        )
    return listed(app, len(sessions))


def session_show(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.core.timefmt import format_iso

    for message in app.sessions.messages(args.session_id):
        print(f"[{format_iso(message.created_at)}] {message.role}: {message.content}")
    return 0
