"""The two MEMORY.md folder scopes, named once for the services and the command line."""

GLOBAL = "global"
PROJECT = "project"
SCOPES = (GLOBAL, PROJECT)
