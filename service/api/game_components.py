"""The document's game-dependent components, built from what each registered game declares.

Commands and events become unions with a discriminator on `type` (one schema per type, its
fields required as the game says), views and game creation unions on `game`, each game's
options typed. A game whose GameModule.schemas leaves a part empty gets a generic schema of
that part, so a client built from the document still plays it. Nothing here names a game.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from domain import ending
from domain import platform_schemas as platform
from domain.game_module import GameModule
from domain.json_schema import JsonSchema

Schema = dict[str, Any]
Components = dict[str, Schema]

GENERIC_OBJECT: JsonSchema = {"type": "object", "additionalProperties": True}
NO_SECRET: JsonSchema = {
    "enum": [None],
    "nullable": True,
    "description": "Always null: no game declares a secret for this event (GameSchemas.secrets).",
}


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def camel(name: str) -> str:
    """A game's name as a schema name: arabana-ikibiti -> ArabanaIkibiti."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", name) if part)


def union(variants: Mapping[str, str], generic: str | None, key: str, description: str) -> Schema:
    """oneOf the variants with a discriminator on `key` (value -> component name); with a
    `generic` component for what no game types, anyOf the discriminated union and it."""
    names = sorted(set(variants.values()))
    typed: Schema = {
        "oneOf": [ref(n) for n in names],
        "discriminator": {
            "propertyName": key,
            "mapping": {v: ref(n)["$ref"] for v, n in sorted(variants.items())},
        },
    }
    if generic is None:
        return {**typed, "description": description}
    if not names:
        return {"allOf": [ref(generic)], "description": description}
    return {"anyOf": [typed, ref(generic)], "description": description}


def by_type(
    games: Iterable[GameModule[Any]], part: Callable[[GameModule[Any]], Mapping[str, JsonSchema]]
) -> dict[str, list[JsonSchema]]:
    """Each type's distinct schemas across the games (one when the games agree)."""
    found: dict[str, list[JsonSchema]] = {}
    for game in games:
        for name, schema in part(game).items():
            known = found.setdefault(name, [])
            if schema not in known:
                known.append(schema)
    return found


def one_of(schemas: list[Schema]) -> Schema:
    return schemas[0] if len(schemas) == 1 else {"anyOf": schemas}


def command_components(games: list[GameModule[Any]]) -> Components:
    """`<Type>Command` per command type, and `Command`, their union."""
    found = by_type(games, lambda g: g.schemas.commands)
    for name, schema in platform.COMMANDS.items():
        found.setdefault(name, [schema])
    components: Components = {}
    for name, schemas in sorted(found.items()):
        if len(schemas) == 1:
            components[f"{name}Command"] = _command(name, schemas[0])
            continue
        # Games that give one type different fields: a component per game's variant, so that
        # the nested objects of each get names of their own in a generated client.
        variants: Components = {}
        for schema in schemas:
            first = next(
                g for g in sorted(games, key=lambda g: g.name) if g.schemas.commands.get(name) == schema
            )
            variants[f"{camel(first.name)}{name}Command"] = _command(name, schema)
        components.update(variants)
        components[f"{name}Command"] = {"anyOf": [ref(v) for v in variants]}
    untyped = any(not g.schemas.commands for g in games)
    if untyped:
        components["GenericCommand"] = {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"type": "string", "minLength": 1, "maxLength": 32}},
            "additionalProperties": True,
            "description": "A command of a game that does not type its commands: `type` and its fields.",
        }
    components["Command"] = union(
        {name: f"{name}Command" for name in found},
        "GenericCommand" if untyped else None,
        "type",
        "A seat's command, one schema per type; GET /games/{game_id}/legal lists those it may send now.",
    )
    return components


def _command(name: str, body: JsonSchema) -> Schema:
    fields = copy.deepcopy(dict(body.get("properties", {})))
    return {
        "type": "object",
        "required": ["type", *body.get("required", [])],
        "properties": {"type": {"type": "string", "enum": [name]}, **fields},
        "additionalProperties": False,
    }


def event_components(games: list[GameModule[Any]], envelope: Schema) -> Components:
    """`<Type>Event` per event type (the envelope with its typed data and secret), and `Event`."""
    data = by_type(games, lambda g: g.schemas.events)
    for name, schema in platform.EVENTS.items():
        data.setdefault(name, [schema])
    secrets = by_type(games, lambda g: g.schemas.secrets)
    for name, schema in platform.SECRETS.items():
        secrets.setdefault(name, [schema])
    components: Components = {}
    for name, schemas in sorted(data.items()):
        # What no game declares a secret for never carries one: a client reads it as null.
        secret = one_of([dict(s) for s in secrets[name]]) if name in secrets else NO_SECRET
        components[f"{name}Event"] = _event(envelope, name, one_of([dict(s) for s in schemas]), secret)
    untyped = any(not g.schemas.events for g in games)
    if untyped:
        generic = copy.deepcopy(envelope)
        generic["description"] = "An event of a game that does not type its events."
        components["GenericEvent"] = generic
    components["Event"] = union(
        {name: f"{name}Event" for name in data},
        "GenericEvent" if untyped else None,
        "type",
        "An event as one viewer may see it: `secret` is null and `redacted` true when hidden. Every "
        "field the hash covers is here, so any viewer can recompute the chain.",
    )
    return components


