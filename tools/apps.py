from django.apps import AppConfig


class ToolsConfig(AppConfig):
    """The benchmark commands (``tools/management/commands``), installed by ``tools.settings``."""

    name = "tools"
    verbose_name = "Tools"
