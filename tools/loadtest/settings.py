"""The site's settings, with two changes for the benchmark: a fast password hasher, and no
limit on how fast one socket acts; and, when TAKI_BENCH_GC_LOG names a file, a log of the
garbage collector's long pauses there (``tools.loadtest.probe``).

Every simulated client logs in through the site's log-in page. With the real PBKDF2 hasher
(1.5 million iterations) that costs about a second of server CPU per user, so 150 users would
spend minutes logging in before the first move. Passwords are not on the move path, so the
figures are unaffected; the tests use the same hasher for the same reason.
"""

import os

from tools.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# A simulated player in the closed loop acts the moment its turn comes, far faster than a
# person: the per-socket token bucket would close it.
SOCKET_ACTIONS_BURST = 1_000_000
SOCKET_ACTIONS_PER_SECOND = 1_000_000.0
# The API's reference clients in the closed loop, likewise (make bench-api).
API_TOKEN_REQUESTS_PER_MINUTE = 1_000_000

if os.environ.get("TAKI_BENCH_GC_LOG"):
    from tools.loadtest.probe import log_collections

    log_collections(os.environ["TAKI_BENCH_GC_LOG"])
