"""The fault tests play through the API fixtures (an app per test on the flushed real Redis)."""

from tests.api.conftest import app, client, cluster, events_client, run_jobs, run_worker, store_backend

__all__ = ["app", "client", "cluster", "events_client", "run_jobs", "run_worker", "store_backend"]
