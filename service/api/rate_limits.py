"""Rate limits per client address: Flask-Limiter on the service's Redis, settings and the 429 answer.

Every app worker counts in the same Redis, so a limit holds across gunicorn processes and
survives their restarts. The client address is the peer's, unless the peer is a proxy
listed in FORWARDED_ALLOW_IPS (the setting gunicorn reads for X-Forwarded-Proto): then it
is the address that proxy names in X-Forwarded-For. Gunicorn itself leaves REMOTE_ADDR at
the proxy's address, which would put every client behind it into one allowance.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

from flask import Flask, Response, current_app, request
from flask_limiter import Limiter, RateLimitExceeded

from service import redis_clients
from service.api.problems import problem

DEFAULTS: Mapping[str, Any] = {
    "RATE_LIMITS_ENABLED": True,
    # Every request not limited below, per address; generous enough for a hall behind one NAT.
    "RATE_LIMIT_DEFAULT": "50 per second",
    "RATE_LIMIT_CREATE": "10 per minute;100 per hour",
    "RATE_LIMIT_COMMANDS": "20 per second",
    "RATELIMIT_KEY_PREFIX": "archipelago",
    # A store that refuses the counting (full, read-only, loading, out of reach) must not refuse
    # every request with it: each process counts in its own memory meanwhile, and asks Redis
    # again now and then (after 1, 2, 4, ... 32 s).
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
    # The X-RateLimit-* headers cost a Redis round trip on every answer; the 429 has Retry-After.
    "RATELIMIT_HEADERS_ENABLED": False,
    # Proxies whose X-Forwarded-For names the client: comma-separated addresses or networks, * = any.
    "FORWARDED_ALLOW_IPS": "127.0.0.1",
}
#: Environment variable -> setting, read by create_app (its config still wins).
ENVIRONMENT: Mapping[str, str] = {
    "ARCHIPELAGO_RATE_LIMIT_DEFAULT": "RATE_LIMIT_DEFAULT",
    "ARCHIPELAGO_RATE_LIMIT_CREATE": "RATE_LIMIT_CREATE",
    "ARCHIPELAGO_RATE_LIMIT_COMMANDS": "RATE_LIMIT_COMMANDS",
    "FORWARDED_ALLOW_IPS": "FORWARDED_ALLOW_IPS",
}
SWITCH = "ARCHIPELAGO_RATE_LIMITS"
"""`off` (or 0, false, no) turns every limit off, e.g. for benchmarks from one address."""

# One limiter per process, as its decorators need it at import. Its own switch
# (RATELIMIT_ENABLED) belongs to the process, so each app's RATE_LIMITS_ENABLED and limits
# are read from the current app's config on each request instead.


def client_address() -> str:
    """The requesting client's address: the peer's, or what the trusted proxies forwarded."""
    address = request.remote_addr or "unknown"
    hops = [h.strip() for h in request.headers.get("X-Forwarded-For", "").split(",") if h.strip()]
    trusted = str(current_app.config["FORWARDED_ALLOW_IPS"])
    # Right to left: each trusted hop vouches for the address left of it, and no further.
    while hops and in_networks(address, trusted):
        address = hops.pop()
    return address


def in_networks(address: str, networks: str) -> bool:
    """Whether `address` lies in one of `networks`: comma-separated addresses or CIDR networks,
    `*` for any. An IPv4 address a dual-stack socket reports as ::ffff:a.b.c.d counts as a.b.c.d."""
    entries = [e.strip() for e in networks.split(",") if e.strip()]
    if "*" in entries:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    for entry in entries:
        try:
            if ip in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return False


limiter = Limiter(client_address, default_limits=[lambda: current_app.config["RATE_LIMIT_DEFAULT"]])
limiter.request_filter(lambda: not current_app.config["RATE_LIMITS_ENABLED"])

View = TypeVar("View", bound=Callable[..., Any])


def settings(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The limits' settings: DEFAULTS, overridden by the environment."""
    env = os.environ if environ is None else environ
    found = dict(DEFAULTS)
    found.update({setting: env[name] for name, setting in ENVIRONMENT.items() if env.get(name)})
    if env.get(SWITCH):
        found["RATE_LIMITS_ENABLED"] = env[SWITCH].strip().lower() not in ("off", "0", "false", "no")
    return found


def init_limits(app: Flask, storage_uri: str) -> None:
    """Count on `storage_uri` (the service's Redis) unless the config names another storage."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", storage_uri)
    if str(app.config["RATELIMIT_STORAGE_URI"]).startswith(("redis://", "rediss://")):
        # A stalled Redis answers the limit's count with a 503 too, instead of hanging the request.
        app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", redis_clients.options())
    app.config["RATELIMIT_ENABLED"] = True
    limiter.init_app(app)
    # The one limiter of the process gets this app's storage: a fresh one, not the dead one an
    # earlier app may have fallen back from (tests make one app after another).
    limiter._storage_dead = False
    _gate_hooks(app)
    app.register_error_handler(RateLimitExceeded, rate_limited)


def limits_on() -> bool:
    """Whether the current app counts requests (RATE_LIMITS_ENABLED, read on every request)."""
    return bool(current_app.config["RATE_LIMITS_ENABLED"])


def _gate_hooks(app: Flask) -> None:
    """The limiter's request hooks run only while the app's limits are on. The limiter would
    find them off itself (its request filter), but only after gathering the route's limits,
    about a sixth of an ordinary request's time in the framework."""
    hooks: list[dict[Any, list[Any]]] = [app.before_request_funcs, app.after_request_funcs]
    hooks.append(app.teardown_request_funcs)
    for functions in (f for kind in hooks for f in kind.values()):
        for n, function in enumerate(functions):
            if _of_limiter(function):
                functions[n] = _gated(function)


def _of_limiter(function: Callable[..., Any]) -> bool:
    owner = getattr(function, "__self__", None)
    if isinstance(function, functools.partial):
        owner = function.args[0] if function.args else None
    return owner is limiter


def _gated(hook: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(hook)
    def gate(*args: Any) -> Any:
        if limits_on():
            return hook(*args)
        # An after-request hook hands its response on (a teardown's return is not read; a
        # before-request hook takes nothing and answers nothing, letting the request go on).
        return args[0] if args else None

    return gate


def creation_limit(view: View) -> View:
    """RATE_LIMIT_CREATE on a view that creates games."""
    return _unless_off(view, limiter.limit(lambda: current_app.config["RATE_LIMIT_CREATE"])(view))


def command_limit(view: View) -> View:
    """RATE_LIMIT_COMMANDS on a view that runs a seat's command."""
    return _unless_off(view, limiter.limit(lambda: current_app.config["RATE_LIMIT_COMMANDS"])(view))


def _unless_off(view: View, limited: Callable[..., Any]) -> View:
    """`limited` while the app's limits are on, else `view` itself (see _gate_hooks)."""

    @functools.wraps(limited)
    def either(*args: Any, **kwargs: Any) -> Any:
        return (limited if limits_on() else view)(*args, **kwargs)

    return cast(View, either)


def rate_limited(error: RateLimitExceeded) -> Response:
    """429 with the seconds until the window that was used up starts afresh."""
    reset_at = limiter.current_limit.reset_at if limiter.current_limit else time.time() + 1
    # reset_at is already rounded up to the next whole second.
    retry = max(1, int(reset_at - time.time()))
    detail = f"too many requests from this address ({error.description}); retry in {retry} s"
    return problem(429, "rate_limited", detail, headers={"Retry-After": str(retry)})
