from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Moderation")

    def ready(self) -> None:
        from accounts.signals import accounts_named
        from games.services.access import moderator_watched
        from moderation import receivers, watches

        accounts_named.connect(
            receivers.accounts_named_by_moderation,
            dispatch_uid="moderation.accounts_named_by_moderation",
        )
        moderator_watched.connect(watches.log_watch, dispatch_uid="moderation.log_watch")
