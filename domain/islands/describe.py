"""Human descriptions of the island games' events: one English sentence per command.

Pure: the input is the events of one command as one viewer may see them (dicts with `type`,
`data` and, when readable, `secret`), plus the seats' names. A secret the viewer may not read
is absent or null, so a description never tells what the viewer may not know:

    "Ana plays LALE: bridge LALE–IFFI; Ana takes LALE; Ben's bridge LALE–KAHU is removed"
    "Ben draws from the stack"        (the same event, revealed: "Ben draws LALE from the stack")
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain import history_words
from domain.game_module import GameWords
from domain.islands import rules_page
from domain.islands.explain import explainer

TITLES = {"kahuna": "Kahuna", "arabana-ikibiti": "Arabana-Ikibiti", "arabana-opodopo": "Arabana-Opodopo"}
QUIET = frozenset({"TurnEnded", "ChoiceResolved"})
"""Events whose clause is left out when the command says anything else."""

EventDict = Mapping[str, Any]


@dataclass
class Context:
    """The seats' names, and what an earlier clause of the same command already told."""

    names: Sequence[str]
    told_placement: set[tuple[int, tuple[str, ...]]] = field(default_factory=set)

    def name(self, seat: Any) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.names):
            return str(self.names[seat])
        return "the system" if seat is None else f"seat {seat}"

    def owner(self, seat: Any) -> str:
        return f"{self.name(seat)}'s"


def describe(events: Sequence[EventDict], names: Sequence[str]) -> str:
    """One sentence for the events of one command, as the viewer who got them may read them."""
    context = Context(names)
    clauses: list[tuple[str, bool]] = []
    index = 0
    while index < len(events):
        text, used = _merged(context, events, index)
        if text is None:
            event = events[index]
            text, used = describe_event(event, context), 1
        quiet = used == 1 and events[index].get("type") in QUIET
        if text:
            clauses.append((text, quiet))
        index += used
    spoken = [text for text, quiet in clauses if not quiet] or [text for text, _ in clauses]
    return _capitalized("; ".join(spoken))


def describe_event(event: EventDict, context: Context | Sequence[str]) -> str:
    """The clause of one event; a generic one for a type this module does not know."""
    if not isinstance(context, Context):
        context = Context(context)
    kind = str(event.get("type", ""))
    data = event.get("data") or {}
    secret = event.get("secret") or None
    describer = DESCRIBERS.get(kind)
    if describer is None:
        return _generic(kind, data)
    return describer(context, data, secret)


# --- clauses that merge several events of one command -----------------------------------------


def _merged(context: Context, events: Sequence[EventDict], index: int) -> tuple[str | None, int]:
    """A clause for a card play and what it does (bridge, removal, ship), and how many it used."""
    event = events[index]
    kind, data = event.get("type"), event.get("data") or {}
    after = list(events[index + 1 :])
    if kind == "GodUsed" and data.get("god") == "Kanaloa" and after:
        nxt = after[0]
        if nxt.get("type") == "BridgePlaced":
            line = _line(nxt["data"]["line"])
            return f"{context.name(data.get('seat'))} uses Kanaloa: bridge {line}", 2
        if nxt.get("type") == "CardsPlayed":
            text, used = _play(context, nxt, after[1:], joker=True)
            return text, used + 1
    if kind == "CardsPlayed":
        return _play(context, event, after)
    return None, 1


def _play(
    context: Context, played: EventDict, after: Sequence[EventDict], joker: bool = False
) -> tuple[str, int]:
    data = played["data"]
    seat, cards = data.get("seat"), list(data.get("cards", []))
    who = context.name(seat)
    shown = _cards(cards) + (" and Kanaloa" if joker else "")
    nxt = after[0] if after else {}
    kind, info = nxt.get("type"), nxt.get("data") or {}
    if kind == "BridgePlaced":
        first = cards[0] if len(cards) == 1 else None
        return f"{who} plays {shown}: bridge {_line(info['line'], first)}", 2
    if kind == "BridgeRemoved" and info.get("cause") == "attack":
        owner = context.owner(info.get("seat"))
        return f"{who} plays {shown} and removes {owner} bridge {_line(info['line'])}", 2
    if kind == "BridgeRemoved" and info.get("cause") == "taken_back":
        return _moved_by_card(context, who, shown, info, after[1:], cards[0]), 2
    if kind == "BridgeRemoved" and info.get("cause") == "swap":
        context.told_placement.add((seat, tuple(info["line"])))
        owner = context.owner(info.get("seat"))
        return f"{who} plays {shown} and replaces {owner} bridge {_line(info['line'])} by {who}'s own", 2
    sunk = [e for e in after[:1] if e.get("type") == "ShipSunk" and e["data"].get("cause") == "placed_on"]
    rest = after[len(sunk) :]
    if rest and rest[0].get("type") == "ShipPlaced":
        text = f"{who} plays {shown}: ship on {_sea(rest[0]['data']['sea'])}"
        if sunk:
            text += f", sinking {context.owner(sunk[0]['data'].get('seat'))} ship there"
        return text, 2 + len(sunk)
    if len(cards) == 1:
        return f"{who} plays {shown} without placing a bridge", 1
    return f"{who} plays {shown}", 1


