"""The faces Memdesk shows to other programs over a connection: the local HTTP admin API and MCP."""
