"""The Flynn memory folder: one markdown file per namespace, working memory with its header.

user/profile.md  user/patterns.md  user/facts.md  user/working.md  global.md
sessions/<id>.md
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from memdesk.core import working as working_format
from memdesk.core.namespaces import check_namespace, is_working
from memdesk.core.suspicious import flagged
from memdesk.core.timefmt import format_iso
from memdesk.errors import BadInputError, MemdeskError
from memdesk.services.context import MAX_DOCUMENT_CHARS, Context, check_text
from memdesk.services.documents import Documents
from memdesk.services.working import WorkingMemory

# (relative path, namespace, text, or working memory parsed from its header)
_FlynnFile = tuple[str, str, str | working_format.WorkingFile]


@dataclass
class FlynnReport:
    written: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    flagged: list[str] = field(default_factory=list)  # files that read as instructions, and why


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
        """Import every ``*.md`` of the folder, all or nothing: any bad file refuses the import."""
        if not folder.is_dir():
            raise BadInputError(f"{folder} is not a folder")
        files, problems = self._read_files(folder)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise BadInputError(f"{folder}: {problems[0]}{more}; nothing was imported")
        report = FlynnReport()
        with self.ctx.change(f"Import Flynn folder {folder.name}"):
            for relative, namespace, body in files:
                if isinstance(body, working_format.WorkingFile):
                    self._import_working(namespace, body, report, relative)
                else:
                    self.documents.set(namespace, body.rstrip("\n"))
                report.written.append(relative)
                text = body.content if isinstance(body, working_format.WorkingFile) else body
                found = flagged(relative, text)  # another assistant's memory: say what reads as orders
                if found:
                    report.flagged.append(found)
        return report

    @staticmethod
    def _read_files(folder: Path) -> tuple[list[_FlynnFile], list[str]]:
        """Each file as (relative path, namespace, text or parsed working memory), and
        "path: why" for each bad one."""
        files: list[_FlynnFile] = []
        problems: list[str] = []
        for path in sorted(folder.rglob("*.md")):
            relative = path.relative_to(folder).as_posix()
            namespace = relative[: -len(".md")]
            try:
                check_namespace(namespace)
                if not path.is_file():
                    raise BadInputError("not a file")
                if path.stat().st_size > MAX_DOCUMENT_CHARS * 4:
                    raise BadInputError(f"{path.stat().st_size:,} bytes is too large")
                text = path.read_bytes().decode("utf-8")
                check_text(text, "the text", MAX_DOCUMENT_CHARS, allow_empty=True)
                body = working_format.parse(text) if is_working(namespace) else text
            except UnicodeDecodeError as exc:
                problems.append(f"{relative}: not valid UTF-8 (byte {exc.start})")
            except BadInputError as exc:
                problems.append(f"{relative}: {exc.message}")
            except OSError as exc:
                problems.append(f"{relative}: cannot be read ({exc.strerror})")
            else:
                files.append((relative, namespace, body))
        return files, problems

    def _import_working(
        self, namespace: str, parsed: working_format.WorkingFile, report: FlynnReport, relative: str
    ) -> None:
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