def _moved_by_card(
    context: Context,
    who: str,
    shown: str,
    removed: Mapping[str, Any],
    later: Sequence[EventDict],
    card: str,
) -> str:
    """O-11: the card's placement takes the bridge back first; its BridgePlaced is told here."""
    seat, back = removed.get("seat"), _line(removed["line"])
    placed = next(
        (e["data"] for e in later if e.get("type") == "BridgePlaced" and e["data"].get("seat") == seat), None
    )
    if placed is None:
        return f"{who} plays {shown} and takes back the bridge {back}"
    context.told_placement.add((placed["seat"], tuple(placed["line"])))
    return f"{who} plays {shown}: bridge {back} taken back and placed on {_line(placed['line'], card)}"


# --- one clause per event -------------------------------------------------------------------


Describer = Callable[[Context, Mapping[str, Any], Mapping[str, Any] | None], str]


def _game_created(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    names = [str(seat.get("name", "?")) for seat in d.get("seats", [])]
    title = TITLES.get(str(d.get("game")), str(d.get("game")))
    options = _options(d.get("options") or {}, names)
    mode = " (tournament)" if d.get("mode") == "tournament" else ""
    first = d.get("first_seat")
    starts = f"; {names[first]} starts" if isinstance(first, int) and 0 <= first < len(names) else ""
    return f"new game of {title} for {_listed(names)}{options}{mode}{starts}"


def _options(options: Mapping[str, Any], names: Sequence[str]) -> str:
    said = []
    if options.get("edition") == "thames-kosmos":
        said.append("the Thames & Kosmos edition")
    if options.get("seafarers"):
        said.append("the seafarers")
    if options.get("gods"):
        said.append("the Power of the Gods")
    handicap = options.get("handicap")
    if isinstance(handicap, Mapping):
        seat = handicap.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "a seat"
        said.append(f"a handicap for {who}")
    return f", with {_listed(said)}" if said else ""


def _deck_shuffled(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"the {d.get('size', '?')} cards are shuffled for round {d.get('round', '?')}"


def _hand_dealt(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    who = c.name(d.get("seat"))
    if s and "cards" in s:
        return f"{who} is dealt {_listed(s['cards'])}"
    return f"{who} is dealt {_count(d.get('count', 0), 'card')}"


def _face_up_laid(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    cards = list(d.get("cards", []))
    if not cards:
        return "no card is laid face up"
    return f"{_listed(cards)} {'is' if len(cards) == 1 else 'are'} laid face up"


def _choosing_started(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return "each player chooses one card to lay face up"


def _face_up_chosen(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    who = c.name(d.get("seat"))
    if s and "card" in s:
        return f"{who} chooses {s['card']} to lay face up"
    return f"{who} chooses a card to lay face up"


def _face_up_revealed(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    chosen = [f"{c.name(seat)} {card}" for seat, card in enumerate(d.get("cards", []))]
    return f"the chosen cards are turned up: {', '.join(chosen)}"


def _gods_placed(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    by_god: dict[str, list[str]] = {}
    for island, god in sorted(d.get("stones", {}).items()):
        by_god.setdefault(str(god), []).append(str(island))
    laid = "; ".join(f"{god} on {_listed(islands)}" for god, islands in sorted(by_god.items()))
    return f"the god stones are laid out: {laid}"


def _round_started(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"round {d.get('round', '?')} begins; {c.name(d.get('first'))} starts"


def _cards_played(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"{c.name(d.get('seat'))} plays {_cards(list(d.get('cards', [])))}"


def _bridge_placed(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    seat, line = d.get("seat"), tuple(d.get("line", ()))
    if (seat, line) in c.told_placement:
        c.told_placement.discard((seat, line))
        return ""
    free = "a free bridge" if d.get("free") else "a bridge"
    return f"{c.name(seat)} places {free} on {_line(line)}"


def _bridge_removed(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    owner, line, by = d.get("seat"), _line(d.get("line", ())), c.name(d.get("by"))
    cause = d.get("cause")
    if cause == "attack":
        return f"{by} removes {c.owner(owner)} bridge {line}"
    if cause == "swap":
        return f"{by} replaces {c.owner(owner)} bridge {line}"
    if cause == "taken_back":
        return f"{c.name(owner)} takes back the bridge {line}"
    if cause == "relative_majority":
        return f"{c.owner(owner)} bridge {line} is removed (relative majority)"
    return f"{c.owner(owner)} bridge {line} is removed"


def _island_taken(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"{c.name(d.get('seat'))} takes {d.get('island')}"


def _island_lost(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"{c.name(d.get('seat'))} loses {d.get('island')}"


def _ship_placed(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"{c.name(d.get('seat'))} places a ship on {_sea(d.get('sea', ()))}"


def _ship_moved(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"{c.name(d.get('seat'))} moves a ship from {_sea(d.get('from', ()))} to {_sea(d.get('to', ()))}"


def _ship_sunk(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    ship = f"{c.owner(d.get('seat'))} ship on {_sea(d.get('sea', ()))}"
    cause = d.get("cause")
    if cause == "enclosed":
        return f"{ship} is enclosed by {c.owner(d.get('by'))} bridges and sinks"
    if cause == "collision":
        return f"{ship} sinks in the collision"
    return f"{ship} is sunk"


def _cards_discarded(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    who = c.name(d.get("seat"))
    if s and "cards" in s:
        return f"{who} discards {_listed(s['cards'])} face down"
    return f"{who} discards {_count(d.get('count', 0), 'card')} face down"


def _card_drawn(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    who = c.name(d.get("seat"))
    if d.get("source") == "face_up":
        return f"{who} takes face-up {d.get('card')}"
    if s and "card" in s:
        return f"{who} draws {s['card']} from the stack"
    return f"{who} draws from the stack"


def _face_up_refilled(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"{d.get('card')} is turned face up"


def _draw_skipped(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"{c.name(d.get('seat'))} does not draw"


def _turn_ended(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"{c.name(d.get('seat'))} ends the turn; {c.name(d.get('next'))} is next"


def _final_turns_started(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"final turns, in this order: {_listed([c.name(x) for x in d.get('order', [])])}"


def _final_turn_deferred(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    order = _listed([c.name(x) for x in d.get("order", [])])
    return f"{c.name(d.get('seat'))} defers the final turn; the order is now {order}"


def _final_turn_finished(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"{c.name(d.get('seat'))} ends the final turn"


def _choice_required(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    who, kind = c.name(d.get("seat")), d.get("kind")
    if kind == "relative_majority":
        return f"{who} chooses which bridge to remove on {d.get('island')} (relative majority)"
    if kind == "ku":
        return f"{who} chooses a card to take from {c.owner(d.get('target'))} hand"
    if kind == "pele_draw":
        return f"a card is drawn at random from each of {c.owner(d.get('seat'))} opponents"
    if kind == "pele_return":
        victims = _listed([c.name(v) for v in d.get("options", [])])
        return f"{who} chooses a card to give back to {victims or 'each opponent'}"
    return f"{who} must choose ({kind})"


def _choice_resolved(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"{c.owner(d.get('seat'))} choice is made"


def _god_taken(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"{c.name(d.get('seat'))} takes the {d.get('god')} stone of {d.get('island')}"


def _god_used(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"{c.name(d.get('seat'))} uses {d.get('god')}"


def _kane_scored(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"Kane gives {c.name(d.get('seat'))} {_count(d.get('points', 0), 'point')} for {d.get('island')}"


def _hand_shown(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    looks = f"{c.name(d.get('seat'))} looks at {c.owner(d.get('target'))} hand"
    return f"{looks}: {_listed(s['cards'])}" if s and "cards" in s else looks


def _card_taken(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    who, source = c.name(d.get("seat")), c.owner(d.get("from"))
    card = s["card"] if s and "card" in s else ("a random card" if d.get("how") == "pele" else "a card")
    return f"{who} takes {card} from {source} hand"


def _card_given(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    card = s["card"] if s and "card" in s else "a card"
    return f"{c.name(d.get('seat'))} gives {c.name(d.get('to'))} {card}"


def _round_ended(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    return f"round {d.get('round', '?')} ends"


def _round_scored(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    islands, points, totals = d.get("islands", []), d.get("points", []), d.get("totals", [])
    each = [
        f"{c.name(seat)} {_count(n, 'island')} +{p} = {t}"
        for seat, (n, p, t) in enumerate(zip(islands, points, totals, strict=False))
    ]
    return f"round {d.get('round', '?')} is scored: {', '.join(each)}"


def _game_ended(c: Context, d: Mapping[str, Any], s: Mapping[str, Any] | None) -> str:
    winner, totals, reason = d.get("winner"), list(d.get("totals", [])), d.get("reason")
    scores = ", ".join(f"{c.name(seat)} {t}" for seat, t in enumerate(totals))
    if reason == "eleventh_island":
        text = f"{c.name(winner)} takes an eleventh island and wins at once"
    elif reason == "premature":
        text = f"a player has no bridge left in round {d.get('round', '?')}: "
        text += f"{c.name(winner)} wins early" if winner is not None else "the game ends early"
    elif winner is None:
        text = "the game ends in a draw"
    else:
        text = f"{c.name(winner)} wins"
    text += f" ({scores})" if scores else ""
    tournament = d.get("tournament")
    if isinstance(tournament, Mapping) and "points" in tournament:
        text += f"; tournament points {':'.join(str(p) for p in tournament['points'])}"
    return text


# --- undo and takebacks (domain/undo.py): the platform's words -----------------------------


def _history(kind: str) -> Describer:
    return lambda c, d, s: history_words.CLAUSES[kind](c.name, d)


DESCRIBERS: dict[str, Describer] = {
    "GameCreated": _game_created,
    "DeckShuffled": _deck_shuffled,
    "HandDealt": _hand_dealt,
    "FaceUpLaid": _face_up_laid,
    "ChoosingStarted": _choosing_started,
    "FaceUpChosen": _face_up_chosen,
    "FaceUpRevealed": _face_up_revealed,
    "GodsPlaced": _gods_placed,
    "RoundStarted": _round_started,
    "CardsPlayed": _cards_played,
    "BridgePlaced": _bridge_placed,
    "BridgeRemoved": _bridge_removed,
    "IslandTaken": _island_taken,
    "IslandLost": _island_lost,
    "ShipPlaced": _ship_placed,
    "ShipMoved": _ship_moved,
    "ShipSunk": _ship_sunk,
    "CardsDiscarded": _cards_discarded,
    "CardDrawn": _card_drawn,
    "FaceUpRefilled": _face_up_refilled,
    "DrawSkipped": _draw_skipped,
    "TurnEnded": _turn_ended,
    "FinalTurnsStarted": _final_turns_started,
    "FinalTurnDeferred": _final_turn_deferred,
    "FinalTurnFinished": _final_turn_finished,
    "ChoiceRequired": _choice_required,
    "ChoiceResolved": _choice_resolved,
    "GodTaken": _god_taken,
    "GodUsed": _god_used,
    "KaneScored": _kane_scored,
    "HandShown": _hand_shown,
    "CardTaken": _card_taken,
    "CardGiven": _card_given,
    "RoundEnded": _round_ended,
    "RoundScored": _round_scored,
    "GameEnded": _game_ended,
    "Undone": _history("Undone"),
    "Corrected": _history("Corrected"),
    "TakebackRequested": _history("TakebackRequested"),
    "TakebackAnswered": _history("TakebackAnswered"),
    "TakebackDeclined": _history("TakebackDeclined"),
}


# --- words -----------------------------------------------------------------------------------


def _line(line: Sequence[str], first: str | None = None) -> str:
    """A bridge line "A–B", with `first` (the card played) named first when it is an end."""
    ends = [str(x) for x in line]
    if first in ends and ends[0] != first:
        ends.reverse()
    return "–".join(ends)


def _sea(sea: Sequence[str]) -> str:
    return "–".join(str(x) for x in sea)


def _cards(cards: Sequence[str]) -> str:
    """Cards as played: "2×LALE", "LALE and KAHU"."""
    counts = Counter(cards)
    return _listed([f"{n}×{card}" if n > 1 else str(card) for card, n in counts.items()])


def _listed(items: Sequence[Any]) -> str:
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _count(n: Any, noun: str) -> str:
    if n == 1:
        return f"a {noun}" if noun != "island" else "1 island"
    return f"{n} {noun}s"


def _generic(kind: str, data: Mapping[str, Any]) -> str:
    """An event of a type unknown here: its name in words, e.g. "something happened"."""
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", kind).lower() or "an event"
    return words


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- commands as the play page's buttons say them -------------------------------------------

DASH = "\u2013"
END_REASONS = {
    "points": "on points",
    "premature": "as a player was left without a bridge on the board",
    "eleventh_island": "by taking the eleventh island",
}


def _said_line(command: Mapping[str, Any], key: str = "line") -> str:
    return DASH.join(command.get(key) or ())


def _said_cards(command: Mapping[str, Any]) -> str:
    return " and ".join(command.get("cards") or ())


def _source(command: Mapping[str, Any]) -> str:
    if command.get("source") == "stack":
        return "from the stack"
    return f"{command.get('card')} from the face-up row"


def _gifts(command: Mapping[str, Any], names: Sequence[str]) -> str:
    gifts = command.get("gifts") or {}
    return "; ".join(
        f"{card} to {history_words.seat_named(names, seat)}" for seat, card in sorted(gifts.items())
    )


COMMAND_WORDS: Mapping[str, Callable[[Mapping[str, Any], Sequence[str]], str]] = {
    "PlaceBridge": lambda c, n: (
        f"Place a bridge on {_said_line(c)} with {c.get('card')}"
        + (f", taking back your bridge {_said_line(c, 'take_back')}" if c.get("take_back") else "")
    ),
    "RemoveBridge": lambda c, n: f"Remove the bridge on {_said_line(c)} with {_said_cards(c)}",
    "SwapBridge": lambda c, n: (
        f"Swap the bridge on {_said_line(c)} for yours with {_said_cards(c)}"
        + (" (Kanaloa)" if c.get("kanaloa") else "")
    ),
    "DrawCard": lambda c, n: f"Draw {_source(c)}",
    "DiscardCards": lambda c, n: f"Discard {_said_cards(c)}",
    "EndTurn": lambda c, n: (
        f"End your turn, discarding {_said_cards(c)}" if c.get("cards") else "End your turn"
    ),
    "SkipDraw": lambda c, n: "Skip drawing",
    "DeferFinalTurn": lambda c, n: "Defer your final turn",
    "ChooseFaceUp": lambda c, n: f"Choose {c.get('card')} to lay face up",
    "PlaceFreeBridge": lambda c, n: f"Place a free bridge on {_said_line(c)}",
    # Always refused now (a take-back is part of a placement), yet a known command type.
    "TakeBackBridge": lambda c, n: f"Take back your bridge on {_said_line(c)}",
    "PlayCard": lambda c, n: f"Play {c.get('card')} to take back a bridge",
    "PlaceShip": lambda c, n: f"Place a ship in the sea of {_said_line(c, 'sea')} with {_said_cards(c)}",
    "MoveShip": lambda c, n: (
        f"Move your ship from the sea of {_said_line(c, 'from')} to {_said_line(c, 'to')}"
    ),
    "UseKanaloa": lambda c, n: f"Kanaloa: place a bridge on {_said_line(c)}",
    "UseKu": lambda c, n: f"Ku: look at {history_words.seat_named(n, c.get('target'))}'s hand",
    "UsePele": lambda c, n: "Pele: every other seat gives you a card",
    "UseLono": lambda c, n: f"Lono: draw {_source(c)}",
    "ChooseRemoval": lambda c, n: f"Remove the bridge on {_said_line(c)}",
    "TakeCard": lambda c, n: f"Take {c.get('card')}",
    "GiveCards": lambda c, n: f"Give {_gifts(c, n)}",
}


def words(game: str) -> GameWords:
    """What the pages say of `game` besides its events."""
    return GameWords(
        title=TITLES[game],
        commands=COMMAND_WORDS,
        end_reasons=END_REASONS,
        explain=explainer(game),
        rules=rules_page.PAGES[game],
    )
