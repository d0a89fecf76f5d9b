"""The site's settings, with the tools installed: ``DJANGO_SETTINGS_MODULE=tools.settings`` is
what ``make bench-site``, ``bench-match``, ``bench-admin``, ``bench-load`` and ``bench-flood``
run ``manage.py`` with. The load harness's servers add their own changes on top
(``tools.loadtest.settings``)."""

from taki_site.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tools"]  # noqa: F405

# The benchmarks draw pages (the log-in page, the tables, the admin) from a checkout where the
# static files need not be collected: {% static %} names each file by its own name.
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
