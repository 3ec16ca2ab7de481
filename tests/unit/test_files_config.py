"""config.json per scope: project keys override global keys; bad values are reported."""

import json
from pathlib import Path

import pytest

from memdesk.services.files import (
    IndexCache,
    build_files_block,
    load_files_config,
    project_memory_dir,
)


def write_config(folder: Path, data: object | str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_the_callers_caps_are_the_defaults(tmp_path):
    config = load_files_config([tmp_path / "none"], max_lines=7, max_bytes=999)
    assert (config.enabled, config.max_lines, config.max_bytes) == (True, 7, 999)
    assert config.read == () and config.problems == ()


def test_project_keys_override_global_keys(tmp_path):
    g, p = tmp_path / "global", tmp_path / "project"
    write_config(g, {"maxInjectLines": 2, "maxInjectBytes": 300, "enabled": False})
    write_config(p, {"maxInjectLines": 3, "enabled": True})
    config = load_files_config([g, p], max_lines=200, max_bytes=8192)
    assert (config.enabled, config.max_lines, config.max_bytes) == (True, 3, 300)
    assert config.read == (g / "config.json", p / "config.json")


def test_merged_caps_apply_to_the_block(tmp_path):
    g, project = tmp_path / "global", tmp_path / "repo"
    pdir = project_memory_dir(project)
    write_config(g, {"maxInjectLines": 1})
    write_config(pdir, {"maxInjectLines": 2})
    (g / "MEMORY.md").write_text("- g1\n- g2\n- g3\n")
    (pdir / "MEMORY.md").write_text("- p1\n- p2\n- p3\n")
    trusted = build_files_block(g, project, True, 200, 8192, cache=IndexCache())
    assert "- g2" in trusted.text and "- p2" in trusted.text and "- p3" not in trusted.text
    assert trusted.max_lines == 2
    untrusted = build_files_block(g, project, False, 200, 8192, cache=IndexCache())
    assert "- g1" in untrusted.text and "- g2" not in untrusted.text
    assert untrusted.max_lines == 1


def test_a_project_can_turn_the_block_off(tmp_path):
    g, project = tmp_path / "global", tmp_path / "repo"
    write_config(project_memory_dir(project), {"enabled": False})
    result = build_files_block(g, project, True, 200, 8192, cache=IndexCache())
    assert (result.text, result.reason) == ("", "disabled")


def test_invalid_json_is_ignored_and_reported(tmp_path):
    path = write_config(tmp_path, '{"maxInjectLines": 5,')
    config = load_files_config([tmp_path], max_lines=200, max_bytes=8192)
    assert (config.max_lines, config.max_bytes) == (200, 8192)
    assert len(config.problems) == 1 and config.problems[0].startswith(f"{path}:")
    assert config.read == (path,)


def test_invalid_utf8_config_is_reported(tmp_path):
    tmp_path.joinpath("config.json").write_bytes(b'{"enabled": "\xff"}')
    config = load_files_config([tmp_path], max_lines=200, max_bytes=8192)
    assert config.enabled and len(config.problems) == 1


def test_a_config_that_is_not_an_object_is_reported(tmp_path):
    path = write_config(tmp_path, [1, 2])
    config = load_files_config([tmp_path], max_lines=200, max_bytes=8192)
    assert config.problems == (f"{path}: expected a JSON object; ignored",)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("maxInjectLines", 0),
        ("maxInjectLines", 10001),
        ("maxInjectLines", "200"),
        ("maxInjectLines", True),
        ("maxInjectLines", 2.5),
        ("maxInjectBytes", 255),
        ("maxInjectBytes", 1048577),
        ("maxInjectBytes", None),
        ("enabled", "no"),
        ("enabled", 0),
    ],
)
def test_bad_values_are_ignored_and_reported_by_file_and_key(tmp_path, key, value):
    path = write_config(tmp_path, {key: value})
    config = load_files_config([tmp_path], max_lines=200, max_bytes=8192)
    assert (config.enabled, config.max_lines, config.max_bytes) == (True, 200, 8192)
    assert len(config.problems) == 1
    assert config.problems[0].startswith(f"{path}: {key}: ")


def test_a_bad_key_does_not_spoil_the_good_ones(tmp_path):
    write_config(tmp_path, {"maxInjectLines": -1, "maxInjectBytes": 1000})
    config = load_files_config([tmp_path], max_lines=200, max_bytes=8192)
    assert (config.max_lines, config.max_bytes, len(config.problems)) == (200, 1000, 1)


def test_range_limits_are_accepted(tmp_path):
    write_config(tmp_path, {"maxInjectLines": 10000, "maxInjectBytes": 256})
    config = load_files_config([tmp_path], max_lines=200, max_bytes=8192)
    assert (config.max_lines, config.max_bytes, config.problems) == (10000, 256, ())


def test_keys_of_other_tools_are_left_alone(tmp_path):
    write_config(tmp_path, {"pageTableInjection": True, "maxMemoryTokens": 4096})
    assert load_files_config([tmp_path], max_lines=200, max_bytes=8192).problems == ()


def test_block_reports_config_problems_of_both_scopes(tmp_path):
    g, project = tmp_path / "global", tmp_path / "repo"
    gpath = write_config(g, {"maxInjectBytes": 1})
    ppath = write_config(project_memory_dir(project), "nope")
    result = build_files_block(g, project, True, 200, 8192, cache=IndexCache())
    assert result.included and result.max_bytes == 8192
    assert [p.split(":")[0] for p in result.problems] == [str(gpath), str(ppath)]
