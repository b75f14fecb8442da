"""Random games of every kind: no answer lets a viewer learn a value it may not see.

For each game kind, hypothesis plays a random game through the HTTP API and, at random
moments and at the end, collects everything each viewer (every seat and a spectator) can
fetch: the view (now and `?at` an earlier version), `/legal`, the event feed and stream, the
replay, the export, the notation, the annotation layers and the takeback in progress; and the
problem body of a refused command. Then, for every stored event whose secret that viewer may
not read at that moment:

- the event is shown redacted, and nothing of the secret or of its salt appears in any answer;
- a refused command that names a card the viewer does not hold gets the same answer whether
  another seat holds that card or it lies in the stack (an error body is no oracle);
- the AI input of that seat (`knowledge_for`) is the same when every secret it may not read is
  replaced by another value (the computer player cannot peek either).

Hashes and digests are covered by test_secret_commitments.py; views built from a state whose
hidden cards were reshuffled are compared in the domain playouts (check_views).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from record.envelope import Envelope
from record.redaction import may_read_secret
from service.api.context import EXTENSION
from service.computer_seats import knowledge_for
from service.games import GameService
from service.loaded import Loaded
from service.store import EventStore
from tests.api.helpers import NAMES, bearer, choose, legal_commands, post, view
from tests.hypothesis_profiles import examples

KINDS: dict[str, dict[str, Any]] = {
    "kahuna": {"game": "kahuna"},
    "kahuna-thames-kosmos": {"game": "kahuna", "options": {"edition": "thames-kosmos"}},
    "ikibiti": {"game": "arabana-ikibiti"},
    "ikibiti-seafarers-handicap": {
        "game": "arabana-ikibiti",
        "options": {
            "seafarers": True,
            "handicap": {"seat": 1, "free_bridges": 2, "extra_cards": 1, "hand_limit": 6},
        },
    },
    "opodopo-3": {"game": "arabana-opodopo", "seats": 3},
    "opodopo-4-gods": {"game": "arabana-opodopo", "seats": 4, "options": {"gods": True}},
    # Computer seats read the game through knowledge_for, and the analysis layer follows the end.
    "opodopo-3-two-computers": {
        "game": "arabana-opodopo",
        "seats": [
            {"name": "Ann"},
            {"name": "Bot", "ai": "greedy", "level": 1},
            {"name": "Rob", "ai": "random"},
        ],
    },
    # Conquest of Paradise: face-down tiles, stacks, build orders and cards; chained draws.
    "paradise-3-two-computers": {
        "game": "conquest-of-paradise",
        "seats": [{"name": "Ann"}, {"name": "Bot", "ai": "random"}, {"name": "Rob", "ai": "random"}],
        "options": {"last_turn": 3},
    },
    "paradise-4-advanced": {
        "game": "conquest-of-paradise",
        "seats": 4,
        "options": {"last_turn": 3, "malaria": True, "kumara": True, "saved_resources": True},
    },
    # A family that lives in the tests (tests/families): the pile's size, the server's alone.
    "hidden-nim-computer": {
        "game": "hidden-nim",
        "seats": [{"name": "Ann"}, {"name": "Bot", "ai": "greedy"}],
    },
}
# Two games per kind in CI's full profile, one in the quick one; LEAK_EXAMPLES=50 for a long run.
EXAMPLES = int(os.environ.get("LEAK_EXAMPLES", examples(share=100)))
LONG_LIST = 6  # a list of this many cards in a row is no public coincidence (stack orders)


Answers = list[tuple[str, str]]
"""(what was fetched, the answer's text) as one viewer received them."""


def create(client: FlaskClient, kind: dict[str, Any], reveal: bool) -> dict[str, Any]:
    seats = kind.get("seats", 2)
    body = {
        "game": kind["game"],
        "seats": seats if isinstance(seats, list) else [{"name": n} for n in NAMES[:seats]],
        "first_seat": 0,
        "options": kind.get("options", {}),
        "reveal_after_end": reveal,
    }
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.json
    game: dict[str, Any] = response.json
    game["tokens"] = [s.get("token") for s in game["seats"]]
    return game


def fetch_all(
    client: FlaskClient, game: dict[str, Any], viewer: int | None, at: int, stream: bool
) -> Answers:
    """Every answer `viewer` can get about the game now."""
    gid = game["game_id"]
    headers = {} if viewer is None else bearer(game["tokens"][viewer])
    paths = [
        f"/games/{gid}",
        f"/games/{gid}?at={at}",
        f"/games/{gid}/events?after=0",
        f"/games/{gid}/replay",
        f"/games/{gid}/export",
        f"/games/{gid}/notation",
        f"/games/{gid}/annotations",
        f"/games/{gid}/takebacks/current",
    ]
    if viewer is not None:
        paths.append(f"/games/{gid}/legal")
    if stream:
        paths.append(f"/games/{gid}/stream?after=0")
    answers = []
    for path in paths:
        response = client.get(path, headers=headers)
        assert response.status_code < 500, (path, response.data[:300])
        answers.append((path, response.get_data(as_text=True)))
    return answers


def refused_answers(client: FlaskClient, game: dict[str, Any], service: GameService, seat: int) -> Answers:
    """The problem bodies of `seat` playing a card another seat holds, and one from the stack.

    Both are refused; they must read the same once the card and its line are blanked out.
    """
    loaded = service.load(game["game_id"])
    state = loaded.state
    if not hasattr(state, "hands"):
        return []  # a game without hands of cards has no card to ask this of
    own = set(state.hands[seat])
    held = sorted({c for s in range(state.seats) if s != seat for c in state.hands[s]} - own)
    stacked = sorted(set(state.stack) - own - set(held))
    if not held or not stacked:
        return []
    bodies = []
    for card in (held[0], stacked[0]):
        line = next(list(pair) for pair in state.rules.board.lines if card in pair)
        before = service.store.version(game["game_id"])
        answer = post(client, game, seat, {"type": "PlaceBridge", "card": card, "line": line})
        assert 400 <= answer.status_code < 500, answer.json
        assert service.store.version(game["game_id"]) == before, "a refused command wrote something"
        text = answer.get_data(as_text=True)
        for name in {card, *line}:
            text = text.replace(name, "X")
        bodies.append(text)
    assert bodies[0] == bodies[1], "the refusal tells whether another seat holds the card"
    return [("refused command", bodies[0])]


def unreadable(envelopes: list[Envelope], viewer: int | None, revealed: bool) -> list[Envelope]:
    return [e for e in envelopes if e.secret is not None and not may_read_secret(e, viewer, revealed)]


def parsed(text: str) -> Iterator[Any]:
    """Every JSON value in an answer: the body, each ndjson line or each SSE frame's data."""
    try:
        yield json.loads(text)
        return
    except ValueError:
        pass
    for line in text.splitlines():
        line = line.removeprefix("data: ")
        try:
            yield json.loads(line)
        except ValueError:
            continue


def walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def long_lists(secret: Any) -> list[list[Any]]:
    return [v for v in walk(secret) if isinstance(v, list) and len(v) >= LONG_LIST]


def check_answers(answers: Answers, hidden: list[Envelope], viewer: int | None) -> None:
    """Nothing of a hidden secret in any answer; its events shown redacted."""
    by_version = {e.version: e for e in hidden}
    salts = [str(s) for e in hidden if (s := getattr(e, "salt", None))]
    orders = [order for e in hidden for order in long_lists(e.secret)]
    for what, text in answers:
        for salt in salts:
            assert salt not in text, f"{what} shows the salt of a secret {viewer} may not read"
        for value in parsed(text):
            for item in walk(value):
                if isinstance(item, list) and len(item) >= LONG_LIST:
                    assert item not in orders, f"{what} shows a hidden order to {viewer}"
                if isinstance(item, dict) and item.get("version") in by_version and "type" in item:
                    envelope = by_version[item["version"]]
                    if item["type"] != envelope.type or "data" not in item:
                        continue  # not an event (e.g. a view's version)
                    assert item.get("secret") is None, f"{what}: event {envelope.version} to {viewer}"
                    assert item.get("salt") is None, f"{what}: salt of {envelope.version} to {viewer}"


def perturbed(loaded: Loaded, hidden: list[Envelope]) -> Loaded:
    """The same game with every secret in `hidden` swapped for another value of that secret's shape."""
    versions = {e.version for e in hidden}
    rng = random.Random(len(hidden))

    def other(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: other(v) for k, v in value.items()}
        if isinstance(value, list):
            return rng.sample([other(v) for v in value], len(value))[::-1] + ["?"]
        if isinstance(value, str):
            return value[::-1] + "?"
        if isinstance(value, int) and not isinstance(value, bool):
            return value + 7
        return value

    envelopes = [replace(e, secret=other(e.secret)) if e.version in versions else e for e in loaded.envelopes]
    return replace(loaded, envelopes=envelopes)


def hidden_tiles(loaded: Loaded, viewer: int | None) -> list[str]:
    """Conquest of Paradise: the names of the face-down tiles `viewer` has not examined."""
    state = loaded.state
    if loaded.rules.name != "conquest-of-paradise" or loaded.rules.is_terminal(state):
        return []
    return [
        island.name
        for island in state.islands.values()
        if not (island.face_up or island.printed or viewer in island.discoverers)
    ]


def check_tiles(answers: Answers, names: list[str], viewer: int | None) -> None:
    """No answer names a face-down tile the viewer has not seen (the map's fog of war)."""
    for what, text in answers:
        for name in names:
            assert name not in text, f"{what} names the face-down tile {name} to {viewer}"


def check_ai_input(service: GameService, game_id: str, seats: int) -> None:
    """Each seat's AI input does not change when the secrets it may not read do."""
    loaded = service.load(game_id)
    for seat in range(seats):
        hidden = unreadable(loaded.envelopes, seat, revealed=False)
        if hidden:
            assert knowledge_for(loaded, seat) == knowledge_for(perturbed(loaded, hidden), seat)


def play_and_check(
    client: FlaskClient, service: GameService, run_jobs: Callable[[], None], game: dict[str, Any], seed: int
) -> int:
    """Play a random game to the end, checking every viewer's answers now and then; the checks made."""
    rng = random.Random(seed)
    seats = len(game["tokens"])
    people = [seat for seat, token in enumerate(game["tokens"]) if token is not None]
    checked, streamed = 0, False
    for _ in range(5000):
        current = view(client, game)
        ended = current["phase"] == "ended"
        if ended or rng.random() < 0.06:
            stream = ended or not streamed
            streamed = streamed or stream
            stored = service.store.read(game["game_id"])
            revealed = ended and bool(stored[0].data.get("reveal_after_end", True))
            at = rng.randint(1, len(stored))
            if ended:
                run_jobs()  # the analysis of a game with computer seats
            for viewer in [None, *people]:
                answers = fetch_all(client, game, viewer, at, stream)
                if viewer is not None and current["phase"] == "play" and current["active"] == viewer:
                    answers += refused_answers(client, game, service, viewer)
                check_answers(answers, unreadable(stored, viewer, revealed), viewer)
                check_tiles(answers, hidden_tiles(service.load(game["game_id"]), viewer), viewer)
                checked += 1
            check_ai_input(service, game["game_id"], seats)
        if ended:
            return checked
        if current["phase"] == "scoring":
            run_jobs()
            continue
        legal = {seat: legal_commands(client, game, seat)["commands"] for seat in people}
        movers = [seat for seat, commands in legal.items() if commands]
        if not movers:  # a computer seat's move
            run_jobs()
            continue
        seat = current["active"] if current["active"] in movers else rng.choice(movers)
        answer = post(client, game, seat, choose(rng, legal[seat]))
        assert answer.status_code == 200, answer.json
    raise AssertionError("no end after 5000 commands")


@pytest.mark.parametrize("kind", KINDS.values(), ids=KINDS.keys())
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), reveal=st.booleans())
def test_no_answer_shows_a_viewer_what_it_may_not_see(
    test_families: None,
    kind: dict[str, Any],
    seed: int,
    reveal: bool,
    client: FlaskClient,
    run_jobs: Callable[[], None],
    redis_client: redis.Redis,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Searches of a few iterations, ended by count not clock: behaviour, not strength.
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "4")
    monkeypatch.setenv("ARCHIPELAGO_AI_SECONDS", "1=60,2=60,3=60,4=60,5=60")
    monkeypatch.setenv("ARCHIPELAGO_ANALYSIS_SECONDS", "60")
    redis_client.flushall()  # hypothesis runs many games on one function-scoped database
    service: GameService = client.application.extensions[EXTENSION]
    assert isinstance(service.store, EventStore)
    game = create(client, kind, reveal)
    checked = play_and_check(client, service, run_jobs, game, seed)
    assert checked >= 2  # at least the end, for a seat and a spectator


