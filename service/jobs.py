"""RQ jobs: thin module-level functions taking ids; a re-run is recognised and does nothing."""

from __future__ import annotations

from service.wiring import build_service


def score_round(game_id: str, round_: int) -> bool:
    """Append the scoring of `round_` of `game_id`; False when it was already scored."""
    service = build_service()
    scored = service.score_round(game_id, round_)
    if service.scoring is not None:
        service.scoring.done(game_id)
    return scored
