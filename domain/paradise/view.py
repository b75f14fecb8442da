"""What one seat may see (Q-2): its own stacks, tiles and cards; of the others', only what the
table shows (how many pieces in a stack, a face-up transport, cards shown)."""

from __future__ import annotations

from typing import Any

from domain.paradise import engine
from domain.paradise.empire import vp_halves
from domain.paradise.state import Island, Stack, State
from domain.paradise.tables import Hex
from domain.paradise.victory import target


def _hex(at: tuple[int, int]) -> list[int]:
    return [at[0], at[1]]


def view(state: State, seat: int | None) -> dict[str, Any]:
    ended = state.result is not None
    islands = [_island(at, island, seat, ended) for at, island in sorted(state.islands.items())]
    stacks = [_stack(at, owner, stack, seat, ended) for (at, owner), stack in sorted(state.stacks.items())]
    players = [_player(state, n, name, n == seat or ended) for n, name in enumerate(state.names)]
    seats = [{"seat": n, "name": name} for n, name in enumerate(state.names)]
    acting = list(engine.acting(state))
    exp = state.expedition
    return {
        "game": "conquest-of-paradise",
        "phase": "ended" if ended else state.phase,
        "turn": state.turn,
        "active": acting[0] if acting else None,
        "acting": acting,
        "seats": seats,
        "players": players,
        "order": list(state.order),
        "marker": state.marker,
        "target": target(state),
        "islands": islands,
        "ocean": sorted(_hex(at) for at in state.ocean),
        "unknown": sorted(_hex(at) for at in state.unknown),
        "stacks": stacks,
        "expedition": None
        if exp is None
        else {"seat": exp.seat, "hex": _hex(exp.at) if exp.at else None, "knots": exp.knots},
        "chits_left": sum(state.chits),
        "tiles_left": len(state.tiles),
        "deck_left": len(state.deck),
        "battle": _battle(state),
        "choice": None
        if state.choice is None
        else {"kind": state.choice.kind, "seat": state.choice.seat, "options": _plain(state.choice.options)},
        "draft": _draft(state, seat),
        "result": dict(state.result) if state.result else None,
    }


def _island(at: Hex, island: Island, seat: int | None, ended: bool) -> dict[str, Any]:
    """An island as `seat` sees it: its face, and all it holds once the seat has seen it."""
    seen = island.face_up or island.printed or ended or (seat is not None and seat in island.discoverers)
    shown = {"hex": _hex(at), "face_up": island.face_up, "discoverers": list(island.discoverers)}
    if seen:
        shown |= {
            "name": island.name,
            "green": island.green,
            "brown": island.brown,
            "atoll": island.atoll,
            "owner": island.owner,
            "villages": island.villages,
            "agriculture": island.agriculture,
            "warriors": island.warriors,
        }
    return shown


def _stack(at: Hex, owner: int, stack: Stack, seat: int | None, ended: bool) -> dict[str, Any]:
    """A stack: its size and face-up transport to all, its pieces to its owner (all at the end)."""
    entry: dict[str, Any] = {"hex": _hex(at), "seat": owner, "count": sum(stack.pieces.values())}
    entry["face_up_transport"] = stack.shown
    if owner == seat or ended:
        entry["pieces"] = dict(stack.pieces)
        entry["moved"] = dict(stack.spent)
    return entry


def _player(state: State, n: int, name: str, mine: bool) -> dict[str, Any]:
    """Seat `n`'s line of the table; its cards only when `mine` (its own view, or the end)."""
    return {
        "seat": n,
        "name": name,
        "base": _hex(b) if (b := state.bases[n]) else None,
        "explorer": list(e) if isinstance(e := state.explorers[n], tuple) else e,
        "vp": _vp(state, n),
        "cards_shown": list(state.revealed[n]),
        "cards_held": len(state.hands[n]),
        "cards": list(state.hands[n]) if mine else None,
        "kumara": state.kumara[n],
        "saved": state.saved[n],
        "committed": state.drafts[n].committed,
    }


def _vp(state: State, seat: int) -> float:
    """`seat`'s VP: the seed's track (face-down cards left out) in play, the result's after the end.

    The end reveals every hand and the result counts it; the track alone would then differ
    from the result by the cards no one had turned up.
    """
    if state.result is not None:
        return float(state.result["vp"][seat])
    return vp_halves(state, seat) / 2


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _battle(state: State) -> dict[str, Any] | None:
    b = state.battle
    if b is None:
        return None
    return {
        "hex": _hex(b.hex),
        "attacker": b.attacker,
        "defender": b.defender,
        "front": [dict(f) for f in b.front],
        "panicked": [dict(p) for p in b.panicked],
        "rear": [dict(r) for r in b.rear],
        "villages": b.villages,
    }


def _draft(state: State, seat: int | None) -> dict[str, Any] | None:
    if seat is None:
        return None
    d = state.drafts[seat]
    items = [{"item": item, "hex": _hex(at) if at else None} for item, at in d.items]
    return {"items": items, "rotate": d.rotate, "save": d.save, "committed": d.committed}
