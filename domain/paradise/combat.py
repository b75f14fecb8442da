"""P-3.4..P-3.8 combat: lines, the attacker's die, panics and losses chosen by their owners (Q-4),
retreat, conquest with villages saved, independent groups, combat cards."""

from __future__ import annotations

from typing import Any

from domain.decider import Command, Event, IllegalMove
from domain.paradise.advanced import wades
from domain.paradise.cards_held import may_hold
from domain.paradise.empire import controlled, controller, nearest_friendly
from domain.paradise.hexes import as_hex
from domain.paradise.move import battles_for
from domain.paradise.sea import aboard, at_sea
from domain.paradise.state import (
    INDEPENDENT,
    Battle,
    Choice,
    Counts,
    Due,
    Stack,
    State,
    counts,
    put,
    replace,
    total,
    with_island,
    with_stack,
)
from domain.paradise.tables import Hex, card_with

FRONT_KINDS = ("war_canoe", "band", "local")
ATTACKER, DEFENDER = 0, 1
HAKA, CANNIBALISM, PA, ARIOI = (
    card_with(e) for e in ("reroll", "attack_plus_one", "local_warrior", "cancel_attack")
)


def holds(state: State, seat: int, card: str) -> bool:
    return seat >= 0 and (card in state.hands[seat] or card in state.revealed[seat])


def local_warriors(state: State, at: Hex, defender: int) -> int:
    """P-3.4: one local warrior for 1-2 villages, two for 3 or more; an independent's printed ones."""
    island = state.islands.get(at)
    if island is None or controller(island) != defender:
        return 0
    if defender == INDEPENDENT:
        return island.warriors
    return 0 if not island.villages else (1 if island.villages <= 2 else 2)


def decide_fight(state: State, command: Command) -> list[Event]:
    assert state.choice is not None
    at, defender = as_hex(command.args.get("hex")), command.args.get("defender")
    if (at, defender) not in state.choice.options:
        raise IllegalMove("no_such_battle", "fight one of the battles your moves made", field="hex")
    assert at is not None and isinstance(defender, int) and command.seat is not None
    return start_battle(state, at, command.seat, defender)


def start_battle(state: State, at: Hex, attacker: int, defender: int) -> list[Event]:
    """The battle's lines, shown to all (P-3.4): rumors involved are removed."""
    mine = state.stack(at, attacker)
    theirs = state.pieces(at, defender) if defender >= 0 else counts()
    island = state.islands.get(at)
    on_group = island is not None
    front_bands = min(mine.pieces["band"], mine.aboard_war)
    locals_ = local_warriors(state, at, defender)
    events = []
    if locals_ and defender >= 0:
        # Q-D6: each Pa held adds its local warrior (the deck has two).
        in_hand = state.hands[defender].count(PA)
        for n in range(in_hand + state.revealed[defender].count(PA)):
            locals_ += 1
            events.append(Event("CardUsed", {"seat": defender, "card": PA, "shown": n < in_hand}))
    defended = island is not None and controller(island) == defender
    villages = (island.green if defender == INDEPENDENT else island.villages) if island and defended else 0
    data = {
        "hex": list(at),
        "attacker": attacker,
        "defender": defender,
        "pieces": [dict(mine.pieces), dict(theirs)],
        "front": [
            {"war_canoe": mine.pieces["war_canoe"], "band": front_bands, "local": 0},
            {
                "war_canoe": theirs["war_canoe"],
                "band": theirs["band"] if on_group else min(theirs["band"], theirs["war_canoe"]),
                "local": locals_,
            },
        ],
        "villages": villages,
    }
    return [Event("BattleStarted", data)] + events


def _card_used(state: State, seat: int, card: str) -> Event:
    return Event("CardUsed", {"seat": seat, "card": card, "shown": card in state.hands[seat]})


def battle_started(state: State, data: dict[str, Any], secret: Any) -> State:
    at: Hex = tuple(data["hex"])
    pieces = data["pieces"]
    rear = []
    for side in (ATTACKER, DEFENDER):
        p, f = pieces[side], data["front"][side]
        rear.append(counts(transport=p["transport"], colony=p["colony"], band=p["band"] - f["band"]))
    sides = (data["attacker"], data["defender"])
    for seat in sides:
        if seat >= 0:
            stack = state.stack(at, seat)
            state = with_stack(state, at, seat, replace(stack, pieces={**stack.pieces, "rumor": 0}))
    battle = Battle(
        at,
        data["attacker"],
        data["defender"],
        (data["front"][0], data["front"][1]),
        ({k: 0 for k in FRONT_KINDS},) * 2,
        (rear[0], rear[1]),
        data["villages"],
    )
    state = replace(state, battle=battle, choice=None)
    if not sum(battle.front[DEFENDER].values()):
        return state
    if battle.villages and may_hold(state, data["defender"], ARIOI):
        return replace(state, choice=Choice("arioi", data["defender"], (True, False)))
    return replace(state, due=Due("die", {"die": 6}))


