"""The site's websockets for the socket tests, with one live side for the whole test process, as
a server process has: each test's event loop gets a table hub of its own (``games.live.server``).
"""

from games.live import routing

SOCKETS = routing.application()
