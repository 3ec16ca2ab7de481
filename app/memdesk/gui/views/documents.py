"""Documents: profile, patterns, facts, global and session notes, edited as markdown."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QWidget

from memdesk.core.items import Changes, ItemKind, ItemRef
from memdesk.core.namespaces import is_working
from memdesk.core.privacy import Target, TargetKind
from memdesk.core.tokens import estimate_tokens
from memdesk.gui import theme
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.editor_view import EditorView
from memdesk.gui.widgets.display import document_title
from memdesk.gui.widgets.last_read import LastReadLabel
from memdesk.gui.widgets.private_toggle import PrivateToggle
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.memdesk import Memdesk

DESCRIPTIONS = {
    "profile": "Who the person is: name, role, how they like to be addressed. Always in the prompt.",
    "patterns": "How the person works and what they prefer, learned over time.",
    "facts": "Lasting facts worth recalling when a message touches them.",
    "global": "Notes shared by every user and session.",
}


def user_documents(user_namespace: str) -> list[str]:
    base = user_namespace or "user"
    return [f"{base}/profile", f"{base}/patterns", f"{base}/facts", "global"]


class DocumentsView(EditorView):
    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(app, tasks, parent)
        self.namespace = ""
        self.header = ViewHeader()
        self.picker = QComboBox()
        self.picker.setAccessibleName("Document")
        self.picker.setMinimumContentsLength(18)
        self.picker.activated.connect(lambda index: self.show_namespace(self.picker.itemData(index)))
        self.private_toggle = PrivateToggle(tasks, ItemKind.DOCUMENT)
        self.header.add_action(self.private_toggle)
        self.header.add_action(self.picker)
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        self._add_editor(layout)
        self.last_read = LastReadLabel(tasks)
        layout.addWidget(self.last_read)

    def show_namespace(self, namespace: str) -> None:
        self.namespace = namespace
        kind = namespace.rsplit("/", 1)[-1] if "/" in namespace else namespace
        description = DESCRIPTIONS.get(kind, "Notes kept for this conversation.")
        self.header.set_text(document_title(namespace), f"{namespace} · {description}")
        item_kind = ItemKind.WORKING if is_working(namespace) else ItemKind.DOCUMENT
        self.last_read.show_item(ItemRef(ItemKind.DOCUMENT, namespace), again=True)
        self.autosave.open(
            namespace,
            lambda app: app.documents.text(namespace),
            lambda app, text: app.documents.set(namespace, text).content,
            Changes.of(item_kind, refs=(ItemRef(item_kind, namespace),)),
        )
        self.private_toggle.show_target(Target(TargetKind.DOC, namespace))
        self._fill_picker()

    def refresh(self) -> None:
        self.autosave.refresh()
        self.private_toggle.refresh()
        self._fill_picker()

    def _fill_picker(self) -> None:
        standard = user_documents(self.app.settings.memory.user_namespace)

        def job(app: Memdesk) -> list[str]:
            sessions = [
                doc.namespace
                for doc in app.documents.list()
                if doc.namespace.startswith("sessions/") and not is_working(doc.namespace)
            ]
            return standard + sessions

        self.tasks.read(job, on_done=self._set_picker)

    def _set_picker(self, namespaces: list[str]) -> None:
        if self.namespace and self.namespace not in namespaces:
            namespaces.append(self.namespace)
        self.picker.blockSignals(True)
        self.picker.clear()
        for namespace in namespaces:
            self.picker.addItem(document_title(namespace), namespace)
        self.picker.setCurrentIndex(max(0, self.picker.findData(self.namespace)))
        self.picker.blockSignals(False)

    def _update_size(self) -> None:
        text = self.editor.text()
        self.size_label.setText(f"{estimate_tokens(text):,} tokens · {len(text):,} characters")
