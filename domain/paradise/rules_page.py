"""Conquest of Paradise in words for players.

Written from our adaptation (shared/rules/paradise.md), which sets the map and the tables the
original French text leaves out."""

from __future__ import annotations

from domain.rules_page import RulesPage, Section

ADVANCED = "An advanced rule: "

PARADISE = RulesPage(
    title="Conquest of Paradise",
    summary="Two to four Polynesian peoples explore an unknown ocean, settle island groups, build "
    "villages and fight for them. The first to reach the victory points target wins.",
    sections=(
        Section(
            "The map",
            (
                "The ocean is a map of six-sided hexes. The west is known; the east is covered by "
                "face-down discoveries that reveal islands or open ocean when explored. Each player "
                "starts on a home island with a capital village.",
            ),
        ),
        Section(
            "A turn in five phases",
            (
                "Turn order: the player last on victory points chooses who starts and in which "
                "direction play goes.",
                "Exploration: your explorer sets out from an island you hold and turns over unknown "
                "hexes, as far as the knots it finds allow; a disrupted voyage stops it.",
                "Movement and combat: canoes carry warrior bands and colonies across the sea. "
                "Moving onto an island group held by someone else is an attack, settled by dice; "
                "the defender is helped by local warriors.",
                "Building (all players at once, in secret): spend build points on canoes, warrior "
                "bands, colonies, villages, improved farming and Arts & Culture cards.",
                "Victory: check who has reached the target.",
            ),
        ),
        Section(
            "Victory points",
            (
                "Each village scores 1, your capital included. Each island group you hold and link "
                "to your home by a chain of transport canoes scores 1, an atoll half a point. Arts & "
                "Culture cards add their own points. The target is 28 points with two players, 25 "
                "with three and 22 with four.",
            ),
        ),
    ),
    options={
        "variable_start": ADVANCED + "each player chooses their starting pieces with 4 build points.",
        "saved_resources": ADVANCED + "one unspent build point may be saved for the next turn.",
        "malaria": ADVANCED + "malaria may strike warriors on island groups in the tropics.",
        "south_island": ADVANCED + "the South Island (Te Waka Maui) is set aside and can be found "
        "later in the game.",
        "kumara": ADVANCED + "voyages towards South America may bring back the sweet potato, worth 2 points.",
        "end_shift": "Moves the victory points target up or down by up to 3 points.",
        "last_turn": "Ends the game after this turn, whoever leads.",
    },
)

PAGE = PARADISE
