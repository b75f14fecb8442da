"""P-4 construction: build points by pool, internal rotation, villages, improved agriculture,
Arts & Culture cards; committed in secret, revealed together after the last (Q-1).

Q-A1 (variable starting pieces) uses the same orders before the first turn, with four points
at the base and only pieces to build.
"""

from __future__ import annotations

from typing import Any, cast

from domain.decider import Command, Event, IllegalMove
from domain.paradise.empire import controller, pools, revealed_effect
from domain.paradise.hexes import as_hex
from domain.paradise.state import (
    EMPTY,
    LOST,
    START,
    Counts,
    Draft,
    Due,
    Island,
    Stack,
    State,
    add,
    counts,
    kept,
    out_of_game,
    put,
    replace,
    total,
)
from domain.paradise.tables import (
    CARDS_PER_TURN,
    COSTS,
    KINDS,
    PIECES,
    ROTATION_POINTS,
    SAVED_AT_MOST,
    VARIABLE_START_POINTS,
    Hex,
)

ITEMS = KINDS + ("village", "agriculture", "card", "settle")
START_ITEMS = KINDS
"""Q-A1: the free start builds pieces only."""


@kept
def on_map(state: State, seat: int) -> dict[str, int]:
    """`seat`'s pieces on the map by kind (worked out once per state and seat: never to be
    changed by the caller)."""
    got = counts()
    for (_, owner), stack in state.stacks.items():
        if owner == seat:
            got = add(got, stack.pieces)
    return got


def _base_pool(state: State, seat: int, all_pools: list[set[Hex]]) -> int | None:
    base = state.bases[seat]
    return next((n for n, pool in enumerate(all_pools) if base in pool), None)


def _extra(state: State, seat: int, draft: Draft) -> int:
    """Points beyond the villages', spent at the base's pool (P-4.1, Q-A2, Q-D6)."""
    extra = ROTATION_POINTS if draft.rotate else 0
    extra += state.saved[seat]
    extra += 1 if revealed_effect(state, seat, "base_point") else 0
    extra += 1 if revealed_effect(state, seat, "turn_point") else 0
    return extra


@kept
def _pooled(state: State, seat: int) -> tuple[tuple[int, ...], dict[Hex, int], int | None]:
    """`seat`'s build pools as `shortfall` reads them, worked out once per state and seat: each
    pool's village points, the pool of each group (the first holding it), the base's pool."""
    all_pools = pools(state, seat)
    villages = tuple(sum(state.islands[at].villages for at in pool) for pool in all_pools)
    pool_of: dict[Hex, int] = {}
    for n, pool in enumerate(all_pools):
        for at in pool:
            pool_of.setdefault(at, n)
    return villages, pool_of, _base_pool(state, seat, all_pools)


def shortfall(state: State, seat: int, draft: Draft) -> str | None:
    """Why `draft` cannot be built, or None: every item placed and paid for by a pool."""
    if state.phase == START:
        spent = sum(COSTS[item] for item, _ in draft.items)
        return None if spent <= VARIABLE_START_POINTS else "the free start is worth four build points"
    villages, pool_of, base = _pooled(state, seat)
    left = list(villages)
    if base is not None:
        left[base] += _extra(state, seat, draft)
    elif draft.rotate:
        return "internal rotation's point is spent at the base"
    for item, at in draft.items:
        if at is None or item == "settle":
            continue
        left[pool_of[at]] -= COSTS[item]
    if any(points < 0 for points in left):
        return "not enough build points in that group's pool"
    for item, _ in draft.items:
        if item == "card":
            best = max(range(len(left)), key=lambda n: left[n], default=None)
            if best is None or left[best] < COSTS["card"]:
                return "a card needs two build points from one pool"
            left[best] -= COSTS["card"]
    if draft.save and not any(points >= 1 for points in left):
        return "nothing left to save"
    return None


def item_error(state: State, seat: int, draft: Draft, item: str, at: Hex | None) -> str | None:
    """Why `item` cannot be added at `at` to `draft`, or None (P-4.2, P-4.3)."""
    if state.phase == START:
        if item not in START_ITEMS or at != state.bases[seat]:
            return "the free start places pieces on the base"
    elif item == "card":
        if sum(1 for i, _ in draft.items if i == "card") >= CARDS_PER_TURN:
            return "one Arts & Culture card a turn"
        if not state.deck:
            return "no card left"
    else:
        island = state.islands.get(at) if at is not None else None
        if island is None:
            return "build on an island group"
        mine = controller(island) == seat
        if item != "settle" and not mine:
            return "build only on a group you control (it holds one of your villages)"
        error = _square_error(state, seat, draft, item, at, island.atoll) if at else None
        if error:
            return error
    if item in KINDS and none_left(state, seat, draft, item):
        return f"no {item} left to build"
    return shortfall(state, seat, replace(draft, items=draft.items + ((item, at),)))


