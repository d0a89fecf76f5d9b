from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArenasConfig(AppConfig):
    name = "arenas"
    verbose_name = _("Arenas")

    def ready(self) -> None:
        from arenas import receivers
        from games.services.lifecycle import game_ended

        game_ended.connect(receivers.game_ended, dispatch_uid="arenas.game_ended")
