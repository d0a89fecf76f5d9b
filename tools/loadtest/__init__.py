"""``make bench-load``: a load benchmark of the live site, over real HTTP and websockets.

Daphne serves the site (and, for comparison, a trivial relay on the same stack, the ceiling);
simulated players log in, open, join and start tables through the site's own pages, then play
legal moves read only from the HTML fragments the site pushes, exactly as htmx's ws extension
sends them. Not a test: it measures, then checks that what it measured was honest.
"""