def none_left(state: State, seat: int, draft: Draft, item: str) -> bool:
    """Whether every piece of kind `item` is on the map, out of the game or in `draft` (P-4.3)."""
    drafted = sum(1 for i, _ in draft.items if i == item)
    return drafted >= unbuilt(state, seat)[item]


@kept
def unbuilt(state: State, seat: int) -> dict[str, int]:
    """`seat`'s pieces by kind neither on the map nor out of the game (worked out once per state
    and seat: never to be changed by the caller)."""
    gone = out_of_game(state, seat)
    return {kind: PIECES[kind] - n - gone[kind] for kind, n in on_map(state, seat).items()}


def _square_error(state: State, seat: int, draft: Draft, item: str, at: Hex, atoll: bool) -> str | None:
    island = state.islands[at]
    villages = agriculture = 0  # the draft's orders at `at` (a Counter cost more than the rest)
    for i, h in draft.items:
        if h == at:
            if i == "village" or i == "settle":
                villages += 1
            elif i == "agriculture":
                agriculture += 1
    if item in ("village", "settle"):
        if atoll:
            return "no village on an atoll"
        if villages:
            return "one new village a group a turn"
        if island.villages >= island.squares + agriculture:
            return "no free square for a village"
    if item == "settle":
        if not island.face_up or controller(island) not in (None, seat):
            return "a colony settles a face-up group no one else controls"
        if state.pieces(at, seat)["colony"] < 1:
            return "no colony of yours there"
    if item == "agriculture" and island.agriculture + agriculture >= island.brown:
        return "no brown square left"
    return None


ORDERS_AT_MOST = 40
"""No seat has points for more orders than this in one build phase (bounds the command)."""
EXTRAS = ("rotate", "save")
"""Orders that build nothing: internal rotation (P-4.1) and saving a point (Q-A2)."""


def _bad(message: str) -> IllegalMove:
    return IllegalMove("bad_orders", message, field="orders")


def _with_item(state: State, seat: int, draft: Draft, order: dict[str, Any], n: int) -> Draft:
    item, raw = order.get("item"), order.get("hex")
    if item not in ITEMS:
        raise IllegalMove("bad_item", f"build one of {list(ITEMS + EXTRAS)} (order {n + 1})", field="orders")
    at = None if item == "card" else as_hex(raw)
    if item != "card" and at is None:
        raise IllegalMove("bad_hex", f"name a hex of the map (order {n + 1})", field="orders")
    error = item_error(state, seat, draft, item, at)
    if error:
        raise IllegalMove("cannot_build", f"{error} (order {n + 1})", field="orders")
    return replace(draft, items=draft.items + ((item, at),))


def _rotated(state: State, seat: int, draft: Draft) -> Draft:
    """P-4.1: skip next turn's exploration for a build point at the base."""
    if state.phase == START or draft.rotate or state.bases[seat] is None:
        raise IllegalMove(
            "cannot_rotate", "internal rotation once a build phase, with a base", field="orders"
        )
    return replace(draft, rotate=True)


def _saved(state: State, seat: int, draft: Draft) -> Draft:
    """Q-A2: keep one build point for a later turn."""
    if not state.options.saved_resources or state.phase == START or draft.save or SAVED_AT_MOST < 1:
        raise IllegalMove(
            "cannot_save", "saving a point needs the saved-resources option, once a turn", field="orders"
        )
    if shortfall(state, seat, replace(draft, save=True)):
        raise IllegalMove("cannot_save", "no point left to save", field="orders")
    return replace(draft, save=True)


def drafted(state: State, seat: int, orders: Any) -> Draft:
    """The seat's orders as one draft, or IllegalMove: each judged after those before it.

    Rotation comes first (its point pays for the rest) and saving last (it keeps what the
    rest leave), wherever the list names them; the items keep the list's order.
    """
    if orders is None:
        orders = []
    if not isinstance(orders, list) or len(orders) > ORDERS_AT_MOST:
        raise _bad(f"orders is a list of at most {ORDERS_AT_MOST} {{item, hex}}")
    if not all(isinstance(order, dict) for order in orders):
        raise _bad("each order is an object {item, hex}")
    kinds = [order.get("item") for order in orders]
    if kinds.count("rotate") > 1 or kinds.count("save") > 1:
        raise _bad("rotation and saving are ordered once each")
    draft = _rotated(state, seat, Draft()) if "rotate" in kinds else Draft()
    for n, order in enumerate(orders):
        if order.get("item") not in EXTRAS:
            draft = _with_item(state, seat, draft, order, n)
    return _saved(state, seat, draft) if "save" in kinds else draft


