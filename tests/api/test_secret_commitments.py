"""No hash or digest a viewer receives can be tested against guesses of a secret it may not read.

Each game kind is played to its end through the service; at a moment in play (for Opodopo,
while an O-2 choice waits for the last seat) and after the end, every viewer (a spectator
and each seat) fetches /events, /stream and /export (with its token and without). For
every event still redacted for that viewer, every value the secret could hold (derived
from the deck) is hashed the ways an attacker would — plainly, and inside the event's hash
with every field the viewer received — and compared with every hex digest it was shown.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain.games import rules_for
from domain.islands import engine
from domain.turns import Score
from record.canonical import canonical_json
from replays import archive
from service.api.context import EXTENSION
from service.games import GameService
from tests.api.helpers import NAMES, bearer, sse_events
from tests.replays.play import pick

HEX64 = re.compile(r"^[0-9a-f]{64}$")
ENUMERATE_AT_MOST = 60_000
"""Sequences of cards tried in every order up to this many; longer ones as sorted multisets."""
NOT_HASHED = {"hash", "redacted", "kind", "secret", "salt", "secret_digest", "position"}
SENTINEL = "\u0000candidate\u0000"
SINGLE_CARD = ("CardDrawn", "FaceUpChosen", "CardTaken", "CardGiven")

KINDS: dict[str, dict[str, Any]] = {
    "kahuna": {"game": "kahuna", "seats": 2},
    "kahuna-later": {"game": "kahuna", "seats": 2, "options": {"edition": "thames-kosmos"}},
    "ikibiti": {"game": "arabana-ikibiti", "seats": 2},
    "ikibiti-seafarers": {"game": "arabana-ikibiti", "seats": 2, "options": {"seafarers": True}},
    "ikibiti-handicap": {
        "game": "arabana-ikibiti",
        "seats": 2,
        "options": {"handicap": {"seat": 1, "free_bridges": 2, "extra_cards": 1}},
    },
    "opodopo-3": {"game": "arabana-opodopo", "seats": 3},
    "opodopo-3-gods": {"game": "arabana-opodopo", "seats": 3, "options": {"gods": True}},
    "opodopo-4": {"game": "arabana-opodopo", "seats": 4},
    "opodopo-4-gods": {"game": "arabana-opodopo", "seats": 4, "options": {"gods": True}},
}
CASES = [(kind, False) for kind in KINDS] + [("kahuna", True), ("opodopo-4-gods", True)]


def service_of(app: Flask) -> GameService:
    service: GameService = app.extensions[EXTENSION]
    return service


# --- what each viewer receives -----------------------------------------------------------


def received(client: FlaskClient, game: dict[str, Any], viewer: int | None, stream: bool) -> list[Any]:
    """Every body `viewer` can fetch about the game's events: the feed, the stream, exports."""
    game_id = game["game_id"]
    headers = {} if viewer is None else bearer(game["tokens"][viewer])
    bodies: list[Any] = [client.get(f"/games/{game_id}/events?after=0", headers=headers).json]
    exports = [client.get(f"/games/{game_id}/export").get_data()]
    if viewer is not None:
        exports.append(client.get(f"/games/{game_id}/export", headers=headers).get_data())
    for content in exports:
        # Whatever a viewer is given, it can check the whole chain with it.
        verdict = archive.verify(content)
        assert verdict.ok, verdict
        bodies.append([json.loads(line) for line in content.splitlines()])
    if stream:
        bodies.append(sse_events(client.get(f"/games/{game_id}/stream", headers=headers)))
    return bodies


