"""Code every part of the site may use and that knows none of them: environment variables read
into settings, the checks on text people choose, logs and metrics, the database engine and the
channel layer the settings name, the websockets' origin check, the garbage collector's setting.

Nothing here imports ``accounts``, ``games``, ``moderation`` or the site's configuration.
"""
