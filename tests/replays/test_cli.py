"""The `replays` command line, offline on game files (and once against a running service).

Each test calls `main([...])` as the console script does and reads its exit status,
stdout and stderr: no traceback ever reaches the user.
"""

from __future__ import annotations

import json
import random
import threading
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest
import redis
from werkzeug.serving import make_server

from record.envelope import Envelope
from replays import archive
from replays.cli import main
from service.api.context import EXTENSION
from service.app import create_app
from service.embedded_redis import EmbeddedRedis
from tests.replays.play import (
    play_on,
    rechained,
    rewrite_stored_event,
    sealed_game,
    setup_of,
    tampered,
)
from tests.replays.referee_play import out_of_turn, stored_as

COMMANDS = ("export", "import", "verify", "show", "annotate", "render")


@pytest.fixture(scope="module")
def game() -> list[Envelope]:
    return sealed_game(random.Random(5), setup_of("kahuna"))


@pytest.fixture
def complete(tmp_path: Path, game: list[Envelope]) -> Path:
    """The file of a finished game with its log revealed: every secret in it."""
    path = tmp_path / "game.jsonl"
    path.write_text(archive.export(game, None, True), encoding="utf-8")
    return path


@pytest.fixture
def live(tmp_path: Path, game: list[Envelope]) -> Path:
    """The file of the same game as Ana got it during play: the others' secrets withheld."""
    path = tmp_path / "ana.jsonl"
    path.write_text(archive.export(game, 0, False), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


# --- the command ------------------------------------------------------------------------------


def test_the_package_declares_the_console_script() -> None:
    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "replays"]

    assert script.value == "replays.cli:main"


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--help"])

    out = capsys.readouterr().out
    assert stopped.value.code == 0
    assert all(command in out for command in COMMANDS) and "--url" in out


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_has_its_own_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([command, "--help"])

    assert stopped.value.code == 0 and "--url" in capsys.readouterr().out


def test_a_bad_command_line_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["show"])

    assert stopped.value.code == 2 and "GAME" in capsys.readouterr().err


# --- verify -----------------------------------------------------------------------------------


def test_verify_accepts_an_intact_file(capsys: pytest.CaptureFixture[str], complete: Path) -> None:
    status, out, _ = run(capsys, "verify", str(complete))

    assert status == 0
    assert out.startswith("ok: ") and "the hash chain holds and the rules fold every event" in out
    assert "game over" in out


def test_verify_names_the_first_tampered_event(capsys: pytest.CaptureFixture[str], complete: Path) -> None:
    content = complete.read_bytes()
    line = content.split(b"\n")[17]
    position = line.index(b'"data":{') + len(b'"data":{') + 2
    complete.write_bytes(
        tampered(content, 17, position, ord("Z") if line[position] != ord("Z") else ord("Y"))
    )

    status, out, err = run(capsys, "verify", str(complete))

    assert status == 1 and out == ""
    assert err.startswith("replays: error: event 17: ")


def test_verify_names_the_event_the_rules_cannot_fold(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: list[Envelope]
) -> None:
    placed = next(e for e in game if e.type == "BridgePlaced")
    broken = rechained(game, placed.version, data={**placed.data, "line": ["ALOA", "LALE"]})
    path = tmp_path / "broken.jsonl"
    path.write_text(archive.export(broken, None, True), encoding="utf-8")

    status, _, err = run(capsys, "verify", str(path))

    assert status == 1
    assert f"event {placed.version}: the rules cannot fold it" in err