def orders_of(draft: Draft) -> list[dict[str, Any]]:
    """A draft as the orders that give it: rotation first, saving last."""
    orders: list[dict[str, Any]] = [{"item": "rotate", "hex": None}] if draft.rotate else []
    orders += [{"item": item, "hex": list(at) if at else None} for item, at in draft.items]
    return orders + ([{"item": "save", "hex": None}] if draft.save else [])


def decide_commit(state: State, command: Command) -> list[Event]:
    """Q-1: all of a seat's orders at once, one secret event whatever their number.

    The secret is there even with no order, so nothing but its salted digest (never its size
    or its absence) shows the others what the seat ordered before all have committed.
    """
    seat = command.seat
    assert seat is not None
    draft = drafted(state, seat, command.args.get("orders"))
    return [Event("BuildCommitted", {"seat": seat}, {"orders": orders_of(draft)}, (seat,))]


def _ordered(draft: Draft, order: dict[str, Any]) -> Draft:
    """`draft` with one recorded order added."""
    item, raw = order["item"], order.get("hex")
    if item == "rotate":
        return replace(draft, rotate=True)
    if item == "save":
        return replace(draft, save=True)
    return replace(draft, items=draft.items + ((item, tuple(raw) if raw else None),))


def build_ordered(state: State, data: dict[str, Any], secret: Any) -> State:
    """An order of a game stored before orders were sent together: one event an order."""
    if not secret:
        return state
    seat = data["seat"]
    return replace(state, drafts=put(state.drafts, seat, _ordered(state.drafts[seat], secret)))


NO_ORDERS = Draft()


def build_committed(state: State, data: dict[str, Any], secret: Any) -> State:
    """The seat's orders, when the viewer may read them; an older game's came one by one before."""
    seat = data["seat"]
    draft = state.drafts[seat]
    if secret and "orders" in secret:
        # `_ordered` order by order, made as one draft: a draft per order cost more than the rest.
        items, rotate, save = [], False, False
        for order in secret["orders"]:
            item, raw = order["item"], order.get("hex")
            if item == "rotate":
                rotate = True
            elif item == "save":
                save = True
            else:
                items.append((item, tuple(raw) if raw else None))
        draft = replace(NO_ORDERS, items=tuple(items), rotate=rotate, save=save, committed=True)
    else:
        draft = replace(draft, committed=True)
    return replace(state, drafts=put(state.drafts, seat, draft))


def _void_reason(state: State, seat: int, draft: Draft, item: str, at: Hex | None) -> str | None:
    """Q-1: why an order, sound when given, is void at its reveal after earlier seats' builds."""
    if item == "card":
        return None if state.deck else "no Arts & Culture card left"
    if item not in ("village", "settle") or at is None:
        return None
    island = state.islands[at]
    if controller(island) not in (None, seat):
        return "a seat earlier in turn order settled this group"
    if at in state.settled:
        return "this group got its one new village this turn"
    brown = sum(1 for i, h in draft.items if i == "agriculture" and h == at)
    if island.villages >= island.squares + brown:
        return "no free square left for a village"
    return None


def voided(state: State, seat: int) -> list[tuple[str, Hex | None, str]]:
    """Q-1: the seat's orders that conflict with those revealed before it in turn order."""
    draft = state.drafts[seat]
    found = []
    for item, at in draft.items:
        reason = _void_reason(state, seat, draft, item, at)
        if reason is not None:
            found.append((item, at, reason))
    return found


def reveal_event(state: State, seat: int) -> Event:
    """Q-1: a seat's builds shown to all (pieces stay face down: only their number is public).

    Conflicts are settled in turn order: an order that an earlier seat's reveal made impossible
    (two colonies settling one group) is void, costs nothing, and the event says why.
    """
    void = voided(state, seat)
    struck = {(item, at) for item, at, _ in void}
    draft = state.drafts[seat]
    draft = replace(draft, items=tuple(i for i in draft.items if i not in struck))
    placed: dict[str, int] = {}  # pieces per hex (a Counter cost more than the rest of the event)
    for item, at in draft.items:
        if item in KINDS and at is not None:
            where = f"{at[0]},{at[1]}"
            placed[where] = placed.get(where, 0) + 1
    public = {
        "seat": seat,
        "villages": [list(at) for item, at in draft.items if item in ("village", "settle") and at],
        "settled": [list(at) for item, at in draft.items if item == "settle" and at],
        "agriculture": [list(at) for item, at in draft.items if item == "agriculture" and at],
        "cards": sum(1 for item, _ in draft.items if item == "card"),
        "placed": dict(sorted(placed.items())),
        "rotate": draft.rotate,
        "save": draft.save,
    }
    if void:
        public["void"] = [
            {"item": item, "hex": list(at) if at else None, "why": why} for item, at, why in void
        ]
    items = [[item, list(at) if at else None] for item, at in draft.items if item in KINDS]
    return Event("BuildRevealed", public, {"items": items}, (seat,))


