"""Tools for the people who build the site, outside the product: the benchmarks, the load
harness and the bots' arena. Nothing a server runs imports them.

``tools`` is a Django app only so that its benchmark commands (``manage.py bench_site``, …) can
be run: ``tools.settings`` installs it beside the site's apps, and the site's own settings do
not, so a server has no benchmark command to run.
"""