def test_verify_checks_the_links_of_a_redacted_file(capsys: pytest.CaptureFixture[str], live: Path) -> None:
    status, out, _ = run(capsys, "verify", str(live))

    assert status == 0 and "redacted" in out


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda lines: lines[:3] + [b"{not json"] + lines[4:], "event 3: not JSON"),
        (
            lambda lines: [lines[0].replace(b'"format_version":3', b'"format_version":4')] + lines[1:],
            "line 1: format_version 4 is not supported",
        ),
        (
            lambda lines: [lines[0].replace(b'"format_version":3', b'"format_version":1')] + lines[1:],
            "line 1: format_version 1 hashes secrets without salt",
        ),
        (lambda lines: lines[:10], "event 10: the file ends before event 10"),
    ],
)
def test_verify_explains_a_file_it_cannot_read(
    capsys: pytest.CaptureFixture[str], complete: Path, damage: object, message: str
) -> None:
    lines = complete.read_bytes().split(b"\n")[:-1]
    complete.write_bytes(b"\n".join(damage(lines)) + b"\n")  # type: ignore[operator]

    status, _, err = run(capsys, "verify", str(complete))

    assert status == 1 and message in err


def test_a_missing_file_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for command in (["verify"], ["show"], ["render", "-o", str(tmp_path / "x.svg")]):
        status, _, err = run(capsys, *command, str(tmp_path / "nothing.jsonl"))

        assert status == 1 and f"cannot read {tmp_path / 'nothing.jsonl'}" in err


# --- show ------------------------------------------------------------------------------------


def test_show_prints_the_board_at_a_version_for_a_seat(
    capsys: pytest.CaptureFixture[str], complete: Path, game: list[Envelope]
) -> None:
    status, out, _ = run(capsys, "show", str(complete), "--at", "40", "--seat", "Ana")

    assert status == 0
    assert out.startswith(f"Kahuna · version 40 of {len(game)} · seen by Ana")
    assert "Your hand (Ana): " in out and "Hand of Ben: " in out
    assert all(name in out for name in ("ALOA", "LALE", "bridge places taken"))


def test_show_defaults_to_the_last_version_for_a_spectator(
    capsys: pytest.CaptureFixture[str], complete: Path, game: list[Envelope]
) -> None:
    status, out, _ = run(capsys, "show", str(complete))

    assert status == 0 and f"version {len(game)} of {len(game)} · seen by a spectator" in out
    assert "Game over" in out and "Your hand" not in out


def test_show_of_a_redacted_file_is_its_viewers_view_only(
    capsys: pytest.CaptureFixture[str], live: Path
) -> None:
    status, out, _ = run(capsys, "show", str(live), "--at", "30")
    assert status == 0 and "seen by Ana" in out and "Your hand (Ana)" in out and "Hand of Ben" not in out

    status, _, err = run(capsys, "show", str(live), "--seat", "1")
    assert status == 1 and "exported for Ana" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--at", "0"], "--at must be a version 1.."),
        (["--at", "99999"], "--at must be a version 1.."),
        (["--seat", "Zed"], "no seat is named 'Zed'"),
        (["--seat", "7"], "seat 7 is not a seat of this game"),
    ],
)
def test_show_refuses_a_version_or_seat_the_game_does_not_have(
    capsys: pytest.CaptureFixture[str], complete: Path, args: list[str], message: str
) -> None:
    status, _, err = run(capsys, "show", str(complete), *args)

    assert status == 1 and message in err


# --- annotate offline ----------------------------------------------------------------------------


def test_annotating_a_file_appends_checked_records_and_keeps_every_event_line(
    capsys: pytest.CaptureFixture[str], complete: Path
) -> None:
    before = complete.read_bytes().split(b"\n")

    for args in (
        ["--comment", "Daring <move> & more"],
        ["--mark", "!?"],
        ["--highlight", "ALOA,BARI-ALOA", "--text", "look here"],
    ):
        status, out, _ = run(capsys, "annotate", str(complete), "--at", "12", "--author", "Kibitz", *args)
        assert status == 0 and "annotated version 12" in out

    after = complete.read_bytes()
    read = archive.read(after)
    assert archive.verify(after).ok and read.header["annotations"] == 3
    assert after.split(b"\n")[1 : len(before) - 1] == before[1:-1]
    kinds = [(n["layer"], n["author_kind"], n["version"], n["kind"]) for n in read.annotations]
    assert kinds == [("Kibitz", "guest", 12, k) for k in ("comment", "mark", "highlight")]
    assert read.annotations[0]["text"] == "Daring <move> & more" and read.annotations[1]["mark"] == "!?"
    assert read.annotations[2]["islands"] == ["ALOA"] and read.annotations[2]["lines"] == [["ALOA", "BARI"]]
    status, out, _ = run(capsys, "show", str(complete), "--at", "12")
    assert "Kibitz: Daring <move> & more" in out and "Kibitz !?" in out


