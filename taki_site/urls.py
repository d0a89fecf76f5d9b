from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("monitoring.urls")),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("moderation.urls")),
    path("", include("arenas.urls")),
    path("", include("outbox.urls")),
    path("", include("api.urls")),
]
