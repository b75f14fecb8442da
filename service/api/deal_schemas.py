"""The schemas of the deal: a seat's entropy, and the deal's check in /verify."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from record.draws import ENTROPY_MAX_HEX, ENTROPY_MIN_HEX

ENTROPY_PATTERN = r"^(?:[0-9a-f]{2})+$"


def entropy_field(description: str, required: bool = False) -> fields.String:
    return fields.String(
        required=required,
        validate=[
            validate.Length(min=ENTROPY_MIN_HEX, max=ENTROPY_MAX_HEX),
            validate.Regexp(ENTROPY_PATTERN, error="lowercase hex, whole bytes"),
        ],
        metadata={"description": description, "pattern": ENTROPY_PATTERN},
    )


class EntropySchema(Schema):
    """POST /games/{id}/entropy: the seat's own randomness for the deal's later draws."""

    entropy = entropy_field(
        "16 to 64 random bytes of the seat's own, as lowercase hex; every later draw mixes it in.",
        required=True,
    )


class DealCommitmentSchema(Schema):
    """`deal` in a game's or a tournament's first event: the service's commitment to its seed."""

    scheme = fields.String(required=True, metadata={"description": "The generator every draw comes from."})
    commitment = fields.String(required=True, metadata={"description": "sha256 of the 32-byte seed, hex."})
    entropy = fields.String(metadata={"description": "The creator's entropy, hex, when given."})


class DealReportSchema(Schema):
    """The check of the deal: each chance event redrawn from the revealed seed."""

    status = fields.String(
        validate=validate.OneOf(("none", "committed", "checked", "fault")),
        metadata={
            "description": "none: recorded before deals were committed; committed: the seed is "
            "revealed when the game ends (with its log); checked: every draw recomputed and equal; "
            "fault: first_bad_version is not what the seed draws."
        },
    )
    commitment = fields.String(allow_none=True, metadata={"description": "sha256 of the seed, hex."})
    draws = fields.Integer(metadata={"description": "How many draws were recomputed."})
    first_bad_version = fields.Integer(allow_none=True)
    reason = fields.String()
