"""Web page fixtures: the API's (a fresh app on the flushed real Redis, the in-process worker)."""

from tests.api.conftest import app, client, run_jobs, run_worker

__all__ = ["app", "client", "run_jobs", "run_worker"]
