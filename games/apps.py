from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from accounts.signals import password_changed
        from games import signals

        user_logged_out.connect(
            signals.close_sockets_on_log_out, dispatch_uid="games.close_sockets_on_log_out"
        )
        password_changed.connect(
            signals.close_sockets_on_new_password,
            dispatch_uid="games.close_sockets_on_new_password",
        )
