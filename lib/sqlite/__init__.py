"""Django's SQLite backend, its writers queued in the process (``base.DatabaseWrapper``)."""
