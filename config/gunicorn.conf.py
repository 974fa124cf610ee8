"""gunicorn's settings for production: `gunicorn -c config/gunicorn.conf.py config.wsgi`.

It listens only on 127.0.0.1, behind the reverse proxy (see README, Production): with
DJANGO_PROXY_COUNT=1 a client reaching gunicorn directly could forge its address. Set
GUNICORN_BIND to a Unix socket (unix:/run/twentyfive/gunicorn.sock) to use one.
The access log never holds a scorer token in full (config/access_log.py).
"""

import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
accesslog = "-"
logger_class = "config.access_log.TokenHidingLogger"
