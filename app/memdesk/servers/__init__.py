"""The faces Memdesk shows assistants: the MCP server (and, beside it, the local admin API).

Qt-free; everything here calls the services the CLI and the window call.
"""
