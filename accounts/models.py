"""Players' accounts and profiles."""
