"""The hooks of the long schemathesis run (tests/api/schemathesis.toml): its own check, and real
ids and tokens on its requests (tests/api/fuzz_seats.py).

schemathesis' positive_data_acceptance takes 422 there, for the rules' refusals of what JSON
Schema cannot state; this check still fails a schema-valid request that the service's own
schemas refuse (400, 415, 422 `invalid_request`), as tests/api/test_fuzz.py's run does.
"""

from __future__ import annotations

import json
import os
from typing import Any

import schemathesis

from tests.api.fuzz_checks import valid_requests_are_not_refused_as_malformed
from tests.api.fuzz_seats import Keys

schemathesis.check(valid_requests_are_not_refused_as_malformed)
KEYS = Keys()
STATUSES = os.environ.get("FUZZ_STATUS_LOG")
"""A file that gets a line per answer, its operation and status, for the run's summary."""


@schemathesis.hook
def before_call(context: Any, case: Any, kwargs: dict[str, Any]) -> None:
    KEYS.fill(case)


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    # Only the operation's own method: the run also tries the others on its path (405).
    if STATUSES and case.method.upper() == case.operation.method.upper():
        with open(STATUSES, "a") as log:
            log.write(f"{case.operation.label}\t{response.status_code}\n")
    KEYS.refused(case, response.status_code)
    if response.status_code == 201:
        KEYS.learn(case.method.upper(), case.formatted_path, 201, json.loads(response.content))
