"""The games' pages: the lobby, tables and finished games (``tables``); a player's page and
trying the site as a guest (``players``). Reports are moderation's (``games.moderation.views``).
"""
