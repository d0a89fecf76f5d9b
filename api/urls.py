"""The API's addresses: the API itself under /api/, its documentation page, and a person's
tokens under /account/tokens/. Included at the site's root."""

from django.urls import include, path

from api import views
from api.endpoints import api

pages = (
    [
        path("api/docs", views.docs, name="docs"),
        path("account/tokens/", views.token_list, name="tokens"),
        path("account/tokens/<str:token_id>/revoke/", views.revoke, name="revoke"),
    ],
    "api_pages",
)

urlpatterns = [
    path("", include(pages)),
    path("api/", api.urls),
]
