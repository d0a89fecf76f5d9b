"""The outbox's addresses. Included at the site's root."""

from django.urls import path

from outbox import views

app_name = "outbox"

urlpatterns = [
    path("push-worker.js", views.worker, name="worker"),
    path("account/told/", views.preferences, name="preferences"),
    path("account/push/subscribe/", views.subscribe, name="subscribe"),
    path("account/push/unsubscribe/", views.unsubscribe_browser, name="unsubscribe_browser"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
