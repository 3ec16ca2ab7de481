"""The Files view: MEMORY.md folders listed, edited, archived and restored; trust; disk changes."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt

from memdesk.config import load_settings
from memdesk.gui.views.files import FilesModel, FilesView, file_rows
from memdesk.services import files

INDEX = "# Index\n\n- Build with make\n- Deploy on Fridays\n\n## Old section\n\nstale\n"


def files_view(qtbot, memdesk_app, tasks, settle, scope: str = files.GLOBAL) -> FilesView:
    view = FilesView(memdesk_app, tasks)
    qtbot.addWidget(view)
    view.show()
    view.show_scope(scope)
    settle()
    return view


def names(view: FilesView) -> list[str]:
    return [row.name for row in view.model.rows]


def test_files_are_listed_index_first_then_topics_then_archive(qtbot, memdesk_app, tasks, settle):
    folder = memdesk_app.files_global_dir
    files.write_file(folder, "zeta.md", "z")
    files.write_file(folder, "Alpha.md", "a")
    files.write_file(folder, "MEMORY.md", INDEX)
    files.write_file(folder / "archive", "old.md", "o")
    view = files_view(qtbot, memdesk_app, tasks, settle)
    assert names(view) == ["MEMORY.md", "Alpha.md", "zeta.md", "archive/old.md"]
    sizes = [view.model.index(r, FilesModel.SIZE).data() for r in range(view.model.rowCount())]
    assert sizes[0] == f"{len(INDEX.encode())} B"
    assert view.header.subtitle.text() == str(folder)
    assert view.editor.text() == INDEX  # the index opens first


def test_injected_and_total_bytes_with_an_over_cap_warning(qtbot, memdesk_app, tasks, settle):
    memdesk_app.update_settings(
        memdesk_app.settings.with_values({"files.enabled": True, "files.max_inject_bytes": 256})
    )
    folder = memdesk_app.files_global_dir
    files.write_file(folder, "MEMORY.md", "".join(f"- fact number {n}\n" for n in range(40)))
    view = files_view(qtbot, memdesk_app, tasks, settle)
    text = view.index_label.text()
    assert text.startswith("Over the cap:")
    assert "of 40 lines" in text and "256 B" in text


def test_opening_does_not_create_the_folder_and_the_first_save_does(qtbot, memdesk_app, tasks, settle):
    folder = memdesk_app.files_global_dir
    view = files_view(qtbot, memdesk_app, tasks, settle)
    assert not folder.exists()
    assert names(view) == ["MEMORY.md"]  # listed so it can be written
    assert "created when you first save" in view.header.subtitle.text()
    qtbot.keyClicks(view.editor.editor, "- First fact")
    view.flush()
    settle()
    assert (folder / "MEMORY.md").read_text(encoding="utf-8") == "- First fact"


def test_editing_a_topic_writes_the_file(qtbot, memdesk_app, tasks, settle):
    folder = memdesk_app.files_global_dir
    files.write_file(folder, "MEMORY.md", INDEX)
    files.write_file(folder, "build.md", "# Build\n")
    view = files_view(qtbot, memdesk_app, tasks, settle)
    view.table.selectRow(names(view).index("build.md"))
    settle()
    assert view.editor.text() == "# Build\n"
    view.editor.editor.moveCursor(view.editor.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(view.editor.editor, "Run make.")
    build = folder / "build.md"
    qtbot.waitUntil(lambda: build.read_text(encoding="utf-8") == "# Build\nRun make.", timeout=3000)


def test_archive_and_restore_a_file(qtbot, memdesk_app, tasks, settle):
    folder = memdesk_app.files_global_dir
    files.write_file(folder, "MEMORY.md", INDEX)
    files.write_file(folder, "old.md", "old")
    view = files_view(qtbot, memdesk_app, tasks, settle)
    view.table.selectRow(names(view).index("old.md"))
    qtbot.mouseClick(view.archive_button, Qt.MouseButton.LeftButton)
    settle()
    assert (folder / "archive" / "old.md").exists() and not (folder / "old.md").exists()
    assert names(view) == ["MEMORY.md", "archive/old.md"]
    view.table.selectRow(1)
    assert view.restore_button.isEnabled() and not view.archive_button.isEnabled()
    qtbot.mouseClick(view.restore_button, Qt.MouseButton.LeftButton)
    settle()
    assert (folder / "old.md").read_text(encoding="utf-8") == "old"


def test_archive_an_entry_of_the_index_and_restore_it(qtbot, memdesk_app, tasks, settle):
    folder = memdesk_app.files_global_dir
    files.write_file(folder, "MEMORY.md", INDEX)
    view = files_view(qtbot, memdesk_app, tasks, settle)
    titles = [view.entries.item(i).text() for i in range(view.entries.count())]
    assert titles == ["- Build with make", "- Deploy on Fridays", "## Old section"]
    view.entries.setCurrentRow(2)
    qtbot.mouseClick(view.entry_button, Qt.MouseButton.LeftButton)
    settle()
    assert "Old section" not in (folder / "MEMORY.md").read_text(encoding="utf-8")
    assert "## Old section" in (folder / "archive" / "MEMORY.md").read_text(encoding="utf-8")
    assert view.editor.text() == (folder / "MEMORY.md").read_text(encoding="utf-8")  # the editor follows
    view.table.selectRow(names(view).index("archive/MEMORY.md"))
    settle()
    assert view.entry_button.text() == "Restore entry"
    view.entries.setCurrentRow(0)
    view.move_selected_entry()
    settle()
    assert "## Old section" in (folder / "MEMORY.md").read_text(encoding="utf-8")


def test_new_file(qtbot, memdesk_app, tasks, settle, answer):
    view = files_view(qtbot, memdesk_app, tasks, settle)
    answer("ask_text", "release-notes.md")
    view.new_file()
    settle()
    path = memdesk_app.files_global_dir / "release-notes.md"
    assert path.read_text(encoding="utf-8") == "# Release notes\n"
    assert "release-notes.md" in names(view)


def test_a_file_changed_on_disk_shows_up(qtbot, memdesk_app, tasks, settle):
    folder = memdesk_app.files_global_dir
    files.write_file(folder, "MEMORY.md", INDEX)
    view = files_view(qtbot, memdesk_app, tasks, settle)
    (folder / "added-by-agent.md").write_text("# New\n", encoding="utf-8")
    qtbot.waitUntil(lambda: "added-by-agent.md" in names(view), timeout=5000)
    (folder / "MEMORY.md").write_text(INDEX + "- Written by the agent\n", encoding="utf-8")
    qtbot.waitUntil(lambda: "Written by the agent" in view.editor.text(), timeout=5000)


def test_the_trust_box_writes_the_trusted_projects_setting(
    qtbot, memdesk_app, tasks, settle, answer, tmp_path
):
    project = tmp_path / "repo"
    files.write_file(files.project_memory_dir(project), "MEMORY.md", "- project fact\n")
    view = files_view(qtbot, memdesk_app, tasks, settle, files.PROJECT)
    assert "Choose a project folder" in view.untrusted.text()
    answer("pick_folder", project)
    remembered = []
    view.project_changed.connect(remembered.append)
    qtbot.mouseClick(view.choose_button, Qt.MouseButton.LeftButton)
    settle()
    assert view.model.rows == [] and not view.trust_box.isChecked()
    assert remembered == [project]
    view.trust_box.setChecked(True)
    settle()
    assert names(view) == ["MEMORY.md"]
    assert view.editor.text() == "- project fact\n"
    config = memdesk_app.paths.config_file
    assert f'trusted_projects = ["{project}"]' in config.read_text(encoding="utf-8")
    assert load_settings(config).settings.files.trusted_projects == (str(project),)
    view.trust_box.setChecked(False)
    settle()
    assert view.model.rows == []
    assert load_settings(config).settings.files.trusted_projects == ()


def test_a_project_trusted_elsewhere_shows_trusted(qtbot, memdesk_app, tasks, settle, tmp_path):
    """Trusted with `memdesk files trust`, a folder of the repository: the box is ticked and the
    repository's memory folder is shown."""
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    files.write_file(files.project_memory_dir(project), "MEMORY.md", "- project fact\n")
    memdesk_app.update_settings(memdesk_app.settings.with_values({"files.trusted_projects": [str(project)]}))
    view = FilesView(memdesk_app, tasks)
    qtbot.addWidget(view)
    view.set_project(project / "src")
    view.show()
    view.show_scope(files.PROJECT)
    settle()
    assert view.trust_box.isChecked()
    assert view.header.subtitle.text() == str(files.project_memory_dir(project))
    assert "trusted as part of the repository" in view.project_label.text()


