"""Nanuuk! and its learning games in words for players.

Written from our rulings (shared/rules/nanuuk.md), which win over the original French text."""

from __future__ import annotations

from domain.rules_page import RulesPage, Section

ICE = Section(
    "The ice and its cracks",
    (
        "The board is ice made of six-sided cells. A piece moves one cell at a time, to a "
        "neighbouring cell of ice, and never across a crack. Only one piece stands on a cell, "
        "except on igloos, which hold any number of hunters.",
        "Every move cracks the ice: after a piece enters a cell, its player puts a crack on a free "
        "line of the star around that cell (the lines leaving its corners). When the star is full, "
        "the crack goes on one of the cell's own sides instead; when those are full too, no crack "
        "is made. The lit lines on the board are the ones you may choose. Cracks never close.",
    ),
)
SHUT_IN = (
    "A piece is shut in when it cannot move: every way out is cracked, off the ice, or taken by "
    "another piece."
)


def _learning(title: str, summary: str, paragraphs: tuple[str, ...], options: dict[str, str]) -> RulesPage:
    return RulesPage(
        title=title,
        summary=summary,
        sections=(ICE, Section("How it is played", (*paragraphs, SHUT_IN))),
        options=options,
        variant_of="nanuuk",
    )


BEAR_OPTIONS = {
    "bear_must_move_twice": "The bear may not stop after one cell: it always moves two.",
    "bear_may_stay": "The bear may stay where it is, cracking a line at a corner of its cell.",
}

NANUUK = RulesPage(
    title="Nanuuk!",
    summary="Two to four Inuit hunters cross cracking ice to bring fish, seals, walrus and whales "
    "home to their igloos before the ice breaks up under them.",
    sections=(
        ICE,
        Section(
            "Setting up",
            (
                "Animals, Inuit and bears are spread over the ice at random; the three igloos stay "
                "empty. Each player starts with a hunter carrying a harpoon, and a husky, a sled and "
                "a kayak waiting at the igloo. In turn each player puts their hunter on an igloo.",
            ),
        ),
        Section(
            "Your turn",
            (
                "Move your hunter one cell and crack the ice. Entering a cell with an Inuk, the Inuk "
                "joins you. With your harpoon you may take a fish, a seal or a walrus (one of each "
                "kind at a time), and a whale only with an Inuk along.",
                "To enter a bear's cell you need the harpoon: you chase the bear to any free cell, "
                "and the harpoon stays behind at the igloo until you come back to one.",
                "At an igloo you get your harpoon back and may trade animals for equipment: a fish "
                "for the husky, a seal for the kayak, a walrus for the sled, a whale for all three; "
                "or simply store them.",
                "A carried kayak lets you cross one crack. Husky and sled together give a double "
                "move, each step cracking the ice.",
            ),
        ),
        Section(
            "End and score",
            (
                "A hunter in an igloo may retire there instead of moving. The game ends after a "
                "whole round in which no hunter moved.",
                "Fish score 1, seals 2, walrus 3 and whales 4, carried or stored; a hunter in an "
                "igloo at the end scores 2 more. Ties go to the player carrying more equipment.",
            ),
        ),
    ),
    options={
        "two_hunters": "Two players only: each plays two hunters, on the four-player ice, and the two "
        "start in different igloos.",
        "double_move_cracks": "With husky and sled: a crack after each of the two steps, or the "
        "mover chooses between that and a single crack at the end of the double move.",
        "keep_igloo_reachable": "A crack may not cut a hunter off from every igloo when another "
        "line could be chosen instead.",
        "pre_cracks": "How many cracks are laid at random before the game starts (0 to 30).",
    },
)

LEARNING = _learning(
    "Nanuuk! learning game",
    "The ice alone: hunters move and crack the ice, and whoever is shut in is out.",
    (
        "There are no animals, Inuit or igloos. Players place their hunters in turn on free cells; "
        "with two players each has two hunters.",
        "On your turn you move one hunter one cell and crack the ice. With three or four players a "
        "hunter that cannot move is out and the last player left wins; with two players you lose "
        "when neither of your hunters can move, or one of them is walled in by cracks and the edge.",
    ),
    {},
)
BEAR_HUNT = _learning(
    "Nanuuk! bear hunt",
    "Two Inuit hunt a bear: shut the bear in before it shuts in one of you.",
    (
        "One player is the bear; the others (or one player moving both) play the two Inuit. The "
        "bear moves one or two cells and cracks once, at the end of its move.",
        "The bear wins when an Inuk is shut in; the Inuit win together when the bear is.",
    ),
    {
        "bear_seat": "Which seat plays the bear.",
        "crack_each_step": "The bear cracks the ice after each of its steps, not only at the end.",
        **BEAR_OPTIONS,
        "play_on": "Three players only: after the bear is caught, the two Inuit play on to shut in "
        "each other.",
    },
)
BEAR_FLIGHT = _learning(
    "Nanuuk! bear flight",
    "Two Inuit flee the bears: each turn you move a bear, then your own Inuk.",
    (
        "There are one to three bears. On your turn you first move a bear, with its crack, then "
        "your Inuk, with its crack. The player whose Inuk is shut in loses.",
    ),
    {"bears": "How many bears are on the ice (1 to 3).", **BEAR_OPTIONS},
)
PARTNERS = _learning(
    "Nanuuk! partner game",
    "Four players: trap your partner, since the first player stuck makes their partner the winner.",
    (
        "Players sitting opposite are partners, and each tries to shut in their partner. The "
        "first player who cannot move makes their partner the only winner.",
    ),
    {
        "aim": "Whom each player tries to shut in: the partner opposite, or (the neighbour game) "
        "the player to their right or to their left.",
    },
)
HELPER = _learning(
    "Nanuuk! helper game",
    "Two players, each with a bear and an Inuk: shut in the other player's bear.",
    (
        "In turn each player places their own bear, then the other player's Inuk. On your turn you "
        "move either of your pieces. You win by shutting in the other's bear; a shut-in Inuk does "
        "not lose the game.",
    ),
    {},
)

PAGES = {
    "nanuuk": NANUUK,
    "nanuuk-learning": LEARNING,
    "nanuuk-bear-hunt": BEAR_HUNT,
    "nanuuk-bear-flight": BEAR_FLIGHT,
    "nanuuk-partners": PARTNERS,
    "nanuuk-helper": HELPER,
}
