from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OutboxConfig(AppConfig):
    name = "outbox"
    verbose_name = _("E-mail and push")

    def ready(self) -> None:
        from outbox import queue
        from social.signals import notified

        notified.connect(queue.queue_notification, dispatch_uid="outbox.queue_notification")
