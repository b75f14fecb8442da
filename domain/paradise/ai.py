"""What the computer players need of Conquest of Paradise beyond the rules (domain.game_module.AIHooks).

A search never holds the game's State. `world` rebuilds one from what a seat knows: it
folds the game's live events as that seat may read them, and draws every secret it may not
read, consistently with everything the seat saw later:

- a face-down tile another seat found: the tile the map later shows at that hex (turned up,
  or examined by this seat), else one drawn from the tiles nobody has seen anywhere;
- a card another seat drew: first the cards that seat shows later (each drawn before it is
  shown), else one drawn from the deck less those;
- another seat's pieces moved face down: as many pieces as the event counts, drawn from the
  world's stack they left (with a canoe, and passengers enough for what its stops put ashore);
  at each stop as many passengers as it counts, put ashore from those aboard and taken aboard
  from those unmoved at its hex; a battle's opening shows both stacks and puts the world right;
- another seat's hidden hand at a die roll that hurts it: Haka in it exactly when the game
  asked it to play Haka (a card swapped with the world's deck if need be);
- another seat's build orders: rebuilt at their reveal from what it shows (villages,
  agriculture, cards, rotation, saving, and how many pieces where), the pieces' kinds drawn
  from what that seat has not built; orders not yet revealed are unknown and left out.

The evaluation and the rollouts' move order are in domain/paradise/evaluate.py;
`searched_moves` keeps the search's branching small.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator, Mapping, MutableSequence, Sequence
from typing import Any, Protocol

from domain.decider import Command, Event
from domain.game_module import AIHooks, SearchSettings
from domain.paradise import engine, legal, setup
from domain.paradise.build import on_map
from domain.paradise.evaluate import priors, win_chances
from domain.paradise.map_facts import facts
from domain.paradise.move import PASSENGERS
from domain.paradise.state import (
    Draft,
    Stack,
    State,
    add,
    counts,
    occupied,
    out_of_game,
    replace,
    total,
    with_stack,
)
from domain.paradise.tables import KINDS, PIECES, Hex
from domain.paradise.victory import DEFORESTATION

SeatKnowledge = Any
"""ai.knowledge.SeatKnowledge: the seat, its view, and the live events with their readable secrets."""

MOVES_SEARCHED = 12
"""At most this many Move commands are searched from one state (a spread of the legal ones)."""
SEARCH = SearchSettings(exploration=0.2, prior_visits=5, rollout_commands=0, keep_steps=True)
"""Leaves evaluated as they are: the evaluation weighs what a position promises, and a few
random commands after it add noise more than knowledge; moves differ by a few hundredths of
win chance, so UCB1 explores less than for the island games. Its worlds are a few kept
states (`world`): the search keeps its steps from them."""
WORLDS_KEPT = 16
"""Worlds drawn anew per knowledge; a search's later iterations reuse them (`world`)."""
WORLDS_CACHE = "paradise.worlds"
PREFIX_CACHE = "paradise.prefix"


class Random(Protocol):
    """The little of random.Random a world draw uses; the caller owns the randomness."""

    def shuffle(self, x: MutableSequence[Any]) -> None: ...

    def random(self) -> float: ...

    def choice(self, seq: Sequence[Any]) -> Any: ...


# --- worlds ------------------------------------------------------------------------------------


def _hex(raw: Sequence[int]) -> Hex:
    return int(raw[0]), int(raw[1])


def _known_tiles(knowledge: SeatKnowledge) -> dict[Hex, str]:
    """The tile at each hex the seat can name: turned up, found or examined by it, or in its view."""
    known: dict[Hex, str] = {}
    for (kind, data), secret in zip(knowledge.events, knowledge.secrets, strict=True):
        if kind in ("TileRevealed", "TileFound", "TileExamined"):
            name = data.get("tile") or (secret or {}).get("tile")
            if name:
                known[_hex(data["hex"])] = str(name)
    for island in knowledge.seen.get("islands", []):
        if "name" in island:  # a printed group's name is no tile's, and is never drawn
            known.setdefault(_hex(island["hex"]), str(island["name"]))
    return known


