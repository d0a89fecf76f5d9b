"""The games' pages: the lobby, the tables and finished games (``tables``)."""
