"""Assistants' own transcripts (Claude Code, Codex CLI, pi) read into sessions, a line at a time."""
