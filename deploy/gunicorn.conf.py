"""Gunicorn settings for Archipelago (`gunicorn -c deploy/gunicorn.conf.py`).

`make run` (service/launcher.py) passes --bind and the app on the command line;
run directly, this file alone is enough. Every setting can be tuned by env var.
"""

import os

# The WSGI app; a command-line app argument wins over this.
wsgi_app = os.environ.get("ARCHIPELAGO_WSGI_APP", "service.app:create_app()")

bind = [f"{os.environ.get('ARCHIPELAGO_HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"]

# Server-Sent Events hold a connection open for as long as a client watches a
# game, so each stream pins one thread: gthread keeps the worker's heartbeat
# independent of long requests, and workers x threads bounds open streams.
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "16"))

# The app factory runs in each worker, after the fork: no Redis connection or
# pool is shared between processes.
preload_app = False

timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# How long a stop waits for in-flight requests (and open event streams).
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "5"))
keepalive = 5

accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
errorlog = "-"
loglevel = os.environ.get("ARCHIPELAGO_LOG_LEVEL", "info").lower()
proc_name = "archipelago-web"
# Gunicorn 24+ opens a control socket in ~/.gunicorn by default, shared by every
# instance of the user; Archipelago does not use it. (Older gunicorns ignore this.)
control_socket_disable = True

# Above the app's own limits (MAX_URL_BYTES, MAX_HEADER_BYTES: service/api/sizes.py), so
# that the app answers an oversized request with its problem+json 414 or 431. Only what
# exceeds these (a request line over 8190 bytes, gunicorn's maximum; one header over 16 KiB;
# more than 100 headers) gets gunicorn's own 400, 414 or 431, as a small HTML page.
limit_request_line = 8190
limit_request_field_size = 16 * 1024
limit_request_fields = 100

# Trust X-Forwarded-* only from a proxy on this host unless told otherwise.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
