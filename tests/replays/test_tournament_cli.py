"""The `replays` command with a tournament's bundle: export-tournament, verify, show, render."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from replays.bundle import write_bundle
from replays.cli import main
from tests.replays.play import rechained
from tests.replays.tournament_play import Tournament, played


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


@pytest.fixture(scope="module")
def tournament() -> Tournament:
    played_out = played(seed=11)
    played_out.correct("g2-1", "the scoring of round 2 missed a bridge")
    played_out.run("CloseTournament")
    return played_out


@pytest.fixture
def bundle_file(tmp_path: Path, tournament: Tournament) -> Path:
    path = tmp_path / "open.jsonl"
    path.write_bytes(write_bundle(tournament.envelopes, tournament.games))
    return path


def test_verify_of_a_sound_bundle_prints_the_report_and_exits_0(
    capsys: pytest.CaptureFixture[str], bundle_file: Path, tournament: Tournament
) -> None:
    status, out, _ = run(capsys, "verify", str(bundle_file))
    assert status == 0
    assert out.startswith("ok: tournament bundle of 5 streams")
    assert "corrections by the organizer (1):" in out
    correction = next(e for e in tournament.envelopes if e.type == "ResultCorrected")
    before = "-".join(str(p) for p in correction.data["before"]["points"])
    after = "-".join(str(p) for p in correction.data["points"])
    listed = f"event {correction.version}, {correction.at}, by organizer: game g2-1 (round 2, table 2)"
    assert f"{listed} {before} -> {after}: " in out and before != after
    assert out.rstrip().endswith("the scoring of round 2 missed a bridge")


def test_verify_names_the_stream_event_and_line_of_a_changed_byte(
    capsys: pytest.CaptureFixture[str], bundle_file: Path
) -> None:
    content = bundle_file.read_bytes()
    lines = content.split(b"\n")
    header_line = next(n for n, raw in enumerate(lines, 1) if n > 1 and raw.startswith(b'{"annotations"'))
    line = header_line + 40  # event 40 of the first game
    position = content.index(b'"at":"', sum(len(raw) + 1 for raw in lines[: line - 1])) + 10
    bundle_file.write_bytes(content[:position] + b"9" + content[position + 1 :])
    status, out, err = run(capsys, "verify", str(bundle_file))
    assert status == 1 and out == ""
    assert f"replays: error: game g1-0, event 40 (line {line}): hash mismatch" in err


def test_verify_fails_on_a_result_that_is_not_the_games_own(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, tournament: Tournament
) -> None:
    record = next(e for e in tournament.envelopes if e.type == "ResultRecorded")
    forged = rechained(tournament.envelopes, record.version, data={**record.data, "final_hash": "0" * 64})
    path = tmp_path / "forged.jsonl"
    path.write_bytes(write_bundle(forged, tournament.games))
    status, _, err = run(capsys, "verify", str(path))
    assert status == 1
    where = f"tournament, event {record.version} (line {record.version + 1})"
    assert f"replays: error: {where}: game {record.data['game_id']}" in err and "final_hash" in err


def test_verify_fails_on_a_pairing_that_is_not_the_rules_own(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, tournament: Tournament
) -> None:
    paired = [e for e in tournament.envelopes if e.type == "RoundPaired"][1]
    tables = [list(reversed(t)) for t in paired.data["tables"]]
    forged = rechained(tournament.envelopes, paired.version, data={**paired.data, "tables": tables})
    path = tmp_path / "forged.jsonl"
    path.write_bytes(write_bundle(forged, tournament.games))
    status, _, err = run(capsys, "verify", str(path))
    assert status == 1
    where = f"tournament, event {paired.version} (line {paired.version + 1}): RoundPaired of round 2"
    assert f"replays: error: {where}: not what the rules decide for PairRound" in err
    assert "more places the rules or the games contradict" in err


def test_verify_names_a_forged_close_without_a_round(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, tournament: Tournament
) -> None:
    closed = tournament.envelopes[-1]
    assert closed.type == "TournamentClosed"
    ranking = list(reversed(closed.data["ranking"]))
    forged = rechained(tournament.envelopes, closed.version, data={**closed.data, "ranking": ranking})
    path = tmp_path / "forged.jsonl"
    path.write_bytes(write_bundle(forged, tournament.games))
    status, _, err = run(capsys, "verify", str(path))
    assert status == 1
    where = f"tournament, event {closed.version} (line {closed.version + 1})"
    assert f"replays: error: {where}: TournamentClosed: not what the rules decide for CloseTournament" in err
    assert "None" not in err


def test_show_of_a_bundle_prints_the_standings(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    running = played(seed=4)
    path = tmp_path / "running.jsonl"
    path.write_bytes(write_bundle(running.envelopes, running.games))
    status, out, _ = run(capsys, "show", str(path))
    lines = out.splitlines()
    assert status == 0 and lines[0] == "Island Open: kahuna, swiss, round 2 of 2, running"
    assert lines[1].split() == [
        "#",
        "Entrant",
        "Points",
        "Island",
        "Buchholz",
        "S-B",
        "Direct",
        "Games",
        "Byes",
    ]
    names = {e["id"]: e["name"] for e in running.view["entrants"]}
    assert [line.split()[:3] for line in lines[2:]] == [
        [str(s["rank"] + 1), names[s["entrant"]], str(s["points"])] for s in running.view["standings"]
    ]


def test_show_refuses_a_games_options_for_a_bundle(
    capsys: pytest.CaptureFixture[str], bundle_file: Path
) -> None:
    status, _, err = run(capsys, "show", str(bundle_file), "--at", "3")
    assert status == 1 and "--at is for a game" in err


def test_render_of_a_bundle_writes_the_page_and_each_games_player(
    capsys: pytest.CaptureFixture[str], bundle_file: Path, tmp_path: Path
) -> None:
    page = tmp_path / "open.html"
    status, _, err = run(capsys, "render", str(bundle_file), "-o", str(page))
    assert status == 0 and "4 game pages" in err
    html = page.read_text()
    assert 'id="standings"' in html and 'id="crosstable"' in html
    for game_id in ("g1-0", "g1-1", "g2-0", "g2-1"):
        assert f'href="open-{game_id}.html"' in html
        assert (tmp_path / f"open-{game_id}.html").read_text().startswith("<!DOCTYPE html>")


def test_render_of_a_bundle_refuses_svg(
    capsys: pytest.CaptureFixture[str], bundle_file: Path, tmp_path: Path
) -> None:
    status, _, err = run(capsys, "render", str(bundle_file), "-o", str(tmp_path / "board.svg"))
    assert status == 1 and "name the output file .html" in err


class Serving(http.server.BaseHTTPRequestHandler):
    """GET /tournaments/<id>/export answers `content`; anything else a problem+json 404."""

    content = b""

    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        if self.path == "/tournaments/t1/export":
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            body = self.content
        else:
            self.send_response(404)
            self.send_header("Content-Type", "application/problem+json")
            body = b'{"code":"unknown_tournament","detail":"no tournament t9"}'
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base's name)
        """Quiet: the tests read the CLI's output, not the server's."""


@pytest.fixture
def service(tournament: Tournament) -> Iterator[str]:
    Serving.content = write_bundle(tournament.envelopes, tournament.games)
    server = http.server.HTTPServer(("127.0.0.1", 0), Serving)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def test_export_tournament_fetches_the_bundle_that_then_verifies(
    capsys: pytest.CaptureFixture[str], service: str, tmp_path: Path
) -> None:
    saved = tmp_path / "t1.jsonl"
    status, _, err = run(capsys, "export-tournament", "t1", "--url", service, "-o", str(saved))
    assert status == 0 and f"wrote {saved}" in err
    assert saved.read_bytes() == Serving.content
    assert run(capsys, "verify", str(saved))[0] == 0


def test_export_tournament_names_the_services_refusal(
    capsys: pytest.CaptureFixture[str], service: str
) -> None:
    status, _, err = run(capsys, "export-tournament", "t9", "--url", service)
    assert status == 1 and "HTTP 404 unknown_tournament: no tournament t9" in err


def test_export_tournament_needs_a_url(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "export-tournament", "t1")
    assert status == 1 and "--url" in err