def test_a_redacted_file_can_be_annotated_too(capsys: pytest.CaptureFixture[str], live: Path) -> None:
    status, _, _ = run(capsys, "annotate", str(live), "--at", "3", "--author", "Kibitz", "--mark", "?")

    read = archive.read(live.read_bytes())
    assert status == 0 and read.annotations[0]["mark"] == "?" and not read.complete


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--author", "Kibitz", "--highlight", "ATLANTIS"], "unknown_island"),
        (["--author", "Kibitz", "--highlight", "ALOA-LALE"], "unknown_line"),
        (["--author", "Ana", "--comment", "mine"], "'Ana' is a seat of this game"),
        (["--comment", "who?"], "--author"),
        (["--author", "Kibitz", "--comment", "x", "--text", "y"], "--text goes with --mark or --highlight"),
    ],
)
def test_an_annotation_that_does_not_fit_leaves_the_file_unchanged(
    capsys: pytest.CaptureFixture[str], complete: Path, args: list[str], message: str
) -> None:
    before = complete.read_bytes()

    status, _, err = run(capsys, "annotate", str(complete), "--at", "12", *args)

    assert status == 1 and message in err
    assert complete.read_bytes() == before


def test_an_annotation_past_the_last_version_is_refused(
    capsys: pytest.CaptureFixture[str], complete: Path, game: list[Envelope]
) -> None:
    status, _, err = run(
        capsys, "annotate", str(complete), "--at", str(len(game) + 1), "--author", "K", "--mark", "!"
    )

    assert status == 1 and "version_out_of_range" in err


# --- render -------------------------------------------------------------------------------------


def test_render_draws_the_board_at_a_version_as_svg(
    capsys: pytest.CaptureFixture[str], complete: Path, tmp_path: Path
) -> None:
    run(capsys, "annotate", str(complete), "--at", "40", "--author", "K", "--highlight", "LALE")
    out_file = tmp_path / "board.svg"

    status, _, err = run(capsys, "render", str(complete), "--at", "40", "-o", str(out_file))

    assert status == 0 and f"wrote {out_file}" in err
    root = ET.parse(out_file).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    assert "version 40" in texts and "K highlights LALE" in texts
    assert any(e.get("class") == "highlight" for e in root.iter())


def test_render_writes_the_whole_game_as_one_page_with_progress(
    capsys: pytest.CaptureFixture[str], complete: Path, tmp_path: Path, game: list[Envelope]
) -> None:
    out_file = tmp_path / "game.html"

    status, out, err = run(capsys, "render", str(complete), "-o", str(out_file))

    steps = len({e.command_id for e in game})
    page = out_file.read_text(encoding="utf-8")
    assert status == 0 and out == ""
    assert f"rendering {steps} steps" in err and f"{steps}/{steps} frames" in err
    assert page.count('<section class="frame"') == steps
    assert "http://" not in page and "https://" not in page


def test_render_refuses_an_output_it_cannot_tell(
    capsys: pytest.CaptureFixture[str], complete: Path, tmp_path: Path
) -> None:
    status, _, err = run(capsys, "render", str(complete), "-o", str(tmp_path / "board.png"))
    assert status == 1 and "name it .svg or .html" in err

    status, _, err = run(capsys, "render", str(complete), "-o", str(tmp_path / "no" / "dir" / "b.svg"))
    assert status == 1 and "cannot write" in err


# --- the service --------------------------------------------------------------------------------


def test_the_service_commands_need_a_url(capsys: pytest.CaptureFixture[str], complete: Path) -> None:
    for argv in (["export", "abc"], ["import", str(complete)]):
        status, _, err = run(capsys, *argv)

        assert status == 1 and "--url" in err


