"""Programs that use the site from outside, as anyone may: they know nothing of Django."""
