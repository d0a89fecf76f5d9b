"""The site's actions on tables and games, one module per reason to change.

Views and consumers call these sync functions (consumers through
``channels.db.database_sync_to_async``). Data flows one way: browser → consumer or view →
services → engine and models; the services tell the transport what changed through
:mod:`~games.services.broadcast`, after the transaction commits.

Tables and their games:

- :mod:`~games.services.tables`: open, join, leave and start tables; seats and bots.
- :mod:`~games.services.starting`: how every game begins (seats closed up, rated or casual, the
  deal, R4, R5), and the limit on games against bots alone.
- :mod:`~games.services.moves`: the one move path: submit, advance, lock, store, schedule.
- :mod:`~games.services.thinking`: a bot's turn and its choice, thought with no lock held (the
  engine only: the clock's worker processes import it without Django).
- :mod:`~games.services.statements`: the move path's few statements, written once instead of built
  by the ORM for every move.
- :mod:`~games.services.finish`: the one place a game ends (won, abandoned, aborted,
  forfeited), with its result and the pushes that follow.
- :mod:`~games.services.lifecycle`: the signals other apps hear as a game starts and ends.
- :mod:`~games.services.abandon`: untimed tables whose people have all gone.
- :mod:`~games.services.rematch`: "Play again": a finished table's players asked to a new one.
- :mod:`~games.services.challenges`: challenges: one person asks people they know to a table,
  which starts once they have accepted.
- :mod:`~games.services.turns`: turn-based tables: deadlines in days, reminders, vacations, the
  cap, "your move".

"Play now":

- :mod:`~games.services.quickmatch`: the pools, entering and leaving them, the ghosts reaped,
  and the wave that seats each group.
- :mod:`~games.services.pairing`: who plays whom in a wave (the standard library only).
- :mod:`~games.services.no_shows`: quick match's tables a matched player never came to.

Reading and telling:

- :mod:`~games.services.access`: who may see a table or a finished game.
- :mod:`~games.services.history`: a finished game's record, and verifying a stored game.
- :mod:`~games.services.replays`: a finished game's state after any move, from snapshots.
- :mod:`~games.services.stats`: players' statistics, leaver statistics.
- :mod:`~games.services.ratings`: players' ratings, updated as a rated game ends.
- :mod:`~games.services.chat`: a table's chat: its rooms, posting and reading lines, mutes.
- :mod:`~games.services.broadcast`: the seam between the services and the transport: group
  names, the sends after commit, the transport a process is given.
- :mod:`~games.services.changes`: what a move changed, ``taki-change/1``, as the processes send
  it to each other.
- :mod:`~games.services.presence`: who has a socket open at a table, counted in the cache.
- :mod:`~games.services.online`: who has a page of the site open, and their friends told.
- :mod:`~games.services.errors`: :class:`~games.services.errors.ServiceError`, which every
  refusal raises, and the words of the engine's refusals.

Moderators' actions are the moderation app's (``moderation.actions``), each with its moderation
log row.
"""
