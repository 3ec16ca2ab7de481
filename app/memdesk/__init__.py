"""Memdesk: see and control what your personal AI assistant remembers."""

__version__ = "0.1.0"

APP_ID = "io.github.memdesk.Memdesk"
APP_NAME = "Memdesk"
