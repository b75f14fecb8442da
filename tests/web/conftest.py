"""Web page fixtures: the API's (a fresh app on the flushed real Redis, or the cluster for a module
that imports tests.backends.store_backend, and the in-process worker)."""

from tests.api.conftest import app, client, cluster, events_client, run_jobs, run_worker, store_backend

__all__ = ["app", "client", "cluster", "events_client", "run_jobs", "run_worker", "store_backend"]
