"""A bounded schemathesis run against the WSGI app (P5 B.8, P12): requests generated from the
OpenAPI document, valid ones and invalid ones, must never get a 5xx nor an answer the
document does not describe (status, content type, body schema), and a request the document
calls valid must not be refused as malformed (400, 415, or 422 `invalid_request`: what the
service's own schemas refuse). The rules' refusals of what JSON Schema cannot state (a card
not in the hand, an island of another board: 422 with the rules' code; 409) are answers.

FUZZ_EXAMPLES sets the examples per operation and mode (default: a share of the hypothesis
profile, at least MIN_EXAMPLES: about 330 requests in all, seeded); `FUZZ_EXAMPLES=100
.venv/bin/python -m pytest tests/api/test_fuzz.py -s` is the long form, which prints its
figures.
Half of the requests about a game go to a real one with a seat's token, so that they get
past the 404 and the 401 (a Kahuna game, and in one of those four a game of the family that lives
in the tests, which the document then types too); half of those about a tournament to a real one
with its organizer's token.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.fuzz_checks import valid_requests_are_not_refused_as_malformed
from tests.api.helpers import bearer, create_game
from tests.api.tournament_helpers import create_tournament, register
from tests.families.registered import TEST_GAMES
from tests.hypothesis_profiles import examples

MIN_EXAMPLES = 5
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", max(MIN_EXAMPLES, examples(share=16))))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    valid_requests_are_not_refused_as_malformed,
]
# (schemathesis' pytest plugin does not run on pytest 9: the run is driven with hypothesis here.)


@pytest.mark.usefixtures("test_families")
def test_generated_requests_get_no_5xx_and_only_answers_the_document_describes(
    app: Flask, client: FlaskClient
) -> None:
    game = create_game(client)
    game["family"] = create_game(client, game=TEST_GAMES[0])
    tournament = create_tournament(client)
    register(client, tournament, name="Ann")
    game["tournament"] = tournament
    api = schemathesis.openapi.from_wsgi("/openapi.json", app)
    failures: Counter[str] = Counter()
    statuses: Counter[int] = Counter()
    cases = 0
    for result in api.get_all_operations():
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            try:
                cases += fuzz(result.ok(), mode, game, failures, statuses)
            except Unsatisfiable:
                assert mode is GenerationMode.NEGATIVE  # nothing in it can be invalid (GET /health)
    print(f"{cases} requests, {sum(failures.values())} failures, statuses {sorted(statuses.items())}")
    assert not failures, "\n".join(f"{n} x {what}" for what, n in failures.most_common())


def fuzz(
    operation: Any,
    mode: GenerationMode,
    game: dict[str, Any],
    failures: Counter[str],
    statuses: Counter[int],
) -> int:
    """Run EXAMPLES cases of one operation, counting failures by kind; the number of cases."""
    cases = 0

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        nonlocal cases
        cases += 1
        if "game_id" in (case.path_parameters or {}) and cases % 2:
            real = game["family"] if cases % 8 == 1 else game
            case.path_parameters["game_id"] = real["game_id"]
            case.headers = {**(case.headers or {}), **bearer(real["tokens"][0])}
        if "tournament_id" in (case.path_parameters or {}) and cases % 2:
            case.path_parameters["tournament_id"] = game["tournament"]["tournament_id"]
            case.headers = {**(case.headers or {}), **bearer(game["tournament"]["organizer_token"])}
        try:
            statuses[case.call_and_validate(checks=CHECKS).status_code] += 1
        except (AssertionError, FailureGroup) as found:
            for failure in getattr(found, "exceptions", [found]):
                kind = getattr(failure, "title", type(failure).__name__)
                if "Custom check" in kind or "violates" in kind:
                    kind += ": " + str(getattr(failure, "message", failure))[:160].replace("\n", " ")
                failures[f"{operation.label} ({mode}): {kind}"] += 1

    run()
    return cases
