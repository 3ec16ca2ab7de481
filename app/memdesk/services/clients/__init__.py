"""Assistants that read MCP servers from a config file: which ones Memdesk knows, and how it
adds itself to, reads back from and takes itself out of each one's file."""
