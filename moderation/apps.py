from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Moderation")

    def ready(self) -> None:
        from games.services.access import moderator_watched
        from moderation import watches

        moderator_watched.connect(watches.log_watch, dispatch_uid="moderation.log_watch")
