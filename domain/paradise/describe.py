"""Conquest of Paradise's events in words: one clause per event, one sentence per command.

    "Ann moves 2 pieces 5,6 → 4,7; Ann turns the transport at 4,7 face up"

Hexes are written "column,row", as the map and the move buttons name them. An event's secret is
read only when present, that is when the viewer who got the events may know it: a seat reads
its own build orders, every other viewer that an order was given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain import history_words
from domain.game_module import GameWords
from domain.paradise import rules_page
from domain.paradise.explain import explain

Who = Callable[[Any], str]
Clause = Callable[[Who, Mapping[str, Any], Mapping[str, Any]], str]

QUIET = frozenset({"PhaseStarted", "MovementEnded", "BuildCommitted", "MalariaArmed", "ExpeditionStarted"})
"""Events whose clause is left out when the command says anything else."""
PHASES = {
    "start": "the setting up",
    "order": "choosing the order",
    "explore": "exploration",
    "move": "movement",
    "build": "building",
    "victory": "claiming victory",
    "ended": "the end",
}
KUMARA = {
    "lost": "the voyage is lost",
    "return": "the voyage turns back",
    "disrupted": "the voyage is disrupted",
    "explore": "the voyage sails on",
}


def hex_name(value: Any) -> str:
    """A hex as the map names it: "column,row"."""
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"{value[0]},{value[1]}"
    return "an unknown hex"


def _noun(kind: Any, n: int = 1) -> str:
    word = str(kind).replace("_", " ")
    return word if n == 1 else f"{word}s" if not word.endswith("s") else word


def pieces(counts: Any) -> str:
    """ "2 war canoes and a band", from {kind: n}; "nothing" when empty."""
    if not isinstance(counts, Mapping):
        return "nothing"
    said = [
        f"{'a' if n == 1 else n} {_noun(k, n)}" for k, n in counts.items() if isinstance(n, int) and n > 0
    ]
    return history_words.listed(said) or "nothing"


def _moved(who: Who, d: Mapping[str, Any], s: Mapping[str, Any]) -> str:
    count = d.get("count")
    what = pieces(s.get("pieces")) if s.get("pieces") else f"{count} piece{'' if count == 1 else 's'}"
    verb = "transits" if d.get("how") == "transit" else "moves"
    route = " → ".join(hex_name(h) for h in d.get("path") or [])
    stops = [st for st in d.get("stops") or [] if isinstance(st, Mapping)]
    landed = sum(int(st.get("drop") or 0) for st in stops if isinstance(st.get("drop"), int))
    boarded = sum(int(st.get("take") or 0) for st in stops if isinstance(st.get("take"), int))
    extra = [f"{landed} put ashore"] if landed else []
    extra += [f"{boarded} taken aboard"] if boarded else []
    return f"{who(d.get('seat'))} {verb} {what} {route}" + (f" ({', '.join(extra)})" if extra else "")


def _chit(who: Who, d: Mapping[str, Any], s: Mapping[str, Any]) -> str:
    if d.get("chit") is None and "chit" in d:
        return f"{who(d.get('seat'))}'s explorer finds the cup empty at {hex_name(d.get('hex'))}"
    kind = str(d.get("kind", "")).replace("_", " ")
    ignored = " (ignored thanks to Navigation)" if d.get("ignored") else ""
    knots = d.get("knots")
    return (
        f"{who(d.get('seat'))}'s explorer draws a{'n' if kind[:1] in 'aeiou' else ''} {kind} chit "
        f"at {hex_name(d.get('hex'))}, {knots} knot{'' if knots == 1 else 's'}{ignored}"
    )


def _tile_found(who: Who, d: Mapping[str, Any], s: Mapping[str, Any]) -> str:
    tile = d.get("tile") or s.get("tile")
    found = f"finds {tile}" if tile else "finds a face-down island tile"
    return f"{who(d.get('seat'))} {found} at {hex_name(d.get('hex'))}"


def _battle(who: Who, d: Mapping[str, Any], s: Mapping[str, Any]) -> str:
    defender = d.get("defender")
    against = "the locals" if defender == -1 else who(defender)
    villages = d.get("villages")
    around = f", with {villages} village{'' if villages == 1 else 's'} at stake" if villages else ""
    return f"battle at {hex_name(d.get('hex'))}: {who(d.get('attacker'))} attacks {against}{around}"


def _side(d: Mapping[str, Any], key: str) -> str:
    value = d.get(key)
    return {0: "the attacker", 1: "the defender"}.get(value, "nobody") if isinstance(value, int) else "nobody"


def _hit(who: Who, d: Mapping[str, Any], s: Mapping[str, Any]) -> str:
    how = "panics" if d.get("how") == "panicked" else "is lost"
    return f"{_side(d, 'side')}'s {_noun(d.get('piece'))} {how}"


def _retreated(who: Who, d: Mapping[str, Any], s: Mapping[str, Any]) -> str:
    to = d.get("to")
    where = f"to {hex_name(to)}" if to else "with nowhere to go, and the pieces are lost"
    return f"{who(d.get('seat'))} retreats {pieces(d.get('pieces'))} from {hex_name(d.get('hex'))} {where}"


def _conquered(who: Who, d: Mapping[str, Any], s: Mapping[str, Any]) -> str:
    given = pieces(d.get("given"))
    saved = d.get("saved") or 0
    keeps = f"; {saved} village{'' if saved == 1 else 's'} saved by giving up {given}" if saved else ""
    return f"{who(d.get('seat'))} conquers the island group at {hex_name(d.get('hex'))}{keeps}"


def _build_ordered(who: Who, d: Mapping[str, Any], s: Mapping[str, Any]) -> str:
    item = s.get("item")
    if not item:
        return f"{who(d.get('seat'))} gives a secret build order"
    where = f" at {hex_name(s['hex'])}" if s.get("hex") else ""
    return (
        f"{who(d.get('seat'))} orders {'a' if item not in ('rotate', 'save') else 'to'} {_noun(item)}{where}"
    )


def _build_revealed(who: Who, d: Mapping[str, Any], s: Mapping[str, Any]) -> str:
    said = [f"{n} piece{'' if n == 1 else 's'} at {at}" for at, n in (d.get("placed") or {}).items() if n]
    said += [f"a village at {hex_name(h)}" for h in d.get("villages") or []]
    said += [f"a settlement at {hex_name(h)}" for h in d.get("settled") or []]
    said += [f"agriculture at {hex_name(h)}" for h in d.get("agriculture") or []]
    cards = d.get("cards") or 0
    said += [f"{cards} card{'' if cards == 1 else 's'}"] if cards else []
    said += ["rotates the villages"] if d.get("rotate") else []
    said += ["saves resources"] if d.get("save") else []
    void = len(d.get("void") or [])
    said += [f"{void} order{'' if void == 1 else 's'} void"] if void else []
    return f"{who(d.get('seat'))} builds " + (history_words.listed(said) or "nothing")


def _victory(who: Who, d: Mapping[str, Any], s: Mapping[str, Any]) -> str:
    seats = [who(seat) for seat in d.get("seats") or []]
    return f"{history_words.listed(seats) or 'nobody'} claim{'s' if len(seats) == 1 else ''} victory"


def _ended(who: Who, d: Mapping[str, Any], s: Mapping[str, Any]) -> str:
    winners = [who(w) for w in d.get("winners") or []]
    headline = (
        "nobody wins"
        if not winners
        else f"{winners[0]} wins"
        if len(winners) == 1
        else f"{history_words.listed(winners)} share the win"
    )
    why = {"target": "on reaching the victory points", "last_turn": "after the last turn"}.get(
        str(d.get("reason")), ""
    )
    totals = ", ".join(f"{who(n)} {vp} VP" for n, vp in enumerate(d.get("totals") or []))
    return f"game over{' ' + why if why else ''}: {headline} ({totals})"


CLAUSES: dict[str, Clause] = {
    "GameCreated": lambda who, d, s: history_words.game_created("Conquest of Paradise")(who, d),
    "SetupDrawn": lambda who, d, s: "the home islands are dealt",
    "TurnStarted": lambda who, d, s: f"turn {d.get('turn')} begins",
    "PhaseStarted": lambda who, d, s: f"{PHASES.get(str(d.get('phase')), 'the next phase')} begins",
    "OrderChosen": lambda who, d, s: (
        f"{who(d.get('seat'))} chooses the order: {who(d.get('first'))} first, "
        + ("clockwise" if d.get("clockwise") else "counter-clockwise")
    ),
    "MalariaArmed": lambda who, d, s: "malaria threatens the explorers",
    "MalariaStruck": lambda who, d, s: (
        f"malaria strikes {who(d.get('seat'))}'s explorer at {hex_name(d.get('hex'))}"
        f" (rolled {d.get('roll')})"
        if d.get("seat") is not None
        else f"malaria spares the explorers (rolled {d.get('roll')})"
    ),
    "ExpeditionStarted": lambda who, d, s: f"{who(d.get('seat'))} sets out to explore",
    "ExplorerEntered": lambda who, d, s: (
        f"{who(d.get('seat'))}'s explorer sails "
        + (f"from {hex_name(d['from'])} " if d.get("from") else "")
        + f"to {hex_name(d.get('hex'))}"
        + (f", losing {d['penalty']} knots" if d.get("penalty") else "")
    ),
    "ChitDrawn": _chit,
    "VoyageRedirected": lambda who, d, s: (
        f"{who(d.get('seat'))} sends {who(d.get('explorer'))}'s explorer to {hex_name(d.get('hex'))}"
    ),
    "TileFound": _tile_found,
    "TileExamined": lambda who, d, s: (
        f"{who(d.get('seat'))} looks at the tile at {hex_name(d.get('hex'))}"
        + (f": {s['tile']}" if s.get("tile") else "")
    ),
    "TileRevealed": lambda who, d, s: f"the tile at {hex_name(d.get('hex'))} is turned up: {d.get('tile')}",
    "ExplorerReturned": lambda who, d, s: (
        f"{who(d.get('seat'))}'s explorer comes home ({d.get('knots')} knots)"
    ),
    "ExplorerLost": lambda who, d, s: (
        f"{who(d.get('seat'))}'s explorer is lost at sea ({d.get('knots')} knots)"
    ),
    "ExplorerRecovered": lambda who, d, s: f"{who(d.get('seat'))} has a new explorer",
    "KumaraSought": lambda who, d, s: (
        f"{who(d.get('seat'))} sails for South America from {hex_name(d.get('hex'))}"
    ),
    "KumaraRolled": lambda who, d, s: (
        f"{who(d.get('seat'))} rolls {d.get('die')}: {KUMARA.get(str(d.get('result')), 'the voyage goes on')}"
    ),
    "KumaraStepped": lambda who, d, s: f"{who(d.get('seat'))}'s voyage reaches {hex_name(d.get('hex'))}",
    "KumaraFound": lambda who, d, s: f"{who(d.get('seat'))} brings the kumara home from South America",
    "SouthIslandPlaced": lambda who, d, s: (
        f"the South Island lies at {hex_name(d['hex'])}"
        if d.get("hex")
        else "the South Island finds no place"
    ),
    "PiecesMoved": _moved,
    "TransportFlipped": lambda who, d, s: (
        f"{who(d.get('seat'))} turns the transport at {hex_name(d.get('hex'))} "
        + ("face up" if d.get("shown") else "face down")
    ),
    "MovementEnded": lambda who, d, s: f"{who(d.get('seat'))} ends the movement",
    "BattleStarted": _battle,
    "DieRolled": lambda who, d, s: f"a die at {hex_name(d.get('hex'))} rolls {d.get('die')}",
    "PieceHit": _hit,
    "CardUsed": lambda who, d, s: (
        f"{who(d.get('seat')) if d.get('seat') != -1 else 'the locals'} "
        + (f"play {d.get('card')}" if d.get("seat") == -1 else f"plays {d.get('card')}")
    ),
    "CardAnswered": lambda who, d, s: (
        f"{who(d.get('seat'))} {'answers with' if d.get('use') else 'does not answer with'} {d.get('card')}"
    ),
    "BattleEnded": lambda who, d, s: f"{_side(d, 'winner')} wins the battle at {hex_name(d.get('hex'))}",
    "RetreatRequired": lambda who, d, s: (
        f"{who(d.get('seat'))} must retreat {pieces(d.get('pieces'))} from {hex_name(d.get('hex'))}"
    ),
    "Retreated": _retreated,
    "SavingOffered": lambda who, d, s: (
        f"{who(d.get('seat'))} may save villages at {hex_name(d.get('hex'))}"
        " by giving up war canoes and bands"
    ),
    "GroupConquered": _conquered,
    "BaseMoved": lambda who, d, s: (
        f"{who(d.get('seat'))}'s base moves to {hex_name(d['hex'])}"
        if d.get("hex")
        else f"{who(d.get('seat'))} has no base left"
    ),
    "BattleOver": lambda who, d, s: (
        f"the fighting at {hex_name(d.get('hex'))} is over"
        + (f": {_side(d, 'winner')} holds it" if d.get("winner") is not None else "")
        + (f"; {pieces(d['lost'])} lost at sea" if d.get("lost") and pieces(d["lost"]) != "nothing" else "")
    ),
    "BuildOrdered": _build_ordered,
    "BuildCommitted": lambda who, d, s: f"{who(d.get('seat'))} commits the build orders",
    "BuildRevealed": _build_revealed,
    "CardDrawn": lambda who, d, s: (
        f"{who(d.get('seat'))} draws " + (str(s["card"]) if s.get("card") else "a card")
    ),
    "CardRevealed": lambda who, d, s: f"{who(d.get('seat'))} shows {d.get('card')}",
    "VictoryClaimed": _victory,
    "DeforestationOffered": lambda who, d, s: (
        f"{who(d.get('seat'))} may play Severe Deforestation against "
        + (history_words.listed([who(t) for t in d.get("targets") or []]) or "nobody")
    ),
    "DeforestationAnswered": lambda who, d, s: (
        f"{who(d.get('seat'))} plays Severe Deforestation against {who(d['target'])}"
        if d.get("target") is not None
        else f"{who(d.get('seat'))} keeps the Severe Deforestation card"
    ),
    "GameEnded": _ended,
}


def describe(events: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    """One sentence for the events of one command, as the viewer who got them may read them."""

    who = history_words.speaker(names)

    clauses = []
    for event in events:
        kind, data = str(event.get("type", "")), event.get("data") or {}
        hidden = event.get("secret")
        secret: Mapping[str, Any] = hidden if isinstance(hidden, Mapping) else {}
        clause = CLAUSES.get(kind)
        if clause is not None:
            text = clause(who, data, secret)
        elif kind in history_words.CLAUSES:
            text = history_words.CLAUSES[kind](who, data)
        else:
            text = history_words.spoken(kind)
        clauses.append((text, kind in QUIET))
    spoken = [text for text, quiet in clauses if not quiet] or [text for text, _ in clauses]
    sentence = "; ".join(spoken)
    return sentence[:1].upper() + sentence[1:]


# --- commands as the play page's buttons say them -------------------------------------------
# Hexes are "col,row", as the map's hooks name them; a named place is its name.

TITLE = "Conquest of Paradise"
ORDER_PHRASES = {"rotate": "rotate your villages", "save": "save a build point"}


def said_hex(at: Any) -> str:
    """A hex as the map's hooks name it, "col,row"; a named place as its name."""
    if isinstance(at, list | tuple) and len(at) == 2:
        return f"{at[0]},{at[1]}"
    return str(at).replace("_", " ")


