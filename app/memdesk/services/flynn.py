"""The Flynn memory folder: one markdown file per namespace, working memory with its header.

user/profile.md  user/patterns.md  user/facts.md  user/working.md  global.md
sessions/<id>.md
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from memdesk.core import working as working_format
from memdesk.core.namespaces import check_namespace, is_working
from memdesk.core.timefmt import format_iso
from memdesk.errors import BadInputError, MemdeskError
from memdesk.services.context import MAX_DOCUMENT_CHARS, Context
from memdesk.services.documents import Documents
from memdesk.services.working import WorkingMemory


@dataclass
class FlynnReport:
    written: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "path: why"
    notes: list[str] = field(default_factory=list)


class FlynnFolder:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.documents = Documents(ctx)
        self.working = WorkingMemory(ctx)

    def export(self, folder: Path) -> FlynnReport:
        report = FlynnReport()
        files: dict[str, str] = {}
        for doc in self.documents.list():
            if not is_working(doc.namespace):
                files[f"{doc.namespace}.md"] = doc.content
            elif doc.namespace.startswith("sessions/") or self.ctx.settings.memory.user_namespace:
                rendered = working_format.render(
                    doc.content, doc.updated_at, doc.expires_at or doc.updated_at
                )
                files[f"{doc.namespace}.md"] = rendered + "\n"
        try:
            for relative, content in files.items():
                target = folder / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(content, encoding="utf-8")
                report.written.append(relative)
        except OSError as exc:
            raise MemdeskError(f"cannot write to {folder}: {exc.strerror}") from None
        return report

    def import_(self, folder: Path) -> FlynnReport:
        """Import every ``*.md`` whose path is a namespace; report what was skipped and why."""
        if not folder.is_dir():
            raise BadInputError(f"{folder} is not a folder")
        report = FlynnReport()
        with self.ctx.change(f"Import Flynn folder {folder.name}"):
            self._import_files(folder, report)
        return report

    def _import_files(self, folder: Path, report: FlynnReport) -> None:
        for path in sorted(folder.rglob("*.md")):
            relative = path.relative_to(folder).as_posix()
            namespace = relative[: -len(".md")]
            try:
                check_namespace(namespace)
                raw = path.read_bytes()
                if len(raw) > MAX_DOCUMENT_CHARS * 4:
                    raise BadInputError(f"{len(raw):,} bytes is too large")
                text = raw.decode("utf-8")
                if is_working(namespace):
                    self._import_working(namespace, text, report, relative)
                else:
                    self.documents.set(namespace, text.rstrip("\n"))
            except UnicodeDecodeError as exc:
                report.skipped.append(f"{relative}: not valid UTF-8 (byte {exc.start})")
                continue
            except BadInputError as exc:
                report.skipped.append(f"{relative}: {exc.message}")
                continue
            report.written.append(relative)

    def _import_working(self, namespace: str, text: str, report: FlynnReport, relative: str) -> None:
        parsed = working_format.parse(text)
        session_id = namespace.split("/")[1] if namespace.startswith("sessions/") else None
        state = self.working.write(
            parsed.content,
            session_id=session_id,
            updated_at=parsed.updated_at,
            expires_at=parsed.expires_at,
        )
        if not state.live:
            report.notes.append(
                f"{relative}: expired at {format_iso(parsed.expires_at)}; imported, not in the prompt"
            )
