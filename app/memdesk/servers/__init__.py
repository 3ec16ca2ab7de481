"""The faces Memdesk shows assistants over a connection: the MCP server and the local HTTP API.

Qt-free; everything here calls the services the CLI and the window call.
"""
