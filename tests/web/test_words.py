"""The words on the play page's buttons: every command a game knows has its own phrase, in its
module's words (service/web/offered.py says the platform's)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.games import rules_for
from domain.islands.decide import known_commands
from domain.undo import ANSWER_TAKEBACK
from service.web.offered import PLATFORM_WORDS, offered, words

HANDICAP = {"seat": 1, "free_bridges": 1, "extra_cards": 1, "hand_limit": 6}


@pytest.mark.parametrize(
    "game,options",
    [
        ("kahuna", {"edition": "thames-kosmos"}),
        ("arabana-ikibiti", {"seafarers": True, "handicap": HANDICAP}),
        ("arabana-opodopo", {"gods": True}),
    ],
)
def test_every_command_of_every_game_with_every_option_has_a_phrase(
    game: str, options: dict[str, Any]
) -> None:
    seats = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cai"}][: rules_for(game).min_seats]
    state = rules_for(game).initial_state({"game": game, "seats": seats, "first_seat": 0, "options": options})
    _, known = known_commands(state.rules)
    assert known - set(rules_for(game).words.commands) == set()
    assert ANSWER_TAKEBACK in PLATFORM_WORDS


def test_a_command_names_its_cards_line_and_people() -> None:
    names, said = ["Ann", "Ben", "Cai"], rules_for("arabana-opodopo").words
    attack = {"type": "RemoveBridge", "cards": ["ALOA", "BARI"], "line": ["BARI", "ALOA"]}
    gifts = {"type": "GiveCards", "gifts": {"0": "COCO", "2": "DUDA"}}
    assert words(attack, names, said) == "Remove the bridge on BARI\u2013ALOA with ALOA and BARI"
    assert words(gifts, names, said) == "Give COCO to Ann; DUDA to Cai"
    assert words({"type": "Unheard", "x": 1}, names, said) == "Unheard x 1"


def test_a_button_carries_what_a_click_on_a_card_a_line_or_the_row_must_match() -> None:
    said = rules_for("kahuna").words
    place = offered({"type": "PlaceBridge", "card": "COCO", "line": ["KAHU", "COCO"]}, [], said)
    draw = offered({"type": "DrawCard", "source": "face_up", "card": "GOLA"}, [], said)
    assert (place["cards"], place["line"], place["source"]) == ("COCO", "COCO-KAHU", "")
    assert (draw["cards"], draw["source"], draw["drawn"]) == ("", "face_up", "GOLA")


def test_P3_3_a_move_says_what_goes_ashore_and_aboard_at_each_stop() -> None:
    move = {
        "type": "Move",
        "path": [[5, 6], [4, 6], [3, 6]],
        "pieces": {"transport": 1, "colony": 1},
        "stops": [{"at": 1, "drop": {"colony": 1}, "take": {"band": 1}}],
    }
    said = rules_for("conquest-of-paradise").words
    assert (
        words(move, [], said) == "Move 1 colony, 1 transport 5,6 → 4,6 (ashore 1 colony, aboard 1 band) → 3,6"
    )
    assert words({**move, "stops": []}, [], said) == "Move 1 colony, 1 transport 5,6 → 4,6 → 3,6"
