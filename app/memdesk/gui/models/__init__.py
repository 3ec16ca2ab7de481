"""Item models for the window's tables, and the glue between them and their views."""