def automatic(state: State) -> Event | None:
    """The battle's next step that needs no one's decision."""
    battle = state.battle
    assert battle is not None
    if battle.winner is None:
        for side in (ATTACKER, DEFENDER):
            if not sum(battle.front[side].values()):
                return Event("BattleEnded", {"hex": list(battle.hex), "winner": 1 - side})
        return None
    return _aftermath(state, battle)


def outcome(roll: int) -> tuple[int, str]:
    """P-3.4's table: which side is hit and how."""
    if roll <= 1:
        return ATTACKER, "removed"
    if roll <= 3:
        return ATTACKER, "panicked"
    if roll <= 5:
        return DEFENDER, "panicked"
    return DEFENDER, "removed"


def roll_events(state: State, die: int) -> list[Event]:
    battle = state.battle
    assert battle is not None
    events = []
    roll = die
    if holds(state, battle.attacker, CANNIBALISM) and die < 6:
        roll = die + 1
        if CANNIBALISM in state.hands[battle.attacker]:
            events.append(_card_used(state, battle.attacker, CANNIBALISM))
    return [Event("DieRolled", {"hex": list(battle.hex), "die": die, "roll": roll})] + events


def _haka_seat(state: State, battle: Battle, roll: int, die: int) -> int | None:
    """The seat a roll hurts, asked whether it plays Haka: unless it rerolled this battle, a card
    already changed this roll (one card a roll, Q-D6), or Haka is known to be elsewhere."""
    side, _ = outcome(roll)
    seat = (battle.attacker, battle.defender)[side]
    if battle.haka[side] or roll != die or not may_hold(state, seat, HAKA):
        return None
    return seat


def die_rolled(state: State, data: dict[str, Any], secret: Any) -> State:
    battle = state.battle
    assert battle is not None
    battle = replace(battle, roll=data["roll"])
    state = replace(state, battle=battle, due=None)
    haka = _haka_seat(state, battle, data["roll"], data["die"])
    if haka is not None:
        return replace(state, choice=Choice("haka", haka, (True, False)))
    return _hit(state, battle)


def _hit(state: State, battle: Battle) -> State:
    assert battle.roll is not None
    side, how = outcome(battle.roll)
    kinds = tuple(k for k in FRONT_KINDS if battle.front[side][k])
    owner = (battle.attacker, battle.defender)[side]
    return replace(state, choice=Choice("casualty", owner, kinds, {"side": side, "how": how}))


def casualty_auto(state: State) -> Event | None:
    """A casualty with only one kind to choose from, or an independent's, needs no decision."""
    choice = state.choice
    if choice is None or choice.kind != "casualty":
        return None
    if len(choice.options) == 1 or choice.seat < 0:
        return _lost(state, choice.options[0])
    return None


def _lost(state: State, kind: str) -> Event:
    battle, choice = state.battle, state.choice
    assert battle is not None and choice is not None
    return Event(
        "PieceHit",
        {"hex": list(battle.hex), "side": choice.data["side"], "piece": kind, "how": choice.data["how"]},
    )


def decide_casualty(state: State, command: Command) -> list[Event]:
    assert state.choice is not None
    if command.args.get("piece") not in state.choice.options:
        raise IllegalMove("bad_casualty", f"choose among {list(state.choice.options)}", field="piece")
    return [_lost(state, command.args["piece"])]


def piece_hit(state: State, data: dict[str, Any], secret: Any) -> State:
    battle = state.battle
    assert battle is not None
    side, kind = data["side"], data["piece"]
    front = put(battle.front, side, {**battle.front[side], kind: battle.front[side][kind] - 1})
    panicked = battle.panicked
    if data["how"] == "panicked":
        panicked = put(panicked, side, {**panicked[side], kind: panicked[side][kind] + 1})
    battle = replace(battle, front=front, panicked=panicked, roll=None)
    seat = (battle.attacker, battle.defender)[side]
    if data["how"] == "removed" and kind != "local" and seat >= 0:
        stack = state.stack(battle.hex, seat)
        state = with_stack(
            state, battle.hex, seat, replace(stack, pieces={**stack.pieces, kind: stack.pieces[kind] - 1})
        )
    state = replace(state, battle=battle, choice=None)
    if all(sum(f.values()) for f in front):
        return replace(state, due=Due("die", {"die": 6}))
    return state


