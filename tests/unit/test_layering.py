"""Qt stays in memdesk.gui; the CLI's import path stays light."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "app" / "memdesk"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def importers_outside(home: str, top: str) -> list[str]:
    """Modules outside ``memdesk.{home}`` that import the package ``top``."""
    return [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if home not in path.relative_to(PACKAGE).parts[:1]
        and any(name.split(".")[0] == top for name in imported_modules(path))
    ]


def test_only_the_gui_imports_pyside6():
    assert importers_outside("gui", "PySide6") == []


def test_the_gui_reaches_the_store_only_through_services():
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in (PACKAGE / "gui").rglob("*.py")
        if any(name.startswith("memdesk.store") for name in imported_modules(path))
    ]
    assert offenders == []


def test_only_the_sentence_encoder_imports_numpy():
    """numpy costs a command tens of milliseconds: only memdesk.meaning loads it, when a prompt
    recalls by meaning."""
    assert importers_outside("meaning", "numpy") == []


def test_the_check_would_catch_an_offender(tmp_path):
    sample = tmp_path / "bad.py"
    sample.write_text("def f():\n    from PySide6 import QtCore\n")
    assert "PySide6" in imported_modules(sample)


def test_prompt_command_loads_no_qt_and_no_llm_clients(tmp_path):
    code = (
        "import sys; from memdesk.cli.main import main; "
        f"main(['--data-dir', {str(tmp_path)!r}, 'prompt']); "
        "heavy = {'PySide6', 'openai', 'anthropic', 'keyring'}; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_window_start_loads_no_llm_clients(tmp_path):
    code = (
        "import os, sys; os.environ['QT_QPA_PLATFORM'] = 'offscreen'; "
        "from memdesk.cli.main import main; "
        f"rc = main(['--data-dir', {str(tmp_path)!r}, 'gui', '--smoke-test']); "
        "heavy = {'openai', 'anthropic', 'keyring', 'pydantic'}; "
        "print(rc, sorted(m for m in sys.modules if m.split('.')[0] in heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "0 []"


def test_the_window_chrome_loads_without_the_store_layer():
    """What runs before the window is on screen must not pull in SQLAlchemy or the services."""
    code = (
        "import sys; import memdesk.cli.main, memdesk.gui.application; "
        "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith(('sqlalchemy', 'memdesk.store', "
        "'memdesk.services', 'memdesk.config'))}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_opening_a_store_and_reading_private_items_loads_only_what_the_first_rows_need(tmp_path):
    """The Knowledge table reads the private keys as the window opens: that must not load the
    prompt composer, recall or the assistants' module, nor the settings parser when there is
    no settings file."""
    code = (
        "import sys; from memdesk.services.memdesk import Memdesk; "
        f"app = Memdesk.open({str(tmp_path)!r}); print(sorted(app.privacy.scope().private_entries)); "
        "app.close(); "
        "unneeded = {'memdesk.services.prompt', 'memdesk.services.recall', 'memdesk.services.assistants', "
        "'tomllib', 'tomli_w'}; "
        "print(sorted(unneeded & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines() == ["[]", "[]"]
