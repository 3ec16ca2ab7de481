"""Language-model backends for compaction (their names are in ``memdesk.config.BACKENDS``)."""