def _pieces(command: Mapping[str, Any]) -> str:
    pieces = command.get("pieces") or {}
    return ", ".join(f"{n} {kind.replace('_', ' ')}" for kind, n in sorted(pieces.items()) if n)


def _route(command: Mapping[str, Any]) -> str:
    """A Move's path, each stop's passengers after its hex: "4,6 → 5,6 (ashore 1 colony) → 5,7"."""
    stops = {s.get("at"): s for s in command.get("stops") or () if isinstance(s, Mapping)}
    hexes = []
    for n, at in enumerate(command.get("path") or ()):
        stop = stops.get(n)
        said = [
            f"{word} {_pieces({'pieces': stop.get(key)})}"
            for key, word in (("drop", "ashore"), ("take", "aboard"))
            if stop is not None and stop.get(key)
        ]
        hexes.append(said_hex(at) + (f" ({', '.join(said)})" if said else ""))
    return " → ".join(hexes)


def order_words(order: Mapping[str, Any]) -> str:
    """One build order as the build form says it."""
    item = str(order.get("item"))
    if item in ORDER_PHRASES:
        return ORDER_PHRASES[item]
    return item.replace("_", " ") + (f" at {said_hex(order.get('hex'))}" if order.get("hex") else "")


def _named(names: Sequence[str], seat: Any) -> str:
    return history_words.seat_named(names, seat)


