"""The legal commands' remembered dumps are marshmallow's own dumps, first time and every time."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, fields

from service.api.remembered_dumps import RememberedNested, plain
from service.api.schemas import CommandSchema, LegalSchema


class ReferenceLegalSchema(Schema):
    version = fields.Integer()
    commands = fields.List(fields.Nested(CommandSchema))


NAMES = [f.data_key or name for name, f in CommandSchema().fields.items()] + ["extra", "from_"]
scalars = st.none() | st.booleans() | st.integers(-5, 70) | st.text(max_size=3) | st.floats(allow_nan=False)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner), max_leaves=6
)
commands = st.dictionaries(st.sampled_from(NAMES), values, max_size=5)


def outcome(schema: Schema, answer: dict[str, Any]) -> Any:
    """The dump, or the kind of error it raised (a value no command field takes)."""
    try:
        return schema.dump(answer)
    except (TypeError, ValueError, AttributeError) as error:
        return type(error).__name__


def both(answer: dict[str, Any]) -> tuple[Any, Any]:
    return outcome(LEGAL, answer), outcome(REFERENCE, answer)


LEGAL, REFERENCE = LegalSchema(), ReferenceLegalSchema()


@settings(deadline=None)
@given(st.lists(commands, max_size=4))
def test_a_remembered_dump_is_the_nested_dump(listed: list[dict[str, Any]]) -> None:
    answer = {"version": 3, "commands": listed}
    first, reference = both(answer)
    assert first == reference
    again, _ = both(answer)  # from what was remembered
    assert again == reference


def test_kahuna_commands_dump_as_before_and_each_answer_has_its_own_copy() -> None:
    listed = [
        {"type": "PlaceBridge", "line": ["Aloa", "Bari"]},
        {"type": "DrawCard", "source": "stack"},
        {"type": "Move", "from": ["a", "b", "c"], "to": ["d", "e", "f"], "piece": 3},
        {"type": "Move", "undeclared": {"kept": [1, 2]}},
    ]
    answer = {"version": 9, "commands": listed}
    first, reference = both(answer)
    second, _ = both(answer)
    assert first == second == reference
    assert first["commands"][0] is not second["commands"][0]


def test_only_plain_json_values_are_remembered() -> None:
    assert plain({"a": [1, "b", None, 2.5, True], "c": {"d": []}})
    assert not plain({"a": (1, 2)})
    assert not plain({1: "a"})
    assert not plain({"a": [[[[[1]]]]]})
    assert isinstance(LegalSchema().fields["commands"].inner, RememberedNested)
