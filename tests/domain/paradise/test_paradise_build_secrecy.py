"""Q-1 (issue P16 item 15): a seat's build orders go in one command and one secret event, so
no one learns how many it gave until every seat has committed; games stored with one event an
order still fold to the same end."""

from __future__ import annotations

from typing import Any

import pytest
from paradise_given import SAMOA, TONGA, building, commit, order, types

from domain.decider import Command, Event, IllegalMove
from domain.paradise.engine import evolve
from domain.paradise.module import PARADISE
from domain.paradise.state import State
from domain.paradise.view import view

MANY = (
    order("rotate"),
    order("band", TONGA),
    order("band", TONGA),
    order("transport", TONGA),
    order("rumor", TONGA),
)
LISTS: tuple[tuple[dict[str, Any], ...], ...] = ((), (order("band", TONGA),), MANY)
"""No order, one, and five (rotation's point paying for the transport, the rumor free)."""


def _as_others_see(events: list[Event]) -> list[tuple[object, ...]]:
    """The events as a seat outside their audience reads them: the secret only as there or not."""
    return [(e.type, e.data, e.audience, e.secret is not None) for e in events]


def test_Q1_a_commit_shows_the_others_the_same_whatever_the_number_of_orders() -> None:
    seen = []
    for orders in LISTS:
        events, state = commit(building(2), 0, *orders)
        assert types(events) == ["BuildCommitted"], "one event, whatever the number of orders"
        assert events[0].secret == {"orders": [{"hex": None, **o} for o in orders]}
        seen.append((_as_others_see(events), view(state, 1), view(state, None), PARADISE.to_act(state)))
    assert seen[0] == seen[1] == seen[2]


def test_Q1_after_the_last_commit_every_order_is_applied_and_shown() -> None:
    _, state = commit(building(2), 0, *MANY)
    assert view(state, 0)["draft"]["rotate"] and len(view(state, 0)["draft"]["items"]) == 4
    events, state = commit(state, 1, order("colony", SAMOA))
    revealed = {e.data["seat"]: e.data for e in events if e.type == "BuildRevealed"}
    assert revealed[0]["placed"] == {"5,6": 4} and revealed[0]["rotate"] is True
    assert revealed[1]["placed"] == {"5,4": 1}
    assert state.pieces(TONGA, 0)["band"] == 4 and state.pieces(TONGA, 0)["rumor"] == 1
    assert state.pieces(SAMOA, 1)["colony"] == 1 and state.explorers[0] == "lost"


@pytest.mark.parametrize("name", ["Build", "Rotate", "Save"])
def test_Q1_orders_one_by_one_are_no_command_any_more(name: str) -> None:
    with pytest.raises(IllegalMove) as refused:
        PARADISE.decide(building(2), Command(name, 0, {"item": "band", "hex": list(TONGA)}))
    assert refused.value.code == "unknown_command"


def test_Q1_a_list_of_orders_is_judged_whole() -> None:
    state = building(2)
    for orders, code in (
        ([order("band", TONGA)] * 3, "cannot_build"),  # two points
        ([order("rotate"), order("rotate")], "bad_orders"),
        ([order("save")], "cannot_save"),  # no saved-resources option
        ([order("palace", TONGA)], "bad_item"),
        ([order("band")], "bad_hex"),
        (["band"], "bad_orders"),
        ("band", "bad_orders"),
    ):
        with pytest.raises(IllegalMove) as refused:
            PARADISE.decide(state, Command("EndBuild", 0, {"orders": orders}))
        assert refused.value.code == code, orders


def _stored(o: dict[str, Any]) -> dict[str, Any]:
    return {"item": o["item"], "hex": o.get("hex")}


def _fold(state: State, events: list[Event]) -> State:
    for event in events:
        state = evolve(state, event)
    return state


def test_Q1_a_game_stored_with_one_event_an_order_folds_to_the_same_end() -> None:
    start = building(2)
    old = [
        Event("BuildOrdered", {"seat": 0}, {"item": "rotate", "hex": None}, (0,)),
        *(Event("BuildOrdered", {"seat": 0}, o, (0,)) for o in map(_stored, MANY[1:])),
        Event("BuildCommitted", {"seat": 0}),
    ]
    stored = _fold(start, old)
    _, played = commit(start, 0, *MANY)
    assert stored == played
    _, stored_end = commit(stored, 1)
    _, played_end = commit(played, 1)
    assert stored_end == played_end and stored_end.pieces(TONGA, 0)["band"] == 4