def test_an_unreachable_service_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "show", "abc", "--url", "http://127.0.0.1:9")

    assert status == 1 and "cannot reach http://127.0.0.1:9" in err


@pytest.fixture
def served(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Iterator[tuple[str, object]]:
    """The app on a real HTTP port (werkzeug, in a thread), with its GameService."""
    app = create_app({"REDIS_URL": redis_server.url, "RQ_REDIS_URL": redis_server.url, "TESTING": True})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", app.extensions[EXTENSION]
    server.shutdown()
    thread.join()
    app.extensions[EXTENSION].redis.close()


def test_against_a_running_service(
    capsys: pytest.CaptureFixture[str], served: tuple[str, object], tmp_path: Path
) -> None:
    url, service = served
    game_id = service.create(setup_of("kahuna")).game_id  # type: ignore[attr-defined]
    play_on(service, game_id, random.Random(2))  # type: ignore[arg-type]
    exported = tmp_path / "served.jsonl"

    assert run(capsys, "export", game_id, "--url", url, "-o", str(exported))[0] == 0
    assert run(capsys, "verify", str(exported))[0] == 0
    status, out, _ = run(capsys, "show", game_id, "--url", url, "--at", "10")
    assert status == 0 and "version 10" in out and "seen by a spectator" in out
    status, out, _ = run(
        capsys, "annotate", game_id, "--url", url, "--at", "10", "--author", "K", "--mark", "!!"
    )
    assert status == 0 and "layer K" in out
    board = tmp_path / "served.svg"
    assert run(capsys, "render", game_id, "--url", url, "--at", "10", "-o", str(board))[0] == 0
    assert "K !!" in board.read_text(encoding="utf-8")
    status, out, _ = run(capsys, "import", str(exported), "--url", url)
    assert status == 0 and "imported as game" in out

    status, _, err = run(capsys, "show", "no-such-game", "--url", url)
    assert status == 1 and "HTTP 404" in err and "game_not_found" in err
    status, _, err = run(capsys, "annotate", game_id, "--url", url, "--at", "10", "--comment", "x")
    assert status == 1 and "HTTP 422 author_required" in err


def test_verify_url_reads_the_store_and_names_the_changed_event(
    capsys: pytest.CaptureFixture[str], served: tuple[str, object], redis_client: redis.Redis
) -> None:
    url, service = served
    game_id = service.create(setup_of("kahuna")).game_id  # type: ignore[attr-defined]
    play_on(service, game_id, random.Random(4), until_version=30)  # type: ignore[arg-type]
    assert run(capsys, "verify", game_id, "--url", url)[0] == 0
    service.load(game_id)  # type: ignore[attr-defined]  # the fold sits in the cache

    rewrite_stored_event(redis_client, game_id, 12)

    status, _, err = run(capsys, "verify", game_id, "--url", url)
    assert status == 1 and "event 12" in err and "store" in err


def test_verify_url_names_a_move_credited_to_the_seat_not_to_act(
    capsys: pytest.CaptureFixture[str], served: tuple[str, object], redis_client: redis.Redis
) -> None:
    url, service = served
    game_id = service.create(setup_of("kahuna")).game_id  # type: ignore[attr-defined]
    play_on(service, game_id, random.Random(4), until_version=30)  # type: ignore[arg-type]
    forged, version = out_of_turn(service.store.read(game_id))  # type: ignore[attr-defined]

    stored_as(redis_client, game_id, forged)

    status, _, err = run(capsys, "verify", game_id, "--url", url)
    assert status == 1 and f"event {version}: the service's referee replay" in err


def test_an_http_error_shows_the_problem_detail(
    capsys: pytest.CaptureFixture[str], served: tuple[str, object], complete: Path
) -> None:
    url, _ = served
    lines = complete.read_bytes().split(b"\n")
    assert json.loads(lines[0])["complete"]
    complete.write_bytes(b"\n".join(lines[:20]) + b"\n")

    status, _, err = run(capsys, "import", str(complete), "--url", url)

    assert status == 1 and "HTTP 422 verify_failed" in err
