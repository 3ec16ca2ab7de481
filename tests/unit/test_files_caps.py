"""Capping MEMORY.md: line cap, byte cap at line boundaries, characters never split."""

import pytest

from memdesk.core.filecaps import cap_index


def test_line_cap_keeps_the_first_lines_and_reports_totals():
    data = b"".join(f"- fact {i}\n".encode() for i in range(10))
    capped = cap_index(data, max_lines=3, max_bytes=10_000)
    assert capped.text == "- fact 0\n- fact 1\n- fact 2\n"
    assert (capped.injected_lines, capped.total_lines) == (3, 10)
    assert (capped.injected_bytes, capped.total_bytes) == (27, len(data))
    assert capped.truncated


def test_byte_cap_cuts_at_the_last_whole_line():
    data = b"aaaa\nbbbb\ncccc\n"  # three lines of 5 bytes
    capped = cap_index(data, max_lines=200, max_bytes=14)
    assert capped.text == "aaaa\nbbbb\n"
    assert (capped.injected_bytes, capped.injected_lines) == (10, 2)


def test_whichever_cap_comes_first_wins():
    data = b"aaaa\nbbbb\ncccc\n"
    assert cap_index(data, max_lines=1, max_bytes=15).text == "aaaa\n"
    assert cap_index(data, max_lines=3, max_bytes=5).text == "aaaa\n"


def test_a_file_that_fits_exactly_is_not_truncated():
    data = b"aaaa\nbbbb"  # the last line has no newline and still counts
    capped = cap_index(data, max_lines=2, max_bytes=len(data))
    assert capped.text == "aaaa\nbbbb"
    assert not capped.truncated
    assert (capped.injected_lines, capped.total_lines) == (2, 2)


@pytest.mark.parametrize("char", ["é", "漢", "😀"])
def test_a_multibyte_line_crossing_the_cap_is_left_out_whole(char):
    text = "- short\n" + char * 40 + "\n- after\n"
    data = text.encode()
    cap = len(b"- short\n") + len((char * 20).encode()) + 1  # lands inside the long line
    capped = cap_index(data, max_lines=200, max_bytes=cap)
    assert capped.text == "- short\n"
    assert capped.injected_bytes == 8


@pytest.mark.parametrize("char", ["é", "漢", "😀"])
def test_no_byte_cap_ever_splits_a_character_or_a_line(char):
    text = "".join(f"{i} {char * (i % 7)}\n" for i in range(30))
    data = text.encode()
    lines = text.splitlines(keepends=True)
    for cap in range(1, len(data) + 1):
        capped = cap_index(data, max_lines=10_000, max_bytes=cap)
        assert "\ufffd" not in capped.text
        assert capped.injected_bytes <= cap
        assert capped.text == "".join(lines[: capped.injected_lines])
        assert len(capped.text.encode()) == capped.injected_bytes


def test_a_first_line_longer_than_the_byte_cap_injects_nothing():
    capped = cap_index(b"x" * 500 + b"\nshort\n", max_lines=200, max_bytes=256)
    assert capped.text == ""
    assert (capped.injected_bytes, capped.total_bytes) == (0, 507)
    assert capped.truncated


def test_invalid_utf8_is_replaced_and_flagged_not_fatal():
    capped = cap_index(b"ok\n\xff\xfe broken\n", max_lines=200, max_bytes=8192)
    assert not capped.valid_utf8
    assert capped.text == "ok\n\ufffd\ufffd broken\n"
    assert capped.injected_bytes == capped.total_bytes == 13


def test_empty_file():
    capped = cap_index(b"", max_lines=200, max_bytes=8192)
    assert (capped.text, capped.total_bytes, capped.total_lines) == ("", 0, 0)
    assert capped.valid_utf8
    assert not capped.truncated


def test_carriage_returns_stay_inside_their_line():
    capped = cap_index(b"a\r\nb\r\nc\r\n", max_lines=2, max_bytes=8192)
    assert capped.text == "a\r\nb\r\n"
    assert capped.total_lines == 3
