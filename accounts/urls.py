from django.urls import URLPattern

app_name = "accounts"

urlpatterns: list[URLPattern] = []