def _card_draws(knowledge: SeatKnowledge) -> dict[int, str]:
    """The card each draw gave, by the event's position: the seat's own as it saw them; for
    another seat's hidden draws, a card it shows (or plays, as Severe Deforestation) that no
    earlier such draw explains came from its latest draw before it."""
    pending: dict[int, list[int]] = {}  # per seat: its hidden draws not yet tied to a card
    held: dict[int, list[str]] = {}  # per seat: cards tied to its draws and not shown since
    drawn: dict[int, str] = {}
    for n, ((kind, data), secret) in enumerate(zip(knowledge.events, knowledge.secrets, strict=True)):
        seat = data.get("seat")
        if kind == "CardDrawn" and secret is None:
            pending.setdefault(int(seat), []).append(n)
            continue
        if kind == "CardDrawn":
            drawn[n] = str(secret["card"])  # the seat's own draw: no other draw may take it first
            continue
        shown: list[tuple[int, str, bool]] = []  # (seat, card, whether it leaves the hand)
        if kind == "CardRevealed" or (kind == "CardUsed" and data.get("shown")):
            shown.append((int(seat), str(data["card"]), True))
        elif kind == "VictoryClaimed":
            shown += [(int(who), str(card), True) for who, cards in data["shown"].items() for card in cards]
        elif kind == "DeforestationAnswered" and data.get("target") is not None:
            shown.append((int(seat), DEFORESTATION, True))
        for who, card, leaves in shown:
            if who == knowledge.seat:
                continue
            mine = held.setdefault(who, [])
            if card not in mine and pending.get(who):
                drawn[pending[who].pop()] = card
                mine.append(card)
            if leaves and card in mine:
                mine.remove(card)
    return drawn


