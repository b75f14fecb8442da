"""The reply parser of the service's Redis clients: redis-py's own, with a readiness check that
does not cost a gevent web worker a trip through its event loop.

Before every command, redis-py's pool asks whether the pooled connection already holds unread
data (a reply left behind would be taken for the next command's). Its hiredis parser asks
`select.poll()` with a timeout of 0. Under gevent (the web workers, deploy/gunicorn.conf.py)
that poll is gevent's: it arms a watcher and a timer and switches to the hub and back for an
answer the kernel gives at once, which made a Redis round trip cost the web process about 80 µs
of CPU instead of 30. The check here asks the kernel's own poll, which does not block at a
timeout of 0; any other timeout (a subscriber waiting for a message) still goes to redis-py.
"""

from __future__ import annotations

import select
from typing import Any

from redis.connection import DefaultParser

try:
    from gevent.monkey import get_original  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - gevent is a dependency; a plain poll is the kernel's
    _kernel_poll: Any = getattr(select, "poll", None)
else:
    _kernel_poll = get_original("select", "poll") if hasattr(select, "poll") else None


def _has_pending(sock: Any) -> bool:
    """Whether the kernel holds bytes (or a hang-up) for `sock`, asked without waiting."""
    poller = _kernel_poll()
    poller.register(sock.fileno(), select.POLLIN)
    return bool(poller.poll(0))


class ReplyParser(DefaultParser):  # type: ignore[misc,valid-type]
    """redis-py's default parser, whose readiness check at timeout 0 never yields."""

    def can_read(self, timeout: float = 0) -> bool:
        sock = getattr(self, "_sock", None)
        reader = getattr(self, "_reader", None)  # hiredis's buffer; the pure-Python parser has none
        if timeout != 0 or _kernel_poll is None or sock is None or reader is None or _tls(sock):
            return bool(super().can_read(timeout))
        if reader.has_data():
            return True
        if not _has_pending(sock):
            return False
        # Readable but nothing buffered: a pending reply or a closed peer; redis-py tells which.
        return bool(super().can_read(timeout))


def _tls(sock: Any) -> bool:
    """A TLS socket may hold decrypted bytes above the kernel's buffer: redis-py checks those."""
    return hasattr(sock, "pending")
