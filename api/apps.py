from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = _("API")

    def ready(self) -> None:
        from api import receivers
        from games.services.lifecycle import game_ended, game_started

        # The event streams hear a game start and end (``api.events``).
        game_started.connect(receivers.game_started, dispatch_uid="api.game_started")
        game_ended.connect(receivers.game_ended, dispatch_uid="api.game_ended")
