"""``memdesk export`` / ``import``: whole-store JSON, or the documents as a Flynn folder of Markdown files."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from memdesk.core.plural import plural

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


def register(subparsers: argparse._SubParsersAction) -> None:
    export = subparsers.add_parser("export", help="write the whole store to a JSON file")
    export.add_argument("file", nargs="?", metavar="FILE")
    export.add_argument(
        "--flynn",
        metavar="DIR",
        help="write the documents as Markdown files instead, in the layout of the Flynn memory "
        "system (user/profile.md, user/working.md, global.md, sessions/ID.md)",
    )
    export.add_argument(
        "--with-access-log", action="store_true", help="include the log of what assistants read"
    )
    export.set_defaults(handler=export_run)
    import_ = subparsers.add_parser("import", help="read a JSON export, or a folder of Markdown documents")
    import_.add_argument("file", nargs="?", metavar="FILE")
    import_.add_argument(
        "--flynn",
        metavar="DIR",
        help="read Markdown documents instead, from a folder in the layout of the Flynn memory "
        "system (user/profile.md, user/working.md, global.md, sessions/ID.md)",
    )
    import_.add_argument("--mode", choices=("skip", "overwrite"), default="skip",
                         help="what to do with items that already exist (default: skip)")  # fmt: skip
    import_.set_defaults(handler=import_run)


def _target(args: argparse.Namespace) -> tuple[Path | None, Path | None]:
    from memdesk.errors import BadInputError

    if bool(args.file) == bool(args.flynn):
        raise BadInputError("give either FILE or --flynn DIR")
    return (Path(args.file) if args.file else None, Path(args.flynn) if args.flynn else None)


def export_run(args: argparse.Namespace, app: Memdesk) -> int:
    file, folder = _target(args)
    if file is not None:
        counts = app.transfer.export_file(file, args.with_access_log)
        print(", ".join(f"{n} {section}" for section, n in counts.items()))
    else:
        assert folder is not None
        report = app.flynn.export(folder)
        print(f"wrote {plural(len(report.written), 'file')} to {folder}")
    return 0


def import_run(args: argparse.Namespace, app: Memdesk) -> int:
    file, folder = _target(args)
    if file is not None:
        report = app.transfer.import_file(file, args.mode)
        print(f"added {report.added}, updated {report.updated}, skipped {report.skipped}")
        for line in report.flagged:
            print(f"note: {line}")
        return 0
    assert folder is not None
    report = app.flynn.import_(folder)
    print(f"imported {plural(len(report.written), 'file')} from {folder}")
    for note in report.notes + report.flagged:
        print(f"note: {note}")
    return 0