def build_revealed(state: State, data: dict[str, Any], secret: Any) -> State:
    seat = data["seat"]
    draft = state.drafts[seat]
    void = {(v["item"], tuple(v["hex"]) if v["hex"] else None) for v in data.get("void", ())}
    items = tuple(i for i in draft.items if i not in void)
    board = _Board(state)
    for item, at in items:
        if at is None:
            continue
        if item in KINDS:
            board.add(at, seat, counts(**{item: 1}))
        elif item == "agriculture":
            island = board.islands[at]
            board.island(at, replace(island, agriculture=island.agriculture + 1))
    bases, settled = state.bases, state.settled
    for item, at in items:
        if item in ("village", "settle") and at is not None:
            island = board.islands[at]
            board.island(at, replace(island, owner=seat, villages=island.villages + 1))
            if bases[seat] is None:
                # A player who lost its base with no other group names its first new group (P-3.8).
                bases = put(bases, seat, at)
            if item == "settle":
                board.add(at, seat, counts(colony=1), -1)
            settled = settled | {at}
    state = replace(
        state,
        stacks=board.stacks,
        islands=board.islands,
        bases=bases,
        settled=settled,
        explorers=put(state.explorers, seat, LOST) if draft.rotate else state.explorers,
        saved=put(state.saved, seat, 1 if draft.save else 0),
        drafts=put(state.drafts, seat, replace(draft, items=(), rotate=False, save=False)),
    )
    cards = sum(1 for item, _ in items if item == "card")
    if cards and state.deck:
        return replace(state, due=Due("card", {"card": len(state.deck)}, {"seat": seat}))
    return state


class _Board:
    """The stacks and groups of a reveal's state, each copied once at its first change and then
    changed in place: a reveal places several pieces and villages, and a state made per piece
    (`with_stack`, `with_island`) cost more than the rest of the reveal. The copies change
    exactly as those would, in the same order."""

    def __init__(self, state: State) -> None:
        self.stacks = state.stacks
        self.islands = state.islands
        self.copied = [False, False]

    def add(self, at: Hex, seat: int, pieces: Counts, sign: int = 1) -> None:
        if not self.copied[0]:
            self.stacks, self.copied[0] = dict(self.stacks), True
        stacks = cast(dict[tuple[Hex, int], Stack], self.stacks)
        old = stacks.get((at, seat)) or EMPTY
        new = replace(old, pieces=add(old.pieces, pieces, sign))
        if total(new.pieces):
            stacks[(at, seat)] = new
        else:
            stacks.pop((at, seat), None)

    def island(self, at: Hex, island: Island) -> None:
        if not self.copied[1]:
            self.islands, self.copied[1] = dict(self.islands), True
        cast(dict[Hex, Island], self.islands)[at] = island


def card_events(state: State, index: int) -> list[Event]:
    assert state.due is not None
    seat = state.due.data["seat"]
    card = state.deck[index]
    return [Event("CardDrawn", {"seat": seat}, {"card": card, "index": index}, (seat,))]


def card_drawn(state: State, data: dict[str, Any], secret: Any) -> State:
    state = replace(state, due=None)
    if not secret:
        return state
    seat, index = data["seat"], secret["index"]
    deck = state.deck[:index] + state.deck[index + 1 :]
    return replace(state, deck=deck, hands=put(state.hands, seat, state.hands[seat] + (secret["card"],)))


def decide_reveal_card(state: State, command: Command) -> list[Event]:
    """P-4.4: a card may be shown at any time one acts; once shown it stays shown."""
    seat, card = command.seat, command.args.get("card")
    assert seat is not None
    if card not in state.hands[seat]:
        raise IllegalMove("no_such_card", "reveal a card you hold face down", field="card")
    return [Event("CardRevealed", {"seat": seat, "card": card})]


def card_revealed(state: State, data: dict[str, Any], secret: Any) -> State:
    seat, card = data["seat"], data["card"]
    mine = list(state.hands[seat])
    mine.remove(card)
    return replace(
        state,
        hands=put(state.hands, seat, tuple(mine)),
        revealed=put(state.revealed, seat, state.revealed[seat] + (card,)),
    )


EVOLVERS = {
    "BuildOrdered": build_ordered,
    "BuildCommitted": build_committed,
    "BuildRevealed": build_revealed,
    "CardDrawn": card_drawn,
    "CardRevealed": card_revealed,
}