def test_the_checks_catch_a_leak() -> None:
    """The answer check finds a hidden order or an unredacted event when one is shown."""
    hidden = Envelope(
        version=3,
        type="DeckShuffled",
        schema=1,
        data={},
        secret={"order": list(range(10))},
        audience=(),
        actor="system",
        command_id="c",
        event_id="c:0",
        at="",
        prev_hash="",
        hash="",
        position=3,
    )
    leaked_order = [("feed", json.dumps({"any": {"deep": list(range(10))}}))]
    leaked_event = [
        (
            "feed",
            json.dumps(
                {"events": [{"version": 3, "type": "DeckShuffled", "data": {}, "secret": {"order": [1]}}]}
            ),
        )
    ]
    for answers in (leaked_order, leaked_event):
        with pytest.raises(AssertionError):
            check_answers(answers, [hidden], None)
    check_answers(
        [
            (
                "feed",
                json.dumps(
                    {
                        "events": [
                            {
                                "version": 3,
                                "type": "DeckShuffled",
                                "data": {},
                                "secret": None,
                                "redacted": True,
                            }
                        ]
                    }
                ),
            )
        ],
        [hidden],
        None,
    )


def test_the_tile_check_catches_a_named_face_down_tile() -> None:
    with pytest.raises(AssertionError):
        check_tiles([("view", json.dumps({"islands": [{"name": "Rapa Nui"}]}))], ["Rapa Nui"], 1)
    check_tiles([("view", json.dumps({"islands": [{"hex": [3, 4]}]}))], ["Rapa Nui"], 1)
