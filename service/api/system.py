"""Operational endpoints."""

from __future__ import annotations

from typing import Any

from service.api.blueprint import Blueprint
from service.api.context import game_service
from service.api.schemas import HealthSchema

blp = Blueprint("system", __name__, description="Health of the service.")


@blp.get("/health")
@blp.response(200, HealthSchema)
def health() -> Any:
    """200 when Redis answers a PING (503 problem otherwise)."""
    game_service().redis.ping()
    return {"status": "ok"}
