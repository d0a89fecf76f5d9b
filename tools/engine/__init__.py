"""The bots' arena, self-play and the engine's benchmark: programs that drive the rules engine
(``games.engine``) from outside, to measure it and its bots. ``python -m tools.engine`` lets bots
play each other (``selfplay``) or measures them (``arena``); ``make bench`` and ``make bench-bots``
run ``tools.engine.bench`` and ``tools.engine.ladder``."""
