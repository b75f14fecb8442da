"""Where a test's events live. The default store is the one Redis; a test module that imports
`store_backend` from here runs each of its tests on the one Redis and on the 3-primary Redis
Cluster (RQ stays on the plain Redis in both)."""

from __future__ import annotations

import pytest

BACKENDS = ("redis", "cluster")


@pytest.fixture(params=BACKENDS)
def store_backend(request: pytest.FixtureRequest) -> str:
    """Each test of the importing module once per backend."""
    return str(request.param)
