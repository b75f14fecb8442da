"""The notation: written from a game's events as one viewer sees them, read back to the same record."""

from __future__ import annotations

import random
from typing import Any

import pytest

from record.envelope import Envelope
from record.redaction import redact
from replays import notation
from replays.notation import Item, Move, Note, Turn
from tests.replays.play import SETUPS, sealed_game, setup_of

EVERY_MOVE = (
    "1. Ana: +IFFI-LALE(LALE) =LALE xKAHU-LALE(LALE,LALE) ~KAHU/Ben +KAHU-LALE sKAHU-LALE(KAHU,@) "
    "+ALOA-BARI(@) +ALOA-COCO(free) (DUDA) -ALOA-BARI -ALOA-DUDA(DUDA) %BARI-COCO "
    "&ALOA-BARI-COCO(ALOA,BARI,COCO) "
    "#ALOA-BARI-COCO/Ben &ALOA-BARI-COCO>BARI-COCO-DUDA #BARI-COCO-DUDA =GOLA@Kane+2 =HUNA@Ku/Ben "
    '@Ku(Ben:ALOA,BARI) <Ben:ALOA @Ku("Ben Jr.") <"Ben Jr.":? @Pele >Ben:? >Cai:COCO @Lono <HUNA ^IFFI '
    "d2 d(ALOA,BARI) <? <?JOJO skip defer end"
)


def seen(envelopes: list[Envelope], viewer: int | None, revealed: bool) -> list[dict[str, Any]]:
    """The events as the API gives them to `viewer`, with their command ids."""
    return [{**redact(e, viewer, revealed), "command_id": e.command_id} for e in envelopes]


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_a_random_game_reads_back_as_the_record_it_was_written_from(name: str) -> None:
    envelopes = sealed_game(random.Random(4), setup_of(name))
    for viewer, revealed in ((None, True), (0, False), (None, False)):
        events = seen(envelopes, viewer, revealed)

        text = notation.format(events)

        assert notation.parse(text) == notation.record(events)
        assert notation.render(notation.parse(text)) == text


@pytest.mark.parametrize("name", ["kahuna-later", "opodopo-gods"])
def test_without_command_ids_the_events_read_the_same(name: str) -> None:
    envelopes = sealed_game(random.Random(5), setup_of(name))

    bare = [redact(e, None, True) for e in envelopes]

    assert notation.record(bare) == notation.record(seen(envelopes, None, True))


def test_the_text_opens_with_tag_pairs_then_one_line_per_turn() -> None:
    envelopes = sealed_game(random.Random(2), setup_of("kahuna"))

    record = notation.parse(notation.format(seen(envelopes, None, True), viewer="all"))

    assert record.tag("Game") == "kahuna" and record.tag("Seat1") == "Ana" and record.tag("Seat2") == "Ben"
    assert record.tag("Viewer") == "all" and record.tag("Result") in ("Ana", "Ben", "draw")
    turns = record.turns
    assert [t.number for t in turns] == list(range(1, len(turns) + 1))
    assert all(t.seat in ("Ana", "Ben") for t in turns)
    labels = [line.label for line in record.lines if isinstance(line, Note)]
    assert labels[:2] == ["R1", "R1 score"] and labels[-2:] == ["R3 score", "end"]


def test_every_move_token_reads_and_writes_back_the_same() -> None:
    text = '[Game "kahuna"]\n\n' + EVERY_MOVE + "\n"

    record = notation.parse(text)

    assert notation.render(record) == text
    moves = record.turns[0].moves
    assert {m.kind for m in moves} == {
        "place", "taken", "remove", "lost", "swap", "free", "play", "take_back", "relative", "ship",
        "sunk", "sail", "god", "take_card", "give_card", "draw", "refill", "discard", "stack", "skip",
        "defer", "end",
    }  # fmt: skip
    assert moves[2] == Move("remove", ("KAHU", "LALE"), cards=("LALE", "LALE"))
    assert moves[3] == Move("lost", ("KAHU",), seat="Ben")
    assert Move("taken", ("GOLA",), god="Kane", points=2) in moves
    assert Move("god", god="Ku", seat="Ben Jr.") in moves
    assert Move("take_card", seat="Ben Jr.") in moves
    assert Move("stack") in moves and Move("stack", cards=("JOJO",)) in moves


def test_hidden_cards_show_as_question_marks_for_the_viewer_who_may_not_see_them() -> None:
    envelopes = sealed_game(random.Random(3), setup_of("kahuna"))

    record = notation.record(seen(envelopes, 0, revealed=False))

    deal = record.lines[0]
    assert isinstance(deal, Note) and deal.label == "R1"
    hands = {item.who: item.args for item in deal.items if item.key == "hand"}
    assert hands["Ben"] == ("?3",) and "?" not in "".join(hands["Ana"])
    for turn in record.turns:
        for move in turn.moves:
            if move.kind == "stack":
                assert (move.cards is None) == (turn.seat == "Ben")
            if move.kind == "discard":
                assert (move.cards is None) == (turn.seat == "Ben")


