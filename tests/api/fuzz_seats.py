"""Real ids and tokens for the long schemathesis run (tests/api/fuzz_hooks.py), so that its
requests about a game, a tournament or an account get past the 404 and the 401 to the rules.

schemathesis knows no seat's token: a game it creates in a stateful sequence answers its tokens
once, and the ids it makes up name nothing. `Keys` learns the tokens of every game, tournament and
entrant the run creates, keeps a few of its own (a game of each kind it plays, one with an open
seat, a Kahuna tournament's game, an account's session) and puts them on a request just before it is sent:
an id the run made up is swapped for one of its own in three requests of four, and the token of
the game, tournament or entrant named goes with it; one command of two to a game it knows is
one the rules take now, so that its games move on to where undo, takebacks and rematches are.
A part the run made invalid on purpose (a negative case's id or Authorization header) is left as
it is, so the request stays invalid.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import requests
from schemathesis.generation.meta import negated_parameters

GAMES = ("kahuna", "hidden-nim")
"""The kinds of the games of its own, in turn (a kind the service does not know is skipped)."""
FRESH_EVERY = 40
"""Requests one game of its own serves before the next is made: play, resign and abort end
games, and a new one starts again from the deal."""
SWAPPED = 4
"""Of every SWAPPED made-up ids, all but one are swapped for a real one: the rest stay 404s."""
SESSION = "archipelago_session"
PASSWORD = "a long enough fuzzing secret"


@dataclass
class Keys:
    """Tokens by the id they open: seats' by game, organizers' and entrants' by tournament."""

    base: str = ""
    seats: dict[str, list[str]] = field(default_factory=dict)
    organizers: dict[str, str] = field(default_factory=dict)
    entrants: dict[str, list[str]] = field(default_factory=dict)
    tournament_of: dict[str, str] = field(default_factory=dict)
    mine: list[str] = field(default_factory=list)
    cup_game: str = ""
    session: str = ""
    served: int = 0
    turns: itertools.count[int] = field(default_factory=itertools.count)
    # Seats take turns on their own count: on `turns`, which each request also draws from, a
    # game's two seats would fall into step with the requests and one of them never be chosen.
    seat_turns: itertools.count[int] = field(default_factory=itertools.count)

    def learn(self, method: str, path: str, status: int, body: Any) -> None:
        """Keep the tokens a created game, tournament or entrant answers with."""
        if method != "POST" or status != 201 or not isinstance(body, dict):
            return
        if path in ("/games", "/games/import") and "game_id" in body:
            self.seats[body["game_id"]] = [s.get("token", "") for s in body.get("seats", [])]
        elif path == "/tournaments" and "organizer_token" in body:
            self.organizers[body["tournament_id"]] = body["organizer_token"]
        elif path.endswith("/entrants") and "token" in body:
            self.entrants.setdefault(path.split("/")[2], []).append(body["token"])

    def game(self) -> str:
        """A game of its own, a fresh one every FRESH_EVERY requests; the cup's game in one of four."""
        self.served += 1
        if not self.mine or self.served % FRESH_EVERY == 0:
            self._create_game(len(self.mine))
        return self.cup_game if self.served % 4 == 0 else self.mine[-1]

    def seat_token(self, game_id: str) -> str | None:
        tokens = [t for t in self.seats.get(game_id, []) if t]
        return tokens[next(self.seat_turns) % len(tokens)] if tokens else None

    def _post(self, path: str, body: dict[str, Any], token: str = "") -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = requests.post(f"{self.base}{path}", json=body, headers=headers, timeout=30)
        answer.raise_for_status()
        created: dict[str, Any] = answer.json()
        self.learn("POST", path, answer.status_code, created)
        return created

    def _create_game(self, n: int) -> None:
        kind = GAMES[n % len(GAMES)]
        seats: list[dict[str, Any]] = [{"name": "Ann"}, {"name": "Ben"}]
        if n % (len(GAMES) + 1) == len(GAMES):
            seats[1] = {"open": True}  # a game whose seat 1 waits to be taken
        try:
            created = self._post("/games", {"game": kind, "seats": seats, "first_seat": 0})
        except requests.HTTPError:
            created = self._post("/games", {"game": GAMES[0], "seats": seats, "first_seat": 0})
        self.mine.append(created["game_id"])

    def _create_cup(self) -> None:
        """A Kahuna tournament of two people, its first round paired: a game under its organizer."""
        cup = self._post("/tournaments", {"name": "Fuzz Cup", "game": GAMES[0], "format": "round_robin"})
        tid, organizer = cup["tournament_id"], cup["organizer_token"]
        entrants = [self._post(f"/tournaments/{tid}/entrants", {"name": n}) for n in ("Ann", "Ben")]
        for command in ({"type": "StartTournament"}, {"type": "PairRound"}):
            self._post(f"/tournaments/{tid}/commands", command, organizer)
        for entrant in entrants:
            game = requests.get(
                f"{self.base}/tournaments/{tid}/me",
                headers={"Authorization": f"Bearer {entrant['token']}"},
                timeout=30,
            ).json()["game"]
            self.seats.setdefault(game["game_id"], [])
            self.seats[game["game_id"]].append(game["seat_token"])
            self.cup_game = game["game_id"]
        self.tournament_of[self.cup_game] = tid

    def _sign_in(self) -> str:
        answer = requests.post(
            f"{self.base}/accounts", json={"name": "Fuzz Ann", "password": PASSWORD}, timeout=30
        )
        if answer.status_code != 201:  # the name is taken: an earlier start of this run made it
            answer = requests.post(
                f"{self.base}/session", json={"name": "Fuzz Ann", "password": PASSWORD}, timeout=30
            )
        return answer.cookies.get(SESSION) or ""

    def fill(self, case: Any) -> None:
        """Put real ids and the tokens they take on `case`, where the run did not make them invalid."""
        if not self.base:
            self.base = case.operation.schema.get_base_url()
            self._create_cup()
        path = case.operation.path
        negated = {name for name, _ in negated_parameters(case.meta)}
        params = case.path_parameters if case.path_parameters is not None else {}
        made_up = next(self.turns) % SWAPPED != 0
        if "tournament_id" in params and "tournament_id" not in negated:
            if params["tournament_id"] not in self.organizers and made_up:
                params["tournament_id"] = self.tournament_of[self.cup_game]
        if "game_id" in params and "game_id" not in negated:
            if params["game_id"] not in self.seats and made_up:
                params["game_id"] = self.cup_game if path.endswith("/corrections") else self.game()
        if case.operation.schema.is_security_param_negated(case):
            return
        token = None
        if path == "/games/{game_id}/commands" and case.meta and case.meta.generation.mode.is_positive:
            if params.get("game_id") in self.seats and next(self.turns) % 2 == 0:
                token = self._legal_move(case, params["game_id"])
        token = token or self._token(path, params)
        if token:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        if path.startswith("/account"):
            self.session = self.session or self._sign_in()
            case.cookies = {**(case.cookies or {}), SESSION: self.session}
        # Credentials of the run's own, not generated ones: its ignored_auth check then sends the
        # request again without them and with made-up ones, and wants a 401 or a 403.
        if token or path.startswith("/account") and self.session:
            case._has_explicit_auth = True

    def _legal_move(self, case: Any, game_id: str) -> str | None:
        """A command the rules take now as `case`'s body, with the version it is sent at: the
        generated ones almost never are, and a game would never move on. The token of its seat."""
        for token in filter(None, self.seats[game_id]):
            answer = requests.get(
                f"{self.base}/games/{game_id}/legal", headers={"Authorization": f"Bearer {token}"}, timeout=30
            )
            commands = answer.json().get("commands") if answer.status_code == 200 else None
            if commands:
                case.body = commands[next(self.seat_turns) % len(commands)]
                case.headers = {**(case.headers or {}), "If-Match": answer.headers["ETag"]}
                return token
        return None

    def refused(self, case: Any, status: int) -> None:
        """Sign in again after the session was refused: the run's own requests may end it (a
        sign-out, a sign-in with the cookie its jar caught)."""
        if status == 401 and (case.cookies or {}).get(SESSION) == self.session:
            self.session = ""

    def _token(self, path: str, params: dict[str, Any]) -> str | None:
        """The token the operation asks for: the organizer's for a tournament's commands, withdrawals
        and a game's corrections; an entrant's for /me; else the named game's seat's."""
        tid = params.get("tournament_id") or self.tournament_of.get(params.get("game_id", ""))
        if path.endswith("/me"):
            tokens = self.entrants.get(str(tid), [])
            return tokens[next(self.seat_turns) % len(tokens)] if tokens else None
        if (
            path.endswith(("/commands", "/withdraw"))
            and "tournament_id" in params
            or path.endswith("/corrections")
        ):
            return self.organizers.get(str(tid))
        if "game_id" in params:
            return self.seat_token(str(params["game_id"]))
        return None
