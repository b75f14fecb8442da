"""A tiny client of the Archipelago HTTP API over urllib, for the `replays` CLI's --url mode.

Every failure is a ClientError with a message for the user: an HTTP error shows the
problem+json `code` and `detail` the service answered; an unreachable service says so.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any

from replays.archive import MEDIA_TYPE

USER_AGENT = "archipelago-replays/1"


class ClientError(Exception):
    """A request that failed; `status` is the HTTP status (None when nothing answered)."""

    def __init__(self, message: str, status: int | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class Client:
    """Requests to one service, as the seat of `token` (a spectator without one)."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 30.0) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ClientError(
                f"--url must be an http(s) address like http://127.0.0.1:8000, not {base_url!r}"
            )
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    # --- the API ---------------------------------------------------------------------------

    def view(self, game_id: str, at: int | None = None) -> dict[str, Any]:
        """GET /games/{id} (?at=N): the game as this client's seat sees it."""
        query = {} if at is None else {"at": str(at)}
        return self.get_json(f"/games/{_quote(game_id)}", query)

    def export(self, game_id: str) -> bytes:
        """GET /games/{id}/export: the game file, built for this client's seat."""
        return self.request("GET", f"/games/{_quote(game_id)}/export", accept=MEDIA_TYPE)

    def export_tournament(self, tournament_id: str) -> bytes:
        """GET /tournaments/{id}/export: the tournament's bundle, every game as a spectator sees it."""
        return self.request("GET", f"/tournaments/{_quote(tournament_id)}/export", accept=MEDIA_TYPE)

    def verify(self, game_id: str) -> dict[str, Any]:
        """GET /games/{id}/verify: the service's check of the chain it stores, never a cache."""
        return self.get_json(f"/games/{_quote(game_id)}/verify")

    def import_game(self, content: bytes) -> dict[str, Any]:
        """POST /games/import: {game_id, archived, version}."""
        return _json(self.request("POST", "/games/import", content, MEDIA_TYPE))

    def annotate(self, game_id: str, note: Mapping[str, Any]) -> dict[str, Any]:
        """POST /games/{id}/annotations: the stored record."""
        body = json.dumps(dict(note)).encode("utf-8")
        return _json(self.request("POST", f"/games/{_quote(game_id)}/annotations", body, "application/json"))

    def annotations(self, game_id: str) -> list[dict[str, Any]]:
        """GET /games/{id}/annotations: the records this client's seat may read."""
        listed = self.get_json(f"/games/{_quote(game_id)}/annotations").get("annotations", [])
        return [note for note in listed if isinstance(note, dict)] if isinstance(listed, list) else []

    # --- plumbing --------------------------------------------------------------------------

    def get_json(self, path: str, query: Mapping[str, str] | None = None) -> dict[str, Any]:
        if query:
            path += "?" + urllib.parse.urlencode(dict(query))
        return _json(self.request("GET", path))

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        content_type: str | None = None,
        accept: str = "application/json",
    ) -> bytes:
        """The answer's body; ClientError for an HTTP error or a service that does not answer."""
        headers = {"Accept": f"{accept}, application/problem+json", "User-Agent": USER_AGENT}
        if content_type:
            headers["Content-Type"] = content_type
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        url = self.base_url + path
        request = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                data: bytes = response.read()
                return data
        except urllib.error.HTTPError as error:
            raise _problem(method, url, error) from None
        except urllib.error.URLError as error:
            raise ClientError(f"cannot reach {self.base_url}: {error.reason}") from None
        except (TimeoutError, ConnectionError) as error:
            raise ClientError(f"cannot reach {self.base_url}: {error}") from None


def _quote(game_id: str) -> str:
    return urllib.parse.quote(game_id, safe="")


def _json(data: bytes) -> dict[str, Any]:
    try:
        value = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ClientError("the service answered something that is not JSON") from None
    if not isinstance(value, dict):
        raise ClientError("the service answered JSON that is not an object")
    return value


def _problem(method: str, url: str, error: urllib.error.HTTPError) -> ClientError:
    """The HTTP error as the user should read it: status, the problem's code and detail."""
    try:
        problem = json.loads(error.read() or b"{}")
    except (OSError, ValueError):
        problem = {}
    if not isinstance(problem, dict):
        problem = {}
    code = problem.get("code")
    detail = problem.get("detail") or error.reason
    message = f"{method} {url}: HTTP {error.code}" + (f" {code}" if code else "") + f": {detail}"
    errors = problem.get("errors")
    if isinstance(errors, dict) and errors:
        shown = "; ".join(
            f"{field}: {' '.join(map(str, msgs)) if isinstance(msgs, list) else msgs}"
            for field, msgs in sorted(errors.items())
        )
        message += f" ({shown})"
    return ClientError(message, error.code, code if isinstance(code, str) else None)
