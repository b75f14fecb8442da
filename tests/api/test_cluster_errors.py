"""A Redis Cluster that is down, fails over or keeps moving a slot makes the cluster client give
up with an error a retry will get past: the API answers 503 store_unavailable, not 500."""

from __future__ import annotations

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.api.context import EXTENSION


@pytest.mark.parametrize(
    "error",
    [
        redis.exceptions.ClusterDownError("CLUSTERDOWN The cluster is down"),
        redis.exceptions.MasterDownError("MASTERDOWN Link with MASTER is down"),
        redis.exceptions.ClusterError("TTL exhausted."),
        redis.exceptions.TryAgainError("TRYAGAIN Multiple keys request during rehashing of slot"),
    ],
    ids=["cluster-down", "master-down", "redirections-exhausted", "try-again"],
)
def test_a_cluster_error_is_a_503_problem(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(app.extensions[EXTENSION].store, "read", fail)

    answer = client.get("/games/g-on-a-moving-slot")

    assert (answer.status_code, answer.mimetype, answer.json["code"]) == (
        503,
        "application/problem+json",
        "store_unavailable",
    )