def event_dicts(value: Any) -> Iterator[dict[str, Any]]:
    """Every dict that looks like an event (it has a version and a type) inside `value`."""
    if isinstance(value, dict):
        if "version" in value and "type" in value and "kind" not in value or value.get("kind") == "event":
            yield value
        for inner in value.values():
            yield from event_dicts(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from event_dicts(inner)


def hex_digests(value: Any) -> set[str]:
    """Every 64-hex-digit string anywhere in `value`: what a guess could be compared with."""
    if isinstance(value, str):
        return {value} if HEX64.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(hex_digests(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(hex_digests(v) for v in value)) if value else set()
    return set()


# --- what a secret could be --------------------------------------------------------------


def card_sequences(deck: tuple[str, ...], length: int) -> list[list[str]]:
    """Every list of `length` cards the deck can supply, in every order when that stays small."""
    counts = Counter(deck)
    names = sorted(counts)
    if len(names) ** length <= ENUMERATE_AT_MOST:
        every = itertools.product(names, repeat=length)
    else:
        every = itertools.combinations_with_replacement(names, length)
    return [list(cards) for cards in every if all(cards.count(c) <= counts[c] for c in set(cards))]


@cache
def candidates(deck: tuple[str, ...], type_: str, count: int | None, hand_limit: int) -> tuple[str, ...]:
    """The canonical JSON of every secret an event of `type_` could hold."""
    names = sorted(set(deck))
    if type_ in SINGLE_CARD:
        values: Iterable[dict[str, Any]] = ({"card": c} for c in names)
    elif type_ in ("HandDealt", "CardsDiscarded") and count is not None:
        values = ({"cards": cards} for cards in card_sequences(deck, count))
    elif type_ == "HandShown":
        values = ({"cards": cards} for n in range(hand_limit + 2) for cards in card_sequences(deck, n))
    elif type_ == "ChoiceRequired":  # G-6: the distinct cards of a hand, sorted
        values = (
            {"options": list(subset)}
            for n in range(1, hand_limit + 2)
            for subset in itertools.combinations(names, n)
        )
    else:
        raise AssertionError(f"no candidates for a redacted {type_}: teach this test its secret")
    return tuple(canonical_json(v) for v in values)


def limits(setup: dict[str, Any]) -> tuple[tuple[str, ...], int]:
    rules = rules_for(setup["game"]).initial_state(setup).rules
    return tuple(rules.deck), max(rules.hand_limit_of(s) for s in range(len(setup["seats"])))


# --- the attack --------------------------------------------------------------------------


def hasher(body: dict[str, Any], field: str) -> tuple[Any, bytes]:
    """sha256 state over the canonical body up to `field`'s value, and the bytes after it."""
    text = canonical_json({**body, field: SENTINEL})
    before, after = text.split(canonical_json(SENTINEL))
    return hashlib.sha256(before.encode()), after.encode()


def guessed_hashes(body: dict[str, Any], secrets: tuple[str, ...]) -> dict[str, str]:
    """Every hash an attacker computes from each candidate secret -> that candidate.

    Plainly; inside the event's hash in place of the secret; and as an unsalted digest
    inside the event's hash.
    """
    in_clear, after_clear = hasher(body, "secret")
    in_digest, after_digest = hasher(body, "secret_digest")
    found = {}
    for secret in secrets:
        plain = hashlib.sha256(secret.encode()).hexdigest()
        whole = in_clear.copy()
        whole.update(secret.encode() + after_clear)
        digested = in_digest.copy()
        digested.update(f'"{plain}"'.encode() + after_digest)
        for guess in (plain, whole.hexdigest(), digested.hexdigest()):
            found[guess] = secret
    return found


def exposure(bodies: list[Any]) -> tuple[dict[int, dict[str, Any]], set[int], set[str]]:
    """What one viewer holds: every event's fields, the events still hidden from it, every digest."""
    known: dict[int, dict[str, Any]] = {}
    redacted: set[int] = set()
    opened: set[int] = set()
    for event in (e for body in bodies for e in event_dicts(body)):
        known.setdefault(event["version"], {}).update(event)
        if event.get("redacted"):
            assert event.get("salt") is None, event
            redacted.add(event["version"])
        elif event.get("secret") is not None:
            opened.add(event["version"])  # e.g. a seat's own card, withheld in the spectators' file
    return known, redacted - opened, hex_digests(bodies)


def attack(
    received_by: dict[int | None, list[Any]], setup: dict[str, Any], truth: dict[int, Any]
) -> tuple[int, list[str]]:
    """(redacted events tried, what leaked) for what each viewer received."""
    deck, hand_limit = limits(setup)
    exposed = {viewer: exposure(bodies) for viewer, bodies in received_by.items()}
    # One attack per event and hashed fields, whoever holds them (they are the same for all).
    targets: dict[str, list[int | None]] = {}
    for viewer, (known, hidden, _) in exposed.items():
        for version in hidden:
            if known[version]["type"] in ("DeckShuffled", "GameCreated"):
                continue  # a permutation of the whole deck, the deal's 32-byte seed: far beyond guessing
            body = {k: v for k, v in known[version].items() if k not in NOT_HASHED}
            targets.setdefault(canonical_json(body), []).append(viewer)
    leaks = []
    for body_json, viewers in targets.items():
        event = json.loads(body_json)
        count = event["data"].get("count")
        secrets = candidates(deck, event["type"], count, hand_limit)
        if event["type"] in SINGLE_CARD or (count is not None and count <= 3):
            # The candidates hold every value here: the true one must be among them.
            assert canonical_json(truth[event["version"]]) in secrets, (event, truth[event["version"]])
        guessed = guessed_hashes(event, secrets)
        for viewer in viewers:
            found = {guessed[digest] for digest in exposed[viewer][2] & guessed.keys()}
            where = f"viewer {viewer}, event {event['version']} {event['type']}"
            leaks += [f"{where}: {secret}" for secret in sorted(found)]
    return len(targets), leaks


# --- the games ---------------------------------------------------------------------------


def create(client: FlaskClient, kind: str, reveal: bool) -> dict[str, Any]:
    spec = KINDS[kind]
    body: dict[str, Any] = {
        "game": spec["game"],
        "seats": [{"name": n} for n in NAMES[: spec["seats"]]],
        "first_seat": 0,
        "reveal_after_end": reveal,
        **({"options": spec["options"]} if "options" in spec else {}),
    }
    answer = client.post("/games", json=body)
    assert answer.status_code == 201, answer.json
    game: dict[str, Any] = answer.json
    game["tokens"] = [s["token"] for s in game["seats"]]
    game["setup"] = body
    return game


def play_one(service: GameService, game_id: str, rng: random.Random) -> bool:
    """One random legal command (or the scoring due); False once the game has ended."""
    loaded = service.load(game_id)
    if engine.is_terminal(loaded.state):
        return False
    pending = engine.pending_system(loaded.state)
    if isinstance(pending, Score):
        service.score_round(game_id, pending.round)
        return True
    command = pick(rng, loaded.state)
    service.execute(game_id, command.seat, command.to_json())
    return True


def in_play_moment(service: GameService, game_id: str) -> bool:
    """A moment worth looking at in play: an O-2 choice made but not yet revealed, or round 2."""
    envelopes = service.load(game_id).envelopes
    if envelopes[-1].type == "FaceUpChosen":
        return True
    return any(e.type == "RoundStarted" and e.data.get("round") == 2 for e in envelopes[-1:])


@pytest.mark.parametrize(("kind", "reveal"), CASES)
def test_no_hash_or_digest_a_viewer_receives_confirms_a_guessed_secret(
    kind: str, reveal: bool, app: Flask, client: FlaskClient
) -> None:
    game = create(client, kind, reveal)
    service = service_of(app)
    game_id = game["game_id"]
    viewers = [None, *range(len(game["tokens"]))]
    rng = random.Random(7)
    looked_in_play = False
    tried = 0
    leaks: list[str] = []

    def look(stream: bool) -> None:
        nonlocal tried
        truth = {e.version: e.secret for e in service.store.read(game_id)}
        bodies = {viewer: received(client, game, viewer, stream) for viewer in viewers}
        attempts, found = attack(bodies, game["setup"], truth)
        tried += attempts
        leaks.extend(found)

    for _ in range(5000):
        if not play_one(service, game_id, rng):
            break
        if not looked_in_play and in_play_moment(service, game_id):
            looked_in_play = True
            look(stream=True)
    else:
        raise AssertionError("no end after 5000 commands")
    look(stream=not reveal)

    assert looked_in_play and tried > 0
    assert leaks == [], f"{len(leaks)} secrets given away, e.g. {leaks[:5]}"
