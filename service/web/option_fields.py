"""The new-game form's option fields, read from what each game module declares.

A game's options schema (GameModule.schemas.options) says which options it takes and of
what kind; the form offers those a person can set with one control: a true/false option as
a checkbox, a text option with listed values as a choice, a whole number as a number field.
Options of other shapes (a handicap, a given layout) stay with the form's free JSON field.
The rules check every value afterwards, as they do for POST /games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.game_module import GameModule

SWITCH, CHOICE, NUMBER = "switch", "choice", "number"


class FormError(ValueError):
    """A form field that does not read; answered 422 bad_form."""


@dataclass(frozen=True)
class OptionField:
    """One option of one game, as the form offers it."""

    game: str
    name: str
    kind: str
    choices: tuple[str, ...] = ()
    least: int | None = None
    most: int | None = None
    description: str = ""

    @property
    def field(self) -> str:
        """The form field's name and id; the game's name keeps apart options of the same
        name in two games (a form without its script posts every game's fields)."""
        return f"opt-{self.game}-{self.name}"

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").capitalize()

    def read(self, raw: str) -> Any:
        """The option's value as posted, or None when the field leaves it to the rules' default."""
        if self.kind == SWITCH:
            return True if raw == "on" else None
        if self.kind == CHOICE:
            return raw if raw in self.choices else None
        if raw.strip() == "":
            return None
        try:
            return int(raw)
        except ValueError:
            raise FormError(f"{self.field}: a whole number") from None


def option_fields(module: GameModule[Any]) -> list[OptionField]:
    """The options of `module` the form offers, in the order its schema declares them."""
    properties: Mapping[str, Any] = module.schemas.options.get("properties") or {}
    offered = (_field(module.name, name, schema) for name, schema in properties.items())
    return [field for field in offered if field is not None]


def _field(game: str, name: str, schema: Mapping[str, Any]) -> OptionField | None:
    kind, words = schema.get("type"), str(schema.get("description", ""))
    if kind == "boolean":
        return OptionField(game, name, SWITCH, description=words)
    if kind == "string" and schema.get("enum"):
        return OptionField(game, name, CHOICE, tuple(str(v) for v in schema["enum"]), description=words)
    if kind == "integer" and "enum" not in schema:
        least, most = schema.get("minimum"), schema.get("maximum")
        return OptionField(game, name, NUMBER, (), least, most, words)
    return None


def chosen_options(fields: Iterable[OptionField], form: Mapping[str, str]) -> dict[str, Any]:
    """The options the form's fields set (those left blank are not sent)."""
    chosen = {}
    for field in fields:
        value = field.read(form.get(field.field, ""))
        if value is not None:
            chosen[field.name] = value
    return chosen
