"""The public HTTP API under /api/: personal access tokens, the games as records, the event and
game streams, a seat played by a program (docs/api.md)."""
