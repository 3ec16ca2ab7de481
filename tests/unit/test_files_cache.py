"""The MEMORY.md read cache: keyed by (mtime_ns, size) and the caps in force."""

import os
from pathlib import Path

from memdesk.services.files import IndexCache


def swap_keeping_stat(path: Path, data: bytes) -> None:
    """Replace the content with same-size bytes and put the old mtime back.

    A cached read then still returns the old content, which proves it was not re-read.
    """
    before = path.stat()
    assert len(data) == before.st_size
    path.write_bytes(data)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_an_unchanged_file_is_not_re_read(tmp_path):
    path = tmp_path / "MEMORY.md"
    path.write_bytes(b"- old\n")
    cache = IndexCache()
    assert cache.read(path, 200, 8192).text == "- old\n"
    swap_keeping_stat(path, b"- new\n")
    assert cache.read(path, 200, 8192).text == "- old\n"
    assert IndexCache().read(path, 200, 8192).text == "- new\n"  # the swap did happen


def test_a_new_mtime_invalidates(tmp_path):
    path = tmp_path / "MEMORY.md"
    path.write_bytes(b"- old\n")
    cache = IndexCache()
    cache.read(path, 200, 8192)
    swap_keeping_stat(path, b"- new\n")
    mtime = path.stat().st_mtime_ns + 1_000_000
    os.utime(path, ns=(mtime, mtime))
    assert cache.read(path, 200, 8192).text == "- new\n"


def test_a_new_size_invalidates_even_with_the_same_mtime(tmp_path):
    path = tmp_path / "MEMORY.md"
    path.write_bytes(b"- old\n")
    cache = IndexCache()
    cache.read(path, 200, 8192)
    before = path.stat()
    path.write_bytes(b"- longer\n")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert cache.read(path, 200, 8192).text == "- longer\n"


def test_new_caps_bypass_the_cache(tmp_path):
    path = tmp_path / "MEMORY.md"
    path.write_bytes(b"- a\n- b\n")
    cache = IndexCache()
    assert cache.read(path, 200, 8192).text == "- a\n- b\n"
    swap_keeping_stat(path, b"- c\n- d\n")
    assert cache.read(path, 1, 8192).text == "- c\n"  # re-read, not re-capped from memory
    swap_keeping_stat(path, b"- e\n- f\n")
    assert cache.read(path, 1, 300).text == "- e\n"


def test_a_deleted_file_reads_as_missing(tmp_path):
    path = tmp_path / "MEMORY.md"
    path.write_bytes(b"- a\n")
    cache = IndexCache()
    cache.read(path, 200, 8192)
    path.unlink()
    assert cache.read(path, 200, 8192) is None
