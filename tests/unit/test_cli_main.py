"""``memdesk.cli.main`` as a function: the arguments it is given are the only ones it reads."""

from __future__ import annotations

import sys

import pytest

from memdesk.cli import cmd_gui, main


def test_main_with_no_arguments_opens_the_window_whatever_sys_argv_holds(monkeypatch):
    opened = []
    monkeypatch.setattr(cmd_gui, "gui_run", lambda args, _app: opened.append(args.smoke_test) or 0)
    # main() builds its parser, so the patched handler is the one it registers.
    monkeypatch.setattr(sys, "argv", ["memdesk", "doc", "show", "user/profile"])
    assert main.main([]) == 0
    assert opened == [False]


def test_each_command_module_adds_exactly_the_commands_listed_for_it():
    import argparse

    for module, names in main.COMMANDS.items():
        subparsers = argparse.ArgumentParser().add_subparsers()
        main.command_module(module).register(subparsers)
        assert tuple(subparsers.choices) == names, module


def test_a_run_builds_only_its_own_command(capsys):
    assert main._command_in(["--data-dir", "doc", "--db", "x.db", "prompt", "--app", "doc"]) == "cmd_prompt"
    assert main._command_in(["--now=2026-01-01", "undo"]) == "cmd_history"
    assert main._command_in(["--help"]) is None and main._command_in(["nonsense"]) is None
    parser = main.build_parser("cmd_prompt")
    assert parser.parse_args(["prompt", "--app", "mail"]).app == "mail"
    with pytest.raises(SystemExit) as done:
        main.main(["nonsense"])
    assert done.value.code == 2
    assert "invalid choice: 'nonsense'" in capsys.readouterr().err


def test_every_command_says_what_it_does_in_its_help(capsys):
    for names in main.COMMANDS.values():
        for name in names:
            with pytest.raises(SystemExit):
                main.main([name, "--help"])
            usage, _, rest = capsys.readouterr().out.partition("\n\n")
            assert usage.startswith("usage: memdesk"), name
            assert not rest.startswith(("options:", "positional arguments:")), f"{name} has no description"