def _event(envelope: Schema, name: str, data: JsonSchema, secret: JsonSchema) -> Schema:
    schema = copy.deepcopy(envelope)
    properties = schema["properties"]
    properties["type"] = {"type": "string", "enum": [name]}
    properties["data"] = copy.deepcopy(dict(data))
    shown = copy.deepcopy(dict(secret))
    # OpenAPI 3.0's nullable does not reach into an anyOf: each game's shape admits the null.
    if "anyOf" in shown:
        shown["anyOf"] = [{**variant, "nullable": True} for variant in shown["anyOf"]]
    properties["secret"] = {**shown, "nullable": True}
    schema["required"] = sorted({*schema.get("required", []), "type", "data"})
    return schema


def game_components(games: list[GameModule[Any]], base_view: Schema, create: Schema) -> Components:
    """Per game: `<Game>Options`, `<Game>View` (its view with the platform's keys) and
    `Create<Game>Game`; `GameView` and `CreateGame`, their unions on `game`."""
    components: Components = {}
    views: dict[str, str] = {}
    creates: dict[str, str] = {}
    for game in sorted(games, key=lambda g: g.name):
        name = camel(game.name)
        options = dict(game.schemas.options) or {**GENERIC_OBJECT, "maxProperties": 16}
        components[f"{name}Options"] = {
            **copy.deepcopy(options),
            "description": f"The options of {game.name}.",
        }
        components[f"{name}View"] = _view(game, base_view, f"{name}Options")
        components[f"Create{name}Game"] = _create(game, create, f"{name}Options")
        views[game.name] = f"{name}View"
        creates[game.name] = f"Create{name}Game"
    components["GameView"] = union(views, None, "game", "The game as one viewer may see it, by game.")
    components["CreateGame"] = union(creates, None, "game", "POST /games, by game.")
    return components


def _view(game: GameModule[Any], base: Schema, options: str) -> Schema:
    """The game's view, with the keys the platform adds (game_id, version, undo, ...)."""
    own = copy.deepcopy(dict(game.schemas.view)) or {"type": "object", "properties": {}}
    properties = {**own.get("properties", {}), **copy.deepcopy(base["properties"])}
    properties["game"] = {"type": "string", "enum": [game.name]}
    if "options" in properties or not own.get("properties"):
        properties["options"] = ref(options)
    seats = properties.get("seats", {}).get("items")
    if isinstance(seats, dict) and "properties" in seats:
        seats["properties"].update(
            ai={"type": "string", "description": "A computer seat's player."},
            level={"type": "integer", "description": "A computer seat's strength."},
            signs={
                "type": "boolean",
                "description": "Whether the seat holds a public key: each of its commands then carries "
                "If-Match and its signature (Archipelago-Signature).",
            },
            open={
                "type": "boolean",
                "description": "An open seat nobody has taken yet (its name is empty): the game waits "
                "for it. A taken one shows its taker's name.",
            },
        )
    view: Schema = {
        "type": "object",
        "required": sorted({"game", *own.get("required", []), "version"}),
        "properties": properties,
        "description": f"{game.name} as one viewer may see it.",
    }
    if not own.get("properties"):
        view["additionalProperties"] = True
    return view


def _create(game: GameModule[Any], create: Schema, options: str) -> Schema:
    schema = copy.deepcopy(create)
    properties = schema["properties"]
    properties["game"] = {"type": "string", "enum": [game.name]}
    properties["seats"] = {**properties["seats"], "minItems": game.min_seats, "maxItems": game.max_seats}
    properties["first_seat"] = {**properties["first_seat"], "maximum": game.max_seats - 1}
    properties["options"] = ref(options)
    schema["description"] = f"A new game of {game.name} ({game.seat_counts()})."
    return schema


def summary_component(games: list[GameModule[Any]], base: Schema) -> Schema:
    """The games listing's entry, its `result` typed as the games' views type theirs."""
    summary = copy.deepcopy(base)
    results: list[Schema] = []
    for game in sorted(games, key=lambda g: g.name):
        shown = game.schemas.view.get("properties", {}).get("result")
        if isinstance(shown, Mapping):
            result = {k: v for k, v in copy.deepcopy(dict(shown)).items() if k != "nullable"}
            if result not in results:
                results.append(result)
    if not results or any(not g.schemas.view.get("properties") for g in games):
        results.append(dict(GENERIC_OBJECT))
    results.append(copy.deepcopy(dict(platform.EVENTS[ending.GAME_RESIGNED])))  # any game may be resigned
    described = summary["properties"]["result"].get("description", "")
    typed = {"anyOf": [{**r, "nullable": True} for r in results]} if len(results) > 1 else results[0]
    summary["properties"]["result"] = {**typed, "nullable": True, "description": described}
    return summary


def build(games: list[GameModule[Any]], generated: Mapping[str, Schema]) -> Components:
    """Every game-dependent component, from the registry and the marshmallow-made bases."""
    components = {
        **command_components(games),
        **event_components(games, copy.deepcopy(generated["Event"])),
        **game_components(
            games, copy.deepcopy(generated["GameView"]), copy.deepcopy(generated["CreateGame"])
        ),
    }
    if "GameSummary" in generated:
        components["GameSummary"] = summary_component(games, generated["GameSummary"])
    return components
