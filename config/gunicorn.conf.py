"""gunicorn's settings for production: `gunicorn -c config/gunicorn.conf.py config.wsgi`.

It listens only on 127.0.0.1, behind the reverse proxy (see README, Production): with
DJANGO_PROXY_COUNT=1 a client reaching gunicorn directly could forge its address. Set
GUNICORN_BIND to a Unix socket (unix:/run/twentyfive/gunicorn.sock) to use one.
The access log never holds a scorer token in full (config/access_log.py).

Behind a proxy on the same machine every request comes from 127.0.0.1 (or the socket),
which gunicorn trusts by default to say, in headers the proxy may pass on from the
client, that the request came over HTTPS or where the site is mounted (SCRIPT_NAME). It
trusts nobody here: HTTPS is Django's to decide (DJANGO_PROXY_COUNT), and the site is at
"/", so no client can have a public page drawn with every link moved elsewhere and kept
in the page cache for every visitor (tests/test_gunicorn.py).
"""

import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
accesslog = "-"
logger_class = "config.access_log.TokenHidingLogger"
secure_scheme_headers = {}
forwarder_headers = ""
