"""Memdesk: see and control what your personal AI assistant remembers."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("memdesk")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0.0.0+unknown"

APP_ID = "io.github.memdesk.Memdesk"
APP_NAME = "Memdesk"
