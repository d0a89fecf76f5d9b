from django.urls import path

from games.views import challenges, listings, people, players, pools, turns
from games.views import tables as views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("", views.home, name="lobby"),
    path("play-bots/", views.play_bots, name="play_bots"),
    path("play-now/", pools.play_now, name="play_now"),
    path("play-now/waiting/", pools.pool, name="pool"),
    path("play-now/cancel/", pools.cancel, name="pool_cancel"),
    path("tables/new/", views.create_table, name="create_table"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/join/", views.join, name="join"),
    path("tables/<int:table_id>/leave/", views.leave, name="leave"),
    path("tables/<int:table_id>/start/", views.start, name="start"),
    path("tables/<int:table_id>/play-again/", views.play_again, name="play_again"),
    path("tables/<int:table_id>/rematch-answer/", views.answer_rematch, name="answer_rematch"),
    path(
        "tables/<int:table_id>/seats/<int:position>/remove/",
        views.remove_seat,
        name="remove_seat",
    ),
    path("tables/<int:table_id>/seats/<int:position>/bot/", views.add_bot, name="add_bot"),
    path("tables/<int:table_id>/chat/mute/", views.chat_mute, name="chat_mute"),
    path("tables/<int:table_id>/chat/unmute/", views.chat_unmute, name="chat_unmute"),
    path("notifications/", people.notifications_page, name="notifications"),
    path("account/", people.account, name="account"),
    path("players/<str:username>/follow/", people.follow, name="follow"),
    path("players/<str:username>/unfollow/", people.unfollow, name="unfollow"),
    path("players/<str:username>/block/", people.block, name="block"),
    path("players/<str:username>/unblock/", people.unblock, name="unblock"),
    path("challenges/new/", challenges.new_challenge, name="new_challenge"),
    path("challenges/<int:challenge_id>/", challenges.challenge, name="challenge"),
    path("challenges/<int:challenge_id>/answer/", challenges.answer, name="challenge_answer"),
    path("challenges/<int:challenge_id>/cancel/", challenges.cancel, name="challenge_cancel"),
    path("challenges/<int:challenge_id>/start/", challenges.start, name="challenge_start"),
    path("challenges/go/<int:table_id>/", challenges.go, name="challenge_go"),
    path("games/", listings.finished_games, name="finished_games"),
    path("games/", listings.finished_games, name="games"),  # the name the site nav uses
    path("games/mine/", listings.my_games, name="my_games"),
    path("games/live/", listings.watch, name="watch"),
    path("games/turn-based/", turns.turn_based, name="turn_based"),
    path("games/turn-based/vacation/", turns.take_vacation, name="take_vacation"),
    path("rules/", views.rules, name="rules"),
    path("leaderboards/", players.leaderboards, name="leaderboards"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("games/<int:game_id>/", listings.finished_game, name="finished_game"),
    path("games/<int:game_id>/record.json", listings.record_json, name="record_json"),
    # Beside accounts' pages, at the addresses they have always had.
    path("accounts/guest/", players.try_as_guest, name="guest"),
    path("players/<str:username>/", players.profile, name="profile"),
]
