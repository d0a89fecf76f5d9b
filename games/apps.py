from django.apps import AppConfig
from django.core import checks
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from accounts.signals import password_changed
        from games import signals
        from games.live.checks import channel_layer_in_memory
        from games.live.transports import ChannelLayerTransport
        from games.services import broadcast
        from social.signals import notifications_read, notified

        # manage.py check --deploy: pushes that would reach one process's sockets only.
        checks.register(channel_layer_in_memory, "channel_layer", deploy=True)

        # What the services send after commit goes straight to the channel layer, unless this
        # process serves sockets: then its live side gives them its hub as it starts.
        broadcast.serve_through(ChannelLayerTransport())
        user_logged_out.connect(
            signals.close_sockets_on_log_out, dispatch_uid="games.close_sockets_on_log_out"
        )
        password_changed.connect(
            signals.close_sockets_on_new_password,
            dispatch_uid="games.close_sockets_on_new_password",
        )
        # What the social app stored for a person reaches the pages they have open.
        notified.connect(signals.push_new_notification, dispatch_uid="games.push_notification")
        notifications_read.connect(
            signals.push_unread_count, dispatch_uid="games.push_unread_count"
        )