def test_names_that_are_not_one_plain_word_are_quoted() -> None:
    events = [
        {
            "type": "GameCreated",
            "data": {"game": "kahuna", "seats": [{"name": "Ana María"}, {"name": '"B"'}]},
        },
        {"type": "CardDrawn", "actor": "seat:0", "data": {"seat": 0, "source": "face_up", "card": "LALE"}},
        {"type": "IslandLost", "actor": "seat:0", "data": {"seat": 1, "island": "KAHU"}},
        {"type": "TurnEnded", "actor": "seat:0", "data": {"seat": 0, "next": 1}},
    ]

    text = notation.format(events)

    assert '1. "Ana María": <LALE ~KAHU/"\\"B\\""' in text
    assert notation.parse(text) == notation.record(events)


def test_an_undo_goes_back_to_the_turn_number_of_its_version() -> None:
    def event(kind: str, version: int, command: str, **data: Any) -> dict[str, Any]:
        return {"type": kind, "version": version, "actor": "seat:0", "command_id": command, "data": data}

    events = [
        {
            "type": "GameCreated",
            "version": 1,
            "data": {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}]},
        },
        event("CardsPlayed", 2, "c1", seat=0, cards=["LALE"]),
        event("BridgePlaced", 3, "c1", seat=0, line=["IFFI", "LALE"]),
        event("Undone", 4, "c2", to_version=1, requested_by=0, approved_by=[]),
        event("CardDrawn", 5, "c3", seat=0, source="face_up", card="LALE"),
        event("TurnEnded", 6, "c3", seat=0, next=1),
    ]

    record = notation.record(events)

    assert record.lines == (
        Turn(1, "A", (Move("place", ("IFFI", "LALE"), cards=("LALE",)),)),
        Note("undo", (Item("to", ("1",)), Item("by", ("A",)))),
        Turn(1, "A", (Move("draw", ("LALE",)),)),
    )
    assert notation.parse(notation.render(record)) == record


def test_a_line_it_cannot_read_is_named() -> None:
    with pytest.raises(notation.NotationError) as error:
        notation.parse('[Game "kahuna"]\n\n1. Ana: +LALE\n')
    assert error.value.line == 3


def _opodopo_turn(*commands: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """A three-seat Opodopo game's first turn: each command's events, with its command id."""
    seats = [{"name": name} for name in "ABC"]
    created = {"type": "GameCreated", "data": {"game": "arabana-opodopo", "seats": seats}}
    return [created] + [
        {"type": kind, "actor": "seat:0", "data": data, "command_id": f"c{n}"}
        for n, events in enumerate(commands)
        for kind, data in events
    ]


TAKEN_BACK = ("BridgeRemoved", {"seat": 0, "line": ["Barilub", "Elamite"], "by": 0, "cause": "taken_back"})


def test_O11_a_placement_that_takes_a_bridge_back_is_written_as_one_move_with_its_card() -> None:
    events = _opodopo_turn(
        [
            ("CardsPlayed", {"seat": 0, "cards": ["Arabana"]}),
            TAKEN_BACK,
            ("IslandLost", {"seat": 0, "island": "Elamite"}),
            ("BridgePlaced", {"seat": 0, "line": ["Arabana", "Papalua"]}),
        ],
        [("CardDrawn", {"seat": 0, "source": "stack"}), ("TurnEnded", {"seat": 0, "next": 1})],
    )

    text = notation.format(events)

    assert "1. A: -Barilub-Elamite(Arabana) ~Elamite +Arabana-Papalua <?" in text
    assert notation.parse(text) == notation.record(events)
    bare = [{k: v for k, v in e.items() if k != "command_id"} for e in events]
    assert notation.record(bare) == notation.record(events)


def test_O11_a_stored_lone_take_back_after_a_card_played_stays_two_moves() -> None:
    events = _opodopo_turn(
        [("CardsPlayed", {"seat": 0, "cards": ["Arabana"]})],
        [TAKEN_BACK, ("IslandLost", {"seat": 0, "island": "Elamite"})],
        [
            ("CardsPlayed", {"seat": 0, "cards": ["Elamite"]}),
            ("BridgePlaced", {"seat": 0, "line": ["Elamite", "Hunisch"]}),
        ],
    )

    assert "1. A: (Arabana) -Barilub-Elamite ~Elamite +Elamite-Hunisch(Elamite)" in notation.format(events)
