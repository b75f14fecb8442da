"""The fault tests play through the API fixtures (an app per test on the flushed real Redis)."""

from tests.api.conftest import app, client, run_jobs, run_worker

__all__ = ["app", "client", "run_jobs", "run_worker"]
