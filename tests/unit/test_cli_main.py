"""``memdesk.cli.main`` as a function: the arguments it is given are the only ones it reads."""

from __future__ import annotations

import sys

from memdesk.cli import cmd_gui, main


def test_main_with_no_arguments_opens_the_window_whatever_sys_argv_holds(monkeypatch):
    opened = []
    monkeypatch.setattr(cmd_gui, "gui_run", lambda args, _app: opened.append(args.smoke_test) or 0)
    # main() builds its parser, so the patched handler is the one it registers.
    monkeypatch.setattr(sys, "argv", ["memdesk", "doc", "show", "user/profile"])
    assert main.main([]) == 0
    assert opened == [False]