class _Filler:
    """Draws the secrets one seat cannot read, consistently with what it saw later."""

    def __init__(
        self, knowledge: SeatKnowledge, rng: Random, tiles: dict[Hex, str], drawn: dict[int, str]
    ) -> None:
        self.me = knowledge.seat
        self.rng = rng
        self.tiles = tiles  # _known_tiles and _card_draws of the knowledge, read only
        self.drawn = drawn

    def tile(self, state: State, data: Mapping[str, Any]) -> dict[str, Any]:
        name = self.tiles.get(_hex(data["hex"]))
        if name is None or name not in state.tiles:
            reserved = set(self.tiles.values())
            free = [t for t in state.tiles if t not in reserved] or list(state.tiles)
            name = self.rng.choice(free)
        return {"tile": name, "index": state.tiles.index(name)}

    def card(self, state: State, position: int) -> dict[str, Any]:
        card = self.drawn.get(position)
        if card is None or card not in state.deck:
            later = Counter(c for n, c in self.drawn.items() if n > position)
            free = list((Counter(state.deck) - later).elements()) or list(state.deck)
            card = self.rng.choice(sorted(free))
        return {"card": card, "index": state.deck.index(card)}

    def pieces(self, state: State, data: Mapping[str, Any]) -> dict[str, Any]:
        start, seat = _hex(data["path"][0]), int(data["seat"])
        stack = state.stack(start, seat)
        count = int(data["count"])
        stops = list(data.get("stops") or ())
        pool = [kind for kind in KINDS for _ in range(max(0, stack.pieces[kind]))]
        self.rng.shuffle(pool)
        if stack.shown and count < len(pool) and "transport" in pool:
            # The face-up transport stays when the move leaves something behind: the world's
            # stack then still shows it, as the real one does.
            pool.remove("transport")
            pool.append("transport")
        if stops:
            # A move with stops has canoes, and passengers enough to put ashore before it takes
            # any aboard: the draw puts those first.
            first = [k for k in pool if k in PASSENGERS][: _passengers_needed(stops)]
            first += [k for k in pool if k in ("transport", "war_canoe")][:1]
            for kind in first:
                pool.remove(kind)
            pool = first + pool
        moved = Counter(pool[:count])
        secret: dict[str, Any] = {"pieces": {kind: moved[kind] for kind in KINDS}, "aboard_war": 0}
        if stops:
            secret["stops"] = self._stops(state, data, moved, stops)
        return secret

    def _stops(
        self, state: State, data: Mapping[str, Any], load: Counter[str], stops: list[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """Each stop's pieces, as many as it counts: put ashore from those aboard, taken aboard
        from those at its hex, passengers first (those not moved yet, for the taken), other
        kinds only where the world holds too few passengers, so its counts stay the game's."""
        path, seat = [_hex(h) for h in data["path"]], int(data["seat"])
        drawn = []
        for stop in stops:
            at = path[int(stop["at"])]
            drop = self._first(_tiers(load, load), int(stop["drop"]))
            here = state.stack(at, seat)
            there = Counter({k: here.pieces[k] for k in KINDS})
            if at == path[0]:
                there -= load  # the stack the move set out from has lost what it carries
            unmoved = Counter({k: here.pieces[k] - here.spent[k] for k in KINDS}) & there
            take = self._first(_tiers(unmoved, there), int(stop["take"]))
            load = load - drop + take
            drawn.append({"at": int(stop["at"]), "drop": dict(drop), "take": dict(take)})
        return drawn

    def _first(self, tiers: list[Counter[str]], count: int) -> Counter[str]:
        """`count` pieces drawn from the first tier, then the next, each in a random order."""
        order: list[str] = []
        for tier in tiers:
            pool = list(tier.elements())
            self.rng.shuffle(pool)
            order += pool
        return Counter(order[:count])

    def draft(self, state: State, data: Mapping[str, Any]) -> Draft:
        """A seat's orders as its reveal shows them, the pieces' kinds drawn from its supply."""
        seat = int(data["seat"])
        used = add(on_map(state, seat), out_of_game(state, seat))
        left = Counter({k: PIECES[k] - n for k, n in used.items() if PIECES[k] > n})
        items: list[tuple[str, Hex | None]] = []
        for where, n in sorted(data.get("placed", {}).items()):
            col, row = (int(v) for v in where.split(","))
            for _ in range(int(n)):
                kinds = sorted(left.elements()) or ["band"]
                kind = self.rng.choice(kinds)
                left[kind] -= 1
                items.append((kind, (col, row)))
        items += [("agriculture", _hex(at)) for at in data.get("agriculture", [])]
        settled = {_hex(at) for at in data.get("settled", [])}
        items += [
            ("settle" if _hex(at) in settled else "village", _hex(at)) for at in data.get("villages", [])
        ]
        items += [("card", None)] * int(data.get("cards", 0))
        return Draft(tuple(items), bool(data.get("rotate")), bool(data.get("save")), True)


def _tiers(best: Counter[str], rest: Counter[str]) -> list[Counter[str]]:
    """Passengers of `best`, then the rest of `rest`: the draw's order of preference."""
    first = Counter({k: best[k] for k in PASSENGERS}) & rest
    return [first, rest - first]


def _passengers_needed(stops: Sequence[Mapping[str, Any]]) -> int:
    """How many passengers a move must set out with to put ashore what its stops count."""
    aboard, needed = 0, 0
    for stop in stops:
        aboard -= int(stop["drop"])
        needed = max(needed, -aboard)
        aboard += int(stop["take"])
    return needed


def _battle_stacks(state: State, data: Mapping[str, Any], me: int) -> State:
    """A battle's opening shows both sides' stacks: the world takes the others' as they are."""
    at = _hex(data["hex"])
    for seat, pieces in zip((data["attacker"], data["defender"]), data["pieces"], strict=True):
        if seat >= 0 and seat != me:
            old = state.stack(at, seat)
            shown = counts(**{k: int(v) for k, v in pieces.items() if k in KINDS})
            state = with_stack(state, at, seat, Stack(shown, old.spent, old.shown, old.aboard_war))
    return state


def _shown_transport(state: State, data: Mapping[str, Any]) -> State:
    """A transport turned face up is one: a world that drew that stack without one swaps a
    piece of its most numerous other kind for it."""
    at, seat = _hex(data["hex"]), int(data["seat"])
    stack = state.stack(at, seat)
    if not data.get("shown") or stack.pieces["transport"] > 0 or not total(stack.pieces):
        return state
    other = max((k for k in KINDS if k != "transport"), key=lambda k: stack.pieces[k])
    pieces = {**stack.pieces, other: stack.pieces[other] - 1, "transport": 1}
    return with_stack(state, at, seat, replace(stack, pieces=pieces))


def _world_index(
    state: State, kind: str, data: Mapping[str, Any], secret: Mapping[str, Any] | None
) -> tuple[Mapping[str, Any], Mapping[str, Any] | None]:
    """A draw's index points into the real pile; the world's pile lies in another order, so
    the drawn tile or card is found in it by name."""
    if kind == "TileFound" and "tile" in data and data["tile"] in state.tiles:
        return {**data, "index": state.tiles.index(data["tile"])}, secret
    if kind == "TileFound" and secret and secret.get("tile") in state.tiles:
        return data, {**secret, "index": state.tiles.index(secret["tile"])}
    if kind == "CardDrawn" and secret and secret.get("card") in state.deck:
        return data, {**secret, "index": state.deck.index(secret["card"])}
    return data, secret


def _markers(knowledge: SeatKnowledge) -> list[int | None]:
    """Who held the turn-order marker at each TurnStarted: the seat of the OrderChosen after it,
    or the view's marker for the turn under way (None when the log does not say)."""
    found: list[int | None] = []
    for kind, data in knowledge.events:
        if kind == "TurnStarted":
            found.append(None)
        elif kind == "OrderChosen" and found and found[-1] is None:
            found[-1] = int(data["seat"])
    if found and found[-1] is None and isinstance(knowledge.seen.get("marker"), int):
        found[-1] = int(knowledge.seen["marker"])
    return found


def _with_marker(state: State, marker: int | None) -> State:
    """The marker is public (the last seat on the VP track holds it): a world whose draws put
    the VP track otherwise takes the real holder."""
    if marker is None or marker == state.marker:
        return state
    choice = state.choice
    if choice is not None and choice.kind == "order":
        choice = replace(choice, seat=marker)
    return replace(state, marker=marker, choice=choice)


def _drawn_here(kind: str, data: Mapping[str, Any], secret: Any) -> bool:
    """Whether a world draws this event's secret (`_Filler`): the first such event ends the
    part of the log every world of one knowledge folds alike."""
    if secret is not None:
        return False
    if kind == "TileFound":
        return "tile" not in data
    return kind in ("CardDrawn", "PiecesMoved", "BuildRevealed")


def _fold(
    knowledge: SeatKnowledge,
    filler: _Filler | None,
    start: int,
    state: State | None,
    markers: Iterator[int | None],
) -> tuple[int, State | None]:
    """The log folded from event `start` on, into `state`: to the end, drawing each secret the
    seat cannot read from `filler`; or without one, up to the first such event (the position
    where it stopped, and the state then)."""
    events, secrets = knowledge.events, knowledge.secrets
    for position in range(start, len(events)):
        (kind, data), secret = events[position], secrets[position]
        if kind == "GameCreated":
            state = setup.initial_state(data)
            continue
        if state is None:
            continue
        if filler is None and _drawn_here(kind, data, secret):
            return position, state
        if secret is None and filler is not None:
            if kind == "TileFound" and "tile" not in data:
                secret = filler.tile(state, data)
            elif kind == "CardDrawn":
                secret = filler.card(state, position)
            elif kind == "PiecesMoved":
                secret = filler.pieces(state, data)
            elif kind == "BuildRevealed":
                drafts = list(state.drafts)
                drafts[int(data["seat"])] = filler.draft(state, data)
                state = replace(state, drafts=tuple(drafts))
        data, secret = _world_index(state, kind, data, secret)
        if kind == "BattleStarted":
            state = _battle_stacks(state, data, knowledge.seat)
        elif kind == "TransportFlipped":
            state = _shown_transport(state, data)
        state = engine.evolve(state, Event(kind, data, secret))
        if kind == "TurnStarted":
            state = _with_marker(state, next(markers, None))
    return len(events), state


def determinize(knowledge: SeatKnowledge, rng: Random) -> State:
    """A whole State the seat cannot tell apart from the real one, drawn from `rng`.

    The log up to the first secret drawn is folded once per knowledge, and what the seat knows
    of tiles and cards read once (kept in its cache): every world of it folds and reads those
    alike, and a search draws WORLDS_KEPT of them."""
    kept = knowledge.cache.get(PREFIX_CACHE)
    if kept is None:
        markers = iter(_markers(knowledge))
        position, state = _fold(knowledge, None, 0, None, markers)
        tiles, drawn = _known_tiles(knowledge), _card_draws(knowledge)
        kept = knowledge.cache[PREFIX_CACHE] = (position, state, list(markers), tiles, drawn)
    position, state, rest, tiles, drawn = kept
    _, state = _fold(knowledge, _Filler(knowledge, rng, tiles, drawn), position, state, iter(rest))
    if state is None:
        raise ValueError("the knowledge holds no GameCreated event")
    return _as_seen(state, knowledge.seen)


def world(knowledge: SeatKnowledge, rng: Random) -> State:
    """A world for the players: the first WORLDS_KEPT of one knowledge each drawn anew
    (determinize), every later one among those, kept in the knowledge's cache.

    Drawing a world folds the whole log (most of a search's time), and a search's thousands of
    iterations gain little from more than a few dozen samples of what the seat cannot see: the
    dice and draws after the root are drawn anew at every step all the same.
    """
    kept: list[State] = knowledge.cache.setdefault(WORLDS_CACHE, [])
    if len(kept) < WORLDS_KEPT:
        kept.append(determinize(knowledge, rng))
        return kept[-1]
    chosen: State = rng.choice(kept)
    return chosen


def _as_seen(state: State, seen: Mapping[str, Any]) -> State:
    """Which stacks show a face-up transport is public (the view says it): a world whose
    draws moved a transport elsewhere takes the view's word, swapping a piece if need be."""
    for entry in seen.get("stacks", []):
        at, seat = _hex(entry["hex"]), int(entry["seat"])
        stack = state.stack(at, seat)
        if stack.shown != entry["face_up_transport"]:
            data = {"hex": entry["hex"], "seat": seat, "shown": entry["face_up_transport"]}
            state = _shown_transport(state, data)
            state = with_stack(state, at, seat, replace(state.stack(at, seat), shown=data["shown"]))
    return state


# --- search -----------------------------------------------------------------------------------


def searched_moves(state: State, seat: int) -> list[Command]:
    """The commands worth searching: every one but Move, and at most MOVES_SEARCHED Moves,
    spread evenly over the legal ones (which come in a stable order)."""
    commands = legal.legal_commands(state, seat)
    moves = [n for n, c in enumerate(commands) if c.type == "Move"]
    if len(moves) <= MOVES_SEARCHED:
        return commands
    step = len(moves) / MOVES_SEARCHED
    # By place in the list, not by object: the rules may list one kept Move object twice.
    kept = {moves[int(n * step)] for n in range(MOVES_SEARCHED)}
    return [c for n, c in enumerate(commands) if c.type != "Move" or n in kept]


def moves_key(state: State, seat: int) -> Hashable:
    """The features of a state the searched commands depend on (a cache key per search node)."""
    # A loop and a sort in place rather than `sorted` over a generator: the search keys every
    # state it meets.
    mine = []
    for (at, owner), s in state.stacks.items():
        if owner == seat:
            mine.append((at, tuple(s.pieces.values()), tuple(s.spent.values()), s.shown))
    mine.sort()
    own = tuple(mine)
    return (
        seat,
        state.phase,
        state.turn,
        state.active,
        repr(state.choice),
        state.expedition,
        state.transit_open,
        repr(state.battle),
        own,
        state.hands[seat],
        state.drafts[seat],
        len(state.unknown),
        len(state.islands),
        _present(state, [entry[0] for entry in own]),
    )


def _present(state: State, hexes: list[Hex]) -> tuple[tuple[int, ...], ...]:
    """The seats with pieces in each of `hexes`, in seat order (as `occupied` gives them): each
    seat's stack there looked up, since most states the search keys are never listed, and
    working `occupied` out for the whole map was most of the key's cost."""
    stacks, seats = state.stacks, range(state.seats)
    found = []
    for at in hexes:
        here = []
        for owner in seats:
            stack = stacks.get((at, owner))
            if stack is not None and sum(stack.pieces.values()) != 0:  # `total`, without a call
                here.append(owner)
        found.append(tuple(here))
    return tuple(found)


def listing_key(state: State, seat: int) -> Hashable:
    """Everything `searched_moves` depends on besides `moves_key`: where every seat has pieces
    (a move stops at or fights enemies), each group as it stands (who holds it, its villages,
    agriculture, warriors and garrison; face up or found by whom), the unknown hexes (an
    exploration), the cards face up (their effects), the pieces out of the game (the supply)
    and whether a card is left to build."""
    return (
        tuple(occupied(state).items()),
        facts(state.islands).groups(),  # worked out once per map of groups
        state.unknown,
        state.revealed,
        state.given_up,
        len(state.deck),
    )


def turn(state: State) -> Hashable:
    return (state.turn, state.phase, state.active, state.expedition is None)


HOOKS: AIHooks[State] = AIHooks(
    world=world,
    evaluate=win_chances,
    priors=priors,
    moves=searched_moves,
    moves_key=moves_key,
    turn=turn,
    search=SEARCH,
    listing_key=listing_key,
)
