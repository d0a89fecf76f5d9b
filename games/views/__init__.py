"""The games' pages: the lobby and the tables (``tables``); the lists of games and a finished
game (``listings``); a player's page and trying the site as a guest (``players``); "Play now"
(``pools``). Reports are moderation's (``moderation.views``).
"""