def decide_card(state: State, command: Command) -> list[Event]:
    """Haka (roll again once a battle) or Arioi (cancel the attack before a roll): yes or no."""
    choice, battle = state.choice, state.battle
    assert choice is not None and battle is not None and command.seat is not None
    use = command.args.get("use")
    if not isinstance(use, bool):
        raise IllegalMove("bad_answer", "use is true or false", field="use")
    card = HAKA if choice.kind == "haka" else ARIOI
    if use and not holds(state, command.seat, card):
        raise IllegalMove("no_such_card", f"you hold no {card} to play", field="use")
    events = [_card_used(state, command.seat, card)] if use else []
    return events + [Event("CardAnswered", {"seat": command.seat, "card": card, "use": use})]


def card_answered(state: State, data: dict[str, Any], secret: Any) -> State:
    battle = state.battle
    assert battle is not None
    state = replace(state, choice=None)
    if data["card"] == ARIOI:
        if data["use"]:
            return replace(state, battle=replace(battle, winner=DEFENDER))
        return replace(state, due=Due("die", {"die": 6}))
    if not data["use"]:
        return _hit(state, battle)
    side = ATTACKER if data["seat"] == battle.attacker else DEFENDER
    return replace(
        state,
        battle=replace(battle, haka=put(battle.haka, side, True), roll=None),
        due=Due("die", {"die": 6}),
    )


def card_used(state: State, data: dict[str, Any], secret: Any) -> State:
    """A card used shows itself; a once-only card is spent (Q-D6)."""
    seat, card = data["seat"], data["card"]
    hands = list(state.hands)
    if card in hands[seat]:
        mine = list(hands[seat])
        mine.remove(card)
        hands[seat] = tuple(mine)
        state = replace(
            state, hands=tuple(hands), revealed=put(state.revealed, seat, state.revealed[seat] + (card,))
        )
    if card == ARIOI:
        mine = list(state.revealed[seat])
        mine.remove(card)
        state = replace(
            state,
            revealed=put(state.revealed, seat, tuple(mine)),
            spent_cards=put(state.spent_cards, seat, state.spent_cards[seat] + (card,)),
        )
    return state


def battle_ended(state: State, data: dict[str, Any], secret: Any) -> State:
    battle = state.battle
    assert battle is not None
    return replace(state, battle=replace(battle, winner=data["winner"]), due=None)


# --- after the battle -------------------------------------------------------------------


def _survivors(battle: Battle, side: int) -> Counts:
    front, panicked, rear = battle.front[side], battle.panicked[side], battle.rear[side]
    return counts(
        war_canoe=front["war_canoe"] + panicked["war_canoe"],
        band=front["band"] + panicked["band"] + rear["band"],
        transport=rear["transport"],
        colony=rear["colony"],
    )


def _enemy_fighters(state: State, seat: int) -> set[Hex]:
    return {
        at
        for (at, owner), s in state.stacks.items()
        if owner != seat and (s.pieces["war_canoe"] or s.pieces["band"])
    }


def _aftermath(state: State, battle: Battle) -> Event | None:
    loser_side = 1 - (battle.winner or 0)
    loser = (battle.attacker, battle.defender)[loser_side]
    if loser >= 0 and total(state.pieces(battle.hex, loser)):
        return _retreat(state, battle, loser)
    if state.choice is not None:
        return None
    if battle.winner == ATTACKER and battle.villages and not _conquered(state, battle):
        return _saving(state, battle)
    if battle.winner == ATTACKER and _conquest_due(state, battle):
        return Event(
            "GroupConquered", {"hex": list(battle.hex), "seat": battle.attacker, "saved": 0, "given": {}}
        )
    remaining = [[list(at), d] for at, d in _remaining(state, battle)]
    data: dict[str, Any] = {"hex": list(battle.hex), "winner": battle.winner, "remaining": remaining}
    lost = _adrift(state, battle)
    if lost:
        data["lost"] = lost
    return Event("BattleOver", data)


