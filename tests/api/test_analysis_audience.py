"""The computer's analysis is built for a viewer like everything else (P5 A.2).

Each remark of the analysis is computed from the analysed seat's knowledge, its hand
included, and a mark names the move the computer preferred ("R1 plays Nuridan"), a card
of that hand. So each carries an audience, the analysed seat: with `"reveal_after_end":
false` no one else reads it, by any path (annotations, replay, export, the replays tool);
with the log revealed at the end, everyone does.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from ai.sim import key
from replays import cli
from service import analysis as game_analysis
from tests.api.helpers import bearer, create_game, play
from tests.backends import store_backend  # noqa: F401  (on one Redis and on a cluster)

NAMES = ("Ann", "Ben")


@pytest.fixture(autouse=True)
def blunders_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that rates its own choice 0.9 and every move played 0.5: every decision gets a mark."""

    class Verdict:
        def __init__(self, legal: list) -> None:
            self.command = legal[0]
            self.best_chance = 0.9
            self.chances = defaultdict(lambda: 0.5, {key(legal[0]): 0.9})

    monkeypatch.setattr(game_analysis, "search", lambda knowledge, legal, rng, budget: Verdict(legal))
    monkeypatch.setattr(game_analysis, "ANALYSIS_SLICE_SECONDS", 60.0)


def analysed(client: FlaskClient, run_jobs: Callable[[], None], **setup: Any) -> dict[str, Any]:
    game = create_game(client, **setup)
    play(client, game, random.Random(7), run_jobs)
    run_jobs()  # the analysis
    return game


def analysis(notes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [n for n in notes if n["author_kind"] == "analysis"]


def about(seat: int, notes: list[dict[str, Any]]) -> bool:
    return all(n["text"].startswith((f"{NAMES[seat]}:", f"{NAMES[seat]} lost")) for n in notes)


def read_notes(client: FlaskClient, game: dict[str, Any], seat: int | None) -> dict[str, list]:
    headers = {} if seat is None else bearer(game["tokens"][seat])
    path = f"/games/{game['game_id']}"
    listed = client.get(f"{path}/annotations", headers=headers).json["annotations"]
    replayed = client.get(f"{path}/replay", headers=headers).json["annotations"]
    lines = [json.loads(line) for line in client.get(f"{path}/export", headers=headers).data.splitlines()]
    exported = [line["annotation"] for line in lines if line.get("kind") == "annotation"]
    return {"annotations": listed, "replay": replayed, "export": exported}


def test_with_hands_kept_hidden_a_remark_reaches_only_the_seat_it_analyses(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    game = analysed(client, run_jobs, reveal_after_end=False)

    for path, notes in read_notes(client, game, None).items():
        assert analysis(notes) == [], f"a spectator reads the analysis in {path}"
    for seat in (0, 1):
        for path, notes in read_notes(client, game, seat).items():
            mine = analysis(notes)
            assert any(n["kind"] == "mark" and "the AI preferred" in n["text"] for n in mine), path
            assert about(seat, mine), f"seat {seat} reads another seat's analysis in {path}"
            assert all(n["audience"] == [seat] for n in mine)


def test_the_replays_tool_shows_a_spectator_no_remark_on_hidden_hands(
    client: FlaskClient, run_jobs: Callable[[], None], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = analysed(client, run_jobs, reveal_after_end=False)
    marked = next(n for n in analysis(read_notes(client, game, 0)["annotations"]) if n["kind"] == "mark")
    spectators = tmp_path / "spectator.jsonl"
    spectators.write_bytes(client.get(f"/games/{game['game_id']}/export").data)

    assert cli.main(["show", str(spectators), "--at", str(marked["version"])]) == 0
    out = capsys.readouterr().out
    assert "the AI preferred" not in out and "estimated win chance" not in out


def test_with_the_log_revealed_every_viewer_reads_the_whole_analysis(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    game = analysed(client, run_jobs)

    everything = analysis(read_notes(client, game, 0)["annotations"])
    assert {n["text"].split(":")[0].split(" lost")[0] for n in everything} == set(NAMES)
    for seat in (None, 1):
        for path, notes in read_notes(client, game, seat).items():
            assert len(analysis(notes)) == len(everything), path


def test_a_game_file_keeps_each_remarks_audience_and_an_import_checks_it(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    game = analysed(client, run_jobs)
    content = client.get(f"/games/{game['game_id']}/export").data
    imported = client.post("/games/import", data=content, content_type="application/x-ndjson")
    assert imported.status_code == 201, imported.json
    notes = client.get(f"/games/{imported.json['game_id']}/annotations").json["annotations"]
    assert analysis(notes) and all(n["audience"] in ([0], [1]) for n in analysis(notes))

    for bad in ([], [2], [1, 0], "0"):
        lines = content.decode().splitlines()
        n = next(i for i, line in enumerate(lines) if '"audience":[' in line and '"annotation"' in line)
        record = json.loads(lines[n])
        record["annotation"]["audience"] = bad
        lines[n] = json.dumps(record, separators=(",", ":"), sort_keys=True)
        body = "\n".join(lines) + "\n"
        answer = client.post("/games/import", data=body, content_type="application/x-ndjson")
        assert (answer.status_code, answer.json["code"]) == (422, "bad_annotation"), (bad, answer.json)
