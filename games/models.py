"""Tables, seats, games and the append-only move log."""