def _adrift(state: State, battle: Battle) -> dict[str, int]:
    """Our ruling (P-3.3 at sea): the winner's bands whose canoes sank in a battle at sea drown,
    as a retreat leaves behind what no canoe carries."""
    seat = (battle.attacker, battle.defender)[battle.winner or 0]
    if seat < 0 or not at_sea(state, battle.hex):
        return {}
    pieces = state.pieces(battle.hex, seat)
    kept = aboard(state, seat, pieces)
    return {kind: pieces[kind] - kept[kind] for kind in pieces if pieces[kind] > kept[kind]}


def _retreat(state: State, battle: Battle, loser: int) -> Event:
    """P-3.7: what can sail retreats to the nearest friendly group; what cannot is removed.

    Q-A4: towards the other New Zealand tile bands and colonies may wade, so that destination
    takes the whole force; each of the nearest groups is offered with what it takes.
    """
    side = ATTACKER if loser == battle.attacker else DEFENDER
    have = counts(**{k: v for k, v in _survivors(battle, side).items()})
    here = state.pieces(battle.hex, loser)
    have = {k: min(have[k], here[k]) for k in have}
    sailing = aboard(state, loser, counts(**{k: have[k] for k in have if k != "rumor"}))
    wading = {**sailing, "band": have["band"], "colony": have["colony"]}
    places = nearest_friendly(state, loser, battle.hex, _enemy_fighters(state, loser))
    # Every count here is of pieces the battle showed all, so the options reveal nothing hidden.
    takes = [dict(wading if wades(state, [battle.hex, p]) else sailing) for p in places]
    data: dict[str, Any] = {"hex": list(battle.hex), "seat": loser, "options": [list(p) for p in places]}
    if len(places) > 1:
        return Event("RetreatRequired", {**data, "pieces": dict(sailing), "takes": takes})
    to = list(places[0]) if places else None
    return Event("Retreated", {**data, "pieces": takes[0] if places else dict(sailing), "to": to})


def retreat_required(state: State, data: dict[str, Any], secret: Any) -> State:
    options = tuple(tuple(p) for p in data["options"])
    # Retreats offered before each destination carried its counts never offered a wade: each
    # destination took the canoes' load.
    takes = tuple(data.get("takes") or [data["pieces"]] * len(options))
    return replace(state, choice=Choice("retreat", data["seat"], options, {"takes": takes}))


def decide_retreat(state: State, command: Command) -> list[Event]:
    choice, battle = state.choice, state.battle
    assert choice is not None and battle is not None
    to = as_hex(command.args.get("hex"))
    if to not in choice.options:
        raise IllegalMove("bad_retreat", "retreat to one of the nearest friendly groups", field="hex")
    assert to is not None
    data = {
        "hex": list(battle.hex),
        "seat": command.seat,
        "pieces": dict(choice.data["takes"][choice.options.index(to)]),
        "to": list(to),
    }
    return [Event("Retreated", data)]


def retreated(state: State, data: dict[str, Any], secret: Any) -> State:
    at: Hex = tuple(data["hex"])
    seat = data["seat"]
    state = with_stack(state, at, seat, Stack(counts()))
    if data["to"] is not None:
        to: Hex = tuple(data["to"])
        old = state.stack(to, seat)
        moved = {k: old.pieces[k] + data["pieces"].get(k, 0) for k in old.pieces}
        state = with_stack(state, to, seat, replace(old, pieces=moved))
    return replace(state, choice=None)


def _conquest_due(state: State, battle: Battle) -> bool:
    island = state.islands.get(battle.hex)
    return island is not None and controller(island) == battle.defender


def _conquered(state: State, battle: Battle) -> bool:
    return not _conquest_due(state, battle)


def _saving(state: State, battle: Battle) -> Event:
    """P-3.7: the winner may give one unpanicked fighter per village it saves."""
    front = battle.front[ATTACKER]
    here = state.pieces(battle.hex, battle.attacker)
    canoes, bands = min(front["war_canoe"], here["war_canoe"]), min(front["band"], here["band"])
    options = [[w, b] for w in range(canoes + 1) for b in range(bands + 1) if w + b <= battle.villages]
    data = {"hex": list(battle.hex), "seat": battle.attacker, "options": options}
    if len(options) == 1:
        return Event(
            "GroupConquered", {"hex": list(battle.hex), "seat": battle.attacker, "saved": 0, "given": {}}
        )
    return Event("SavingOffered", data)


