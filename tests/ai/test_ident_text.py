"""A command's ident is the text of its posted body (`key`), for read-only shared args as for
others: text hashes once, where a nested tuple is hashed anew at every look-up."""

from __future__ import annotations

from types import MappingProxyType

from ai.sim import ident, key
from domain.decider import Command


def test_an_ident_is_the_key_text_of_shared_and_changeable_args_alike() -> None:
    body = {"path": [[3, 5], [4, 5]], "pieces": {"rumor": 1}, "stops": [{"at": 1, "drop": 0}]}
    changeable = Command("Move", 0, dict(body))
    shared = Command("Move", 0, MappingProxyType(dict(body)))
    assert ident(changeable) == key(changeable) == ident(shared) == key(shared)
    assert isinstance(ident(shared), str)
    assert ident(Command("EndMovement", 0)) == '{"type":"EndMovement"}'
