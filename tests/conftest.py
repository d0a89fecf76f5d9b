"""Shared fixtures for the whole suite. App-specific ones live in each folder's conftest."""