def test_config_problems_are_shown(qtbot, memdesk_app, tasks, settle):
    folder = memdesk_app.files_global_dir
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps({"maxInjectLines": -3}), encoding="utf-8")
    view = files_view(qtbot, memdesk_app, tasks, settle)
    assert view.problems.isVisible()
    assert "maxInjectLines" in view.problems.label.text()


def test_the_chosen_project_is_remembered_by_the_window(main_window, tmp_path, answer, settle):
    answer("pick_folder", tmp_path)
    main_window.show_page("files:project")
    settle()
    main_window.views["files"].choose_project()
    main_window.views["files"].trust_box.setChecked(True)
    settle()
    saved = json.loads(Path(main_window.state.path).read_text(encoding="utf-8"))
    assert saved["project"] == str(tmp_path) and "project_trusted" not in saved
    assert main_window.app.settings.files.trusted_projects == (str(tmp_path),)


def test_files_model_passes_the_model_tester(memdesk_app, qtmodeltester):
    folder = memdesk_app.files_global_dir
    files.write_file(folder, "a.md", "a")
    status = files.files_status(folder, None, False, 200, 8192)
    model = FilesModel()
    qtmodeltester.check(model)
    model.set_rows(file_rows(status.scopes[0]))
    qtmodeltester.check(model)
    assert [row.name for row in model.rows] == ["MEMORY.md", "a.md"]


def test_a_project_trusted_in_an_earlier_version_stays_trusted(main_window, tmp_path, settle):
    """Versions before the setting kept the trust in the window's state: it is moved to the
    setting once, so the project's memory still reaches the assistant without asking again."""
    main_window.state.set("project", str(tmp_path))
    main_window.state.set("project_trusted", True)
    main_window.show_page("files:project")
    settle()
    assert main_window.app.settings.files.trusted_projects == (str(tmp_path.resolve()),)
    assert main_window.views["files"].trust_box.isChecked()
    saved = json.loads(Path(main_window.state.path).read_text(encoding="utf-8"))
    assert "project_trusted" not in saved and saved["project"] == str(tmp_path)
