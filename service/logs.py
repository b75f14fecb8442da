"""Log lines as JSON objects, each with the request id or the job id of the work in hand.

The web app (through gunicorn's `logconfig_dict`, deploy/gunicorn.conf.py) and the worker
(service.worker) configure logging with `logging_config`. ARCHIPELAGO_LOG_FORMAT=text gives
plain lines instead, for a terminal.

What a line may hold: ids, routes, statuses, durations and messages the service writes. A
seat's token travels only in the Authorization header and a Redis password only in its URL;
neither is ever put in a log line (tests/service/test_logs.py plays games and reads them all).
"""

from __future__ import annotations

import contextvars
import logging
import os
import re
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from pythonjsonlogger.json import JsonFormatter

FORMAT_VARIABLE = "ARCHIPELAGO_LOG_FORMAT"
LEVEL_VARIABLE = "ARCHIPELAGO_LOG_LEVEL"

REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
JOB_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("job_id", default=None)

#: An incoming X-Request-ID is kept when it is this sane (a proxy's or a client's id, a UUID);
#: anything else is replaced, so a log line never carries what a client smuggled into it.
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")

_FIELDS = "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s"
_RENAMED = {"asctime": "time", "levelname": "level", "name": "logger", "process": "pid"}


class ContextFilter(logging.Filter):
    """Puts the request id or job id of the work in hand on every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        request_id, job_id = REQUEST_ID.get(), JOB_ID.get()
        if request_id is not None and not hasattr(record, "request_id"):
            record.request_id = request_id
        if job_id is not None and not hasattr(record, "job_id"):
            record.job_id = job_id
        return True


def json_formatter() -> logging.Formatter:
    """One JSON object a line: time (UTC, ISO 8601), level, logger, pid, message, and extras."""
    formatter = JsonFormatter(_FIELDS, rename_fields=_RENAMED, datefmt="%Y-%m-%dT%H:%M:%S%z")
    formatter.converter = time.gmtime
    return formatter


def text_formatter() -> logging.Formatter:
    return logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s")


def logging_config(
    level: str | None = None, environ: Mapping[str, str] | None = None, access_log: bool = False
) -> dict[str, Any]:
    """A `logging.config.dictConfig` dictionary: every logger to stderr in the chosen format.

    Gunicorn's own access log (`access_log`) repeats the app's request line with the raw
    path, so it is off unless asked for.
    """
    env = os.environ if environ is None else environ
    level = (level or env.get(LEVEL_VARIABLE) or "INFO").upper()
    factory = text_formatter if env.get(FORMAT_VARIABLE, "json").lower() == "text" else json_formatter
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": ContextFilter}},
        "formatters": {"line": {"()": factory}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "line",
                "filters": ["context"],
            }
        },
        "root": {"level": level, "handlers": ["stderr"]},
        "loggers": {
            "gunicorn.error": {"level": level, "handlers": [], "propagate": True},
            "gunicorn.access": {
                "level": "INFO" if access_log else "WARNING",
                "handlers": [],
                "propagate": access_log,
            },
        },
    }


def request_id(incoming: str | None, fresh: str) -> str:
    """The incoming X-Request-ID when it is sane, else `fresh`."""
    if incoming is not None and SANE_REQUEST_ID.fullmatch(incoming):
        return incoming
    return fresh


@contextmanager
def job_context(job_id: str) -> Iterator[None]:
    """Every line logged inside names `job_id`."""
    token = JOB_ID.set(job_id)
    try:
        yield
    finally:
        JOB_ID.reset(token)