def saving_offered(state: State, data: dict[str, Any], secret: Any) -> State:
    options = tuple(tuple(o) for o in data["options"])
    return replace(state, choice=Choice("save", data["seat"], options))


def decide_save(state: State, command: Command) -> list[Event]:
    choice, battle = state.choice, state.battle
    assert choice is not None and battle is not None
    given = (command.args.get("war_canoes"), command.args.get("bands"))
    if given not in choice.options:
        raise IllegalMove("bad_saving", "give war_canoes and bands that did not panic, one per village")
    war, bands = int(given[0] or 0), int(given[1] or 0)
    data = {
        "hex": list(battle.hex),
        "seat": battle.attacker,
        "saved": war + bands,
        "given": {"war_canoe": war, "band": bands},
    }
    return [Event("GroupConquered", data)]


def group_conquered(state: State, data: dict[str, Any], secret: Any) -> State:
    """P-3.7: the villages go, but those saved; improved agriculture stays; a printed group is held."""
    at: Hex = tuple(data["hex"])
    seat, saved = data["seat"], data["saved"]
    island = state.islands[at]
    conquered = replace(
        island, owner=seat if saved else None, villages=saved, garrison=seat if island.printed else None
    )
    state = with_island(state, at, conquered)
    stack = state.stack(at, seat)
    given = data["given"]
    pieces = {k: v - given.get(k, 0) for k, v in stack.pieces.items()}
    state = with_stack(state, at, seat, replace(stack, pieces=pieces))
    if given.get("war_canoe") or given.get("band"):
        state = _given_up(state, seat, given.get("war_canoe", 0), given.get("band", 0))
    old = island.owner
    if old is not None and old >= 0:
        if state.kumara[old] and saved and not state.kumara[seat]:
            state = replace(state, kumara=put(state.kumara, seat, True))
        if state.bases[old] == at:
            choices = tuple(controlled(state, old))
            state = replace(state, bases=put(state.bases, old, None))
            if choices:
                return replace(state, choice=Choice("base", old, choices))
    return replace(state, choice=None)


def _given_up(state: State, seat: int, war: int, bands: int) -> State:
    """P-3.8: the fighters given to save villages leave the game (the seed: "retirer de la partie")."""
    before = state.given_up or ((0, 0),) * state.seats
    was = before[seat]
    return replace(state, given_up=put(before, seat, (was[0] + war, was[1] + bands)))


def decide_base(state: State, command: Command) -> list[Event]:
    """P-3.7: a player who lost its base names another of its groups as the new base."""
    assert state.choice is not None
    at = as_hex(command.args.get("hex"))
    if at not in state.choice.options:
        raise IllegalMove("bad_base", "name a group you control", field="hex")
    return [Event("BaseMoved", {"seat": command.seat, "hex": list(at) if at else None})]


def base_moved(state: State, data: dict[str, Any], secret: Any) -> State:
    return replace(state, bases=put(state.bases, data["seat"], tuple(data["hex"])), choice=None)


def _remaining(state: State, battle: Battle) -> list[tuple[Hex, int]]:
    return [
        b
        for b in battles_for(state, battle.attacker)
        if b in state.battles and b != (battle.hex, battle.defender)
    ]


def battle_over(state: State, data: dict[str, Any], secret: Any) -> State:
    remaining = tuple((tuple(at), d) for at, d in data["remaining"])
    battle = state.battle
    if data.get("lost") and battle is not None:
        seat = (battle.attacker, battle.defender)[data["winner"] or 0]
        stack = state.stack(battle.hex, seat)
        left = {k: v - data["lost"].get(k, 0) for k, v in stack.pieces.items()}
        state = with_stack(state, battle.hex, seat, replace(stack, pieces=left))
    state = replace(state, battle=None, battles=remaining)
    if remaining:
        return replace(state, choice=Choice("fight", state.seat, remaining))
    return replace(state, active=state.active + 1, transit_open=True, moved=False, choice=None)


EVOLVERS = {
    "BattleStarted": battle_started,
    "DieRolled": die_rolled,
    "PieceHit": piece_hit,
    "CardUsed": card_used,
    "CardAnswered": card_answered,
    "BattleEnded": battle_ended,
    "RetreatRequired": retreat_required,
    "Retreated": retreated,
    "SavingOffered": saving_offered,
    "GroupConquered": group_conquered,
    "BaseMoved": base_moved,
    "BattleOver": battle_over,
}
