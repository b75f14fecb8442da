"""Gunicorn's logger for the web processes: the access line is built only when it is written.

deploy/gunicorn.conf.py always hands gunicorn a logging configuration (the app's JSON lines), and
gunicorn takes any logging configuration for a wish to log every request: it formatted each
request's access atoms (headers, times, sizes) and then dropped the line at the disabled
`gunicorn.access` logger. That was about 3% of a web process's CPU under load.
"""

from __future__ import annotations

from typing import Any

from gunicorn import glogging  # type: ignore[import-untyped]


class AccessOnDemandLogger(glogging.Logger):  # type: ignore[misc]
    """gunicorn's Logger, whose access line exists only with an access log (GUNICORN_ACCESS_LOG)."""

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        if self.cfg.accesslog:
            super().access(resp, req, environ, request_time)
