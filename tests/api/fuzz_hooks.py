"""The hooks of the long schemathesis run (tests/api/schemathesis.toml): its own check.

schemathesis' positive_data_acceptance takes 422 there, for the rules' refusals of what JSON
Schema cannot state; this check still fails a schema-valid request that the service's own
schemas refuse (400, 415, 422 `invalid_request`), as tests/api/test_fuzz.py's run does.
"""

from __future__ import annotations

import schemathesis

from tests.api.fuzz_checks import valid_requests_are_not_refused_as_malformed

schemathesis.check(valid_requests_are_not_refused_as_malformed)
