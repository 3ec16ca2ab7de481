"""``memdesk.cli.main`` as a function: the arguments it is given are the only ones it reads."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

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


def _command_lines(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command and action, as the words that choose it (``("db", "backup")``)."""
    for group in parser._actions:
        if isinstance(group, argparse._SubParsersAction):
            for name, command in group.choices.items():
                yield (*words, name)
                yield from _command_lines(command, (*words, name))


def test_every_command_and_action_says_what_it_does_in_its_help(capsys):
    commands = list(_command_lines(main.build_parser()))
    assert ("serve",) in commands and ("db", "backup") in commands
    for words in commands:
        with pytest.raises(SystemExit):
            main.main([*words, "--help"])
        usage, _, rest = capsys.readouterr().out.partition("\n\n")
        assert usage.startswith("usage: memdesk"), words
        assert not rest.startswith(("options:", "positional arguments:")), f"{words} has no description"
