"""The live streams in the OpenAPI document: a text/event-stream answer, a named schema of one
message of it and of that message's `data`.

OpenAPI 3.0 cannot type the items of a stream (3.2's `itemSchema` does), and tools read its
`schema` two ways: a client generator as the whole answer's text (an object schema made a
generated client parse the text as a JSON object, and throw), a tester such as schemathesis as
each message (as 3.2 says a document without `itemSchema` means). So the answer is either: one
message (the named component) or the whole text (a string). The extension `x-item-schema`
names the message's component as `itemSchema` would; that component's `data` is a string of
JSON whose schema `x-data-schema` names (as `contentSchema` would).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

STREAM_ITEMS: Mapping[str, tuple[str, str, bool]] = {
    "get /games/{game_id}/stream": ("GameStreamItem", "Event", False),
    "get /tournaments/{tournament_id}/stream": ("TournamentStreamItem", "TournamentStreamMessage", True),
}
"""Stream operation -> (the component of one message, of its data's JSON, whether it has `event:`)."""

KEEP_ALIVE = "`: keep-alive` comment lines between messages carry no data (they notice gone clients)."


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def item_component(data: str, named: bool) -> dict[str, Any]:
    """One Server-Sent Events message: its `id:`, its `event:` when `named`, its `data:`."""
    properties: dict[str, Any] = {
        "id": {"type": "string", "pattern": "^[0-9]+$", "description": "The version: resume after it."}
    }
    if named:
        properties["event"] = {"type": "string", "description": "The event's type, or standings."}
    properties["data"] = {
        "type": "string",
        "description": f"JSON of {data} (x-data-schema names it).",
        "x-data-schema": ref(data),
    }
    return {
        "type": "object",
        "required": ["id", "data"],
        "properties": properties,
        "description": f"One message of the stream, its `data:` a {data} as JSON. {KEEP_ALIVE}",
    }


def register_items(spec: Any) -> None:
    """Add each stream's message component to the document."""
    for item, data, named in STREAM_ITEMS.values():
        spec.components.schema(item, item_component(data, named))


def answer_schema(key: str, description: str) -> dict[str, Any]:
    """The schema of a stream's answer: one message (x-item-schema), or the whole text."""
    item = STREAM_ITEMS[key][0]
    text = {"type": "string", "description": "The whole text of the stream, read at once."}
    return {
        "description": f"{description} {KEEP_ALIVE}",
        "anyOf": [ref(item), text],
        "x-item-schema": ref(item),
    }
