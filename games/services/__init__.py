"""The site's actions on tables and games, one module per reason to change.

Views and consumers call these sync functions (consumers through
``channels.db.database_sync_to_async``). Data flows one way: browser → consumer or view →
services → engine and models; the services tell the transport what changed through
:mod:`~games.services.broadcast`, after the transaction commits.

- :mod:`~games.services.tables`: open, join, leave and start tables; seats and bots.
- :mod:`~games.services.moves`: the one move path: submit, advance, lock, store, schedule.
- :mod:`~games.services.store`: that path's few statements, written once instead of built by
  the ORM for every move.
- :mod:`~games.services.finish`: the one place a game ends (won, abandoned, aborted,
  forfeited), with its result and the pushes that follow.
- :mod:`~games.services.abandon`: untimed tables whose people have all gone.
- :mod:`~games.services.rematch`: "Play again": a finished table's players asked to a new one.
- :mod:`~games.services.broadcast`: the seam between the site and its transport: group names,
  the process's table listener, sends after commit, presence.
- :mod:`~games.services.access`: who may see a table or a finished game.
- :mod:`~games.services.history`: a finished game's record, and verifying a stored game.
- :mod:`~games.services.replays`: a finished game's state after any move, from snapshots.
- :mod:`~games.services.stats`: players' statistics, leaver statistics.
- :mod:`~games.services.chat`: a table's chat: its rooms, posting and reading lines, mutes.
- :mod:`~games.services.errors`: :class:`~games.services.errors.ServiceError`, which every
  refusal raises, and the words of the engine's refusals.

Moderators' actions live in :mod:`moderation.actions`, each with its moderation log row.
"""