COMMAND_WORDS: Mapping[str, Callable[[Mapping[str, Any], Sequence[str]], str]] = {
    "ChooseOrder": lambda c, n: (
        f"{_named(n, c.get('first'))} plays first, "
        + ("clockwise" if c.get("clockwise") else "counter-clockwise")
    ),
    "Explore": lambda c, n: f"Explore {said_hex(c.get('hex'))}",
    "SeekKumara": lambda c, n: f"Sail for South America from {said_hex(c.get('hex'))}",
    "KumaraStep": lambda c, n: f"Sail on to {said_hex(c.get('hex'))}",
    "EndExploration": lambda c, n: "Bring the explorer home",
    "Redirect": lambda c, n: f"Send the disrupted voyage to {said_hex(c.get('hex'))}",
    "RevealTile": lambda c, n: f"Turn the tile at {said_hex(c.get('hex'))} face up",
    "RevealCard": lambda c, n: f"Show {c.get('card')}",
    "Transit": lambda c, n: f"Transit {_pieces(c)} {' → '.join(said_hex(h) for h in c.get('path') or ())}",
    "Move": lambda c, n: f"Move {_pieces(c)} {_route(c)}",
    "FlipTransport": lambda c, n: f"Turn the transport at {said_hex(c.get('hex'))} over",
    "EndMovement": lambda c, n: "End your movement",
    "Fight": lambda c, n: f"Fight {_named(n, c.get('defender'))} at {said_hex(c.get('hex'))}",
    "Lose": lambda c, n: f"Lose a {str(c.get('piece')).replace('_', ' ')}",
    "UseCard": lambda c, n: "Play the card" if c.get("use") else "Pass (play no card)",
    "SaveVillages": lambda c, n: f"Give up {c.get('war_canoes')} war canoes and {c.get('bands')} bands",
    "EndBuild": lambda c, n: (
        "Commit your build orders: " + "; ".join(order_words(o) for o in c["orders"])
        if c.get("orders")
        else "Commit no build orders"
    ),
    "Deforest": lambda c, n: (
        "Pass (play no card)"
        if c.get("target") is None
        else f"Severe Deforestation against {_named(n, c.get('target'))}"
    ),
}

WORDS = GameWords(
    title=TITLE,
    commands=COMMAND_WORDS,
    parts={"orders": order_words},
    explain=explain,
    rules=rules_page.PAGE,
)
"""What the pages say of Conquest of Paradise besides its events."""
