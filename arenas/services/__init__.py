"""The arenas' actions, one module per family:

- ``broadcast``: the group of an arena's pages, and the pushes after commit.
- ``players``: creating a private arena; joining, withdrawing, pausing and coming back; the
  refusals (guests, bans, an arena ban).
- ``waves``: the pool's wave that seats the waiting players at new tables.
- ``results``: a finished game's points (``scoring``), the leavers and the no-shows.
- ``events``: the arenas' start and end, the reminders, the schedules; ``tick`` runs them all.
- ``moderating``: a moderator removes a player or cancels an arena, in the moderation log.
- ``standings``: who stands where, read for the pages.
"""
