"""The read side: what a table, a hand, the lobby and a finished game look like, and how they are
drawn. Nothing here decides a rule or changes the database."""

from games.presenters.finished import finished_game_context, replay_context
from games.presenters.fragments import seats_fragment, table_fragments, table_page_context
from games.presenters.hand import HandCard, hand_view
from games.presenters.lobby import LobbyView, lobby_context, lobby_fragment, read_lobby
from games.presenters.table import TableView, as_of_now, read_table, view_after_move

__all__ = [
    "HandCard",
    "LobbyView",
    "TableView",
    "as_of_now",
    "finished_game_context",
    "hand_view",
    "lobby_context",
    "lobby_fragment",
    "read_lobby",
    "read_table",
    "replay_context",
    "seats_fragment",
    "table_fragments",
    "table_page_context",
    "view_after_move",
]
