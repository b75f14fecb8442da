"""The island games in words for players: Kahuna, Arabana-Ikibiti and Arabana-Opodopo.

Written from docs/rules.md and our rulings (shared/rules/island-games.md), which win over
the original texts where they differ."""

from __future__ import annotations

from domain.rules_page import RulesPage, Section

BRIDGES = Section(
    "Cards and bridges",
    (
        "The board is a group of islands joined by dotted lines. Every card names one island.",
        "Play one card naming an island to put one of your bridges on a free line that touches that "
        "island. The lit lines on the board are the ones your chosen card allows.",
        "Two cards naming the islands at the ends of an opponent's bridge (or two cards of the same "
        "island at one end) take that bridge away.",
    ),
)
MAJORITY = Section(
    "Taking an island",
    (
        "An island is yours as soon as you hold more than half of the lines that touch it. You mark "
        "it, and every bridge of your opponent on that island goes back to its owner's supply.",
        "Losing bridges can cost your opponent other islands: an island whose owner no longer holds "
        "more than half of its lines loses its marker, though its bridges stay. One bridge can "
        "change two islands at once, since it touches both of its ends.",
    ),
)

KAHUNA = RulesPage(
    title="Kahuna",
    summary="Two rival priests build bridges between twelve islands. Whoever holds more than half "
    "of an island's bridges takes it; after three scoring rounds the one with more points wins.",
    sections=(
        Section(
            "Setting up",
            (
                "Each player holds three cards; three more lie face up in a row beside the face-down "
                "stack. The first player is chosen when the game is created, or drawn at random.",
            ),
        ),
        BRIDGES,
        Section(
            "Your turn",
            (
                "Play as many cards as you like, one bridge (or one attack) at a time. Then end your "
                "turn by drawing one card, from the face-up row or from the stack.",
                "You may hold at most five cards: with five in hand you may throw away any number "
                "face down just before you draw. When your bridges run out you cannot place any "
                "more, but you can still attack and draw.",
            ),
        ),
        MAJORITY,
        Section(
            "An example",
            (
                "LALE has three lines: to HUNA, to IFFI and to KAHU. A LALE card lets you build on "
                "whichever of them is free.",
                "Say you hold LALE–HUNA and your opponent holds LALE–KAHU. Your second bridge, on "
                "LALE–IFFI, gives you two of LALE's three lines: LALE is yours, and your opponent's "
                "bridge LALE–KAHU is removed at once.",
                "Your opponent could answer with two LALE cards, which take away any of your bridges "
                "touching LALE, or with a LALE and an IFFI card, which take away the bridge between them.",
            ),
        ),
        Section(
            "Scoring rounds",
            (
                "A round ends after the turn in which the last card of the stack is taken; the "
                "cards are then shuffled again and play goes on with the next player.",
                "At the end of the first round the player with more islands scores 1 point, at the "
                "end of the second round 2 points, and at the end of the third the difference "
                "between the two players' islands. The player with more points wins.",
            ),
        ),
    ),
    options={
        "edition": "Which printing of the rules to play. The original is the classic game; the "
        "Thames & Kosmos edition lets a player skip drawing at the end of a turn, gives each "
        "player a last turn, breaks ties on the third scoring, and ends the game early when a "
        "player has no bridge left on the board.",
    },
)

ARABANA_IKIBITI = RulesPage(
    title="Arabana-Ikibiti",
    summary="The sharper cousin of Kahuna for two players: the same islands and bridges, but "
    "every scoring gives the difference in islands, and an attack can put your own bridge in "
    "the gap.",
    variant_of="kahuna",
    sections=(
        BRIDGES,
        Section(
            "What changes from Kahuna",
            (
                "You may not use a card to build a bridge between two islands you already hold.",
                "Taking a bridge away with two cards also puts your own bridge on that line, unless "
                "your opponent holds both of its islands.",
                "You end your turn by drawing; with five cards you must throw away before the draw.",
                "After the last card of the third round each player has one more turn. In the "
                "second and third rounds a player left without any bridge on the board loses at once.",
            ),
        ),
        MAJORITY,
        Section(
            "Scoring",
            (
                "At each of the three scorings the player with more islands scores the difference "
                "between the two counts. The player with more points wins.",
            ),
        ),
    ),
    options={
        "seafarers": "Adds ships: three cards of the islands around a sea space put a ship there. A "
        "ship counts as a bridge on all three islands and gives each of them one more place. A "
        "ship can sail on a turn in which you play no card, and it sinks when it is enclosed.",
        "handicap": "Helps the weaker player: free bridges placed without cards, extra cards, and "
        "a larger hand.",
    },
)

ARABANA_OPODOPO = RulesPage(
    title="Arabana-Opodopo",
    summary="Kahuna's islands for three or four players: more islands, swaps instead of attacks, "
    "and islands that score by how many of their places are still free.",
    variant_of="kahuna",
    sections=(
        Section(
            "Setting up",
            (
                "Each player is dealt four cards, keeps three, and chooses one of them in secret to "
                "lay face up in the row.",
            ),
        ),
        BRIDGES,
        Section(
            "What changes from Kahuna",
            (
                "Two cards naming the ends of another player's bridge swap it for one of yours.",
                "You may draw only while you hold four cards or fewer, and throw away one card face "
                "down at most each turn.",
                "On a large island with every line filled, the player with the most bridges there "
                "(even without more than half) removes a bridge of another player.",
                "Out of bridges, you may move one of your own bridges instead of placing a new one.",
                "Whoever takes an eleventh island wins at once.",
            ),
        ),
        MAJORITY,
        Section(
            "Scoring",
            (
                "The game lasts two rounds. An island scores its owner one point for each of its "
                "places the owner does not occupy, plus one at the big final scoring. Ties go to the "
                "player who finished the final turn first.",
                "For example, a large island with five places held with three of your own bridges "
                "scores 2 at the first scoring and 3 at the final one; held with all five it scores "
                "0, then 1.",
            ),
        ),
    ),
    options={
        "gods": "The Power of the Gods: sixteen god stones lie on the islands. The first player to "
        "take an island takes its stone. Kane scores points at once; the other gods (Kanaloa the "
        "joker, Ku who looks into a hand, Pele who takes cards, Lono who draws an extra card) "
        "work in the second round only.",
    },
)

PAGES = {"kahuna": KAHUNA, "arabana-ikibiti": ARABANA_IKIBITI, "arabana-opodopo": ARABANA_OPODOPO}
