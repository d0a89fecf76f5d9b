"""For the people who run the site: the health check, the metrics and the name of the process
that served a page. Above the apps it watches: it reads the games' tables and the channel
layer, and nothing of the site imports it but its URLs and settings."""
