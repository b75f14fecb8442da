"""The `replays` command: export, import, verify, show, annotate and render island games
and tournaments.

GAME is a game file exported from the service (offline, no Redis needed), or with --url a
game id on a running service (the viewer is then the seat of --token, or a spectator).
`verify`, `show` and `render` also take a tournament's bundle (export-tournament) for GAME.

Exit status: 0 done; 1 the file or the game failed (unreadable file, broken hash chain,
an event the rules cannot fold, an HTTP error); 2 a bad command line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from domain.decider import DomainError
from domain.games import rules_for
from record.annotations import MARKS, AnnotationRefused, check_record
from record.canonical import canonical_json
from record.deal import CHECKED, COMMITTED, DealReport, check_deal
from record.referee import referee
from replays import archive, bundle, cli_tournament, receipts_check
from replays.client import Client, ClientError
from replays.frames import Replay, ReplayError, replay
from replays.render_html import annotation_text, game_page
from replays.render_svg import render_svg
from replays.render_text import show_text

PROG = "replays"
URL_ENV, TOKEN_ENV, DEBUG_ENV = "ARCHIPELAGO_URL", "ARCHIPELAGO_TOKEN", "ARCHIPELAGO_DEBUG"


class Failed(Exception):
    """A failure to report in one line (no traceback) with exit status 1."""


# --- the command line ------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Export, import, verify, show, annotate and render Archipelago games "
        "(Kahuna, Arabana-Ikibiti, Arabana-Opodopo) and tournaments.",
        epilog="GAME is an exported game file (.jsonl), a tournament's bundle, or a game id with --url. "
        f"--url and --token default to ${URL_ENV} and ${TOKEN_ENV}. "
        "Exit status: 0 done, 1 failed (bad file, broken chain, HTTP error), 2 bad usage.",
    )
    remote = _remote_options()
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _add_transfers(commands, remote)
    _add_verify(commands, remote)
    _add_show(commands, remote)
    _add_annotate(commands, remote)
    _add_render(commands, remote)
    return parser


def _remote_options() -> argparse.ArgumentParser:
    """The options of every command that may talk to the service."""
    remote = argparse.ArgumentParser(add_help=False)
    remote.add_argument(
        "--url", default=os.environ.get(URL_ENV), help="the service, e.g. http://127.0.0.1:8000"
    )
    remote.add_argument(
        "--token", default=os.environ.get(TOKEN_ENV), help="a seat's token: see the game as that seat"
    )
    return remote


def _add_transfers(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], remote: argparse.ArgumentParser
) -> None:
    """export, export-tournament and import: files to and from the service."""
    export = commands.add_parser(
        "export", parents=[remote], help="save a game of the service as a file (needs --url)"
    )
    export.add_argument("game", metavar="GAME", help="the game id")
    export.add_argument("-o", "--output", default="-", help="the file to write (default: stdout)")

    tour = commands.add_parser(
        "export-tournament",
        parents=[remote],
        help="save a tournament and all its games as one bundle file (needs --url)",
    )
    tour.add_argument("tournament", metavar="TOURNAMENT", help="the tournament id")
    tour.add_argument("-o", "--output", default="-", help="the file to write (default: stdout)")

    imp = commands.add_parser(
        "import", parents=[remote], help="import a finished game's file into the service (needs --url)"
    )
    imp.add_argument("file", metavar="FILE", help="the game file")


def _add_verify(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], remote: argparse.ArgumentParser
) -> None:
    verify = commands.add_parser(
        "verify",
        parents=[remote],
        help="check a file's hash chain, referee its commands and fold it through the rules; "
        "a tournament's bundle: every chain, referee, fold and result",
    )
    verify.add_argument("game", metavar="GAME", help="the game file (or a game id with --url)")
    verify.add_argument(
        "--receipts",
        metavar="PATH",
        help="receipts the service signed (JSON Lines; a file or a folder of them): each must verify "
        "and agree with the file, or the file was rewritten or cut short",
    )
    verify.add_argument(
        "--keys",
        metavar="FILE",
        help="the JWK set that verifies the receipts (as /.well-known/archipelago/keys gives it), "
        "instead of the keys the file publishes",
    )


def _add_show(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], remote: argparse.ArgumentParser
) -> None:
    show = commands.add_parser(
        "show", parents=[remote], help="print the board and hands at a version, as the viewer sees them"
    )
    show.add_argument("game", metavar="GAME")
    show.add_argument("--at", type=int, metavar="N", help="the version (default: the last)")
    show.add_argument("--seat", metavar="S", help="view as this seat (number or name; complete files only)")


def _add_annotate(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], remote: argparse.ArgumentParser
) -> None:
    annotate = commands.add_parser(
        "annotate", parents=[remote], help="add a comment, a move mark or a highlight to a version"
    )
    annotate.add_argument("game", metavar="GAME")
    annotate.add_argument("--at", type=int, metavar="N", required=True, help="the version annotated")
    annotate.add_argument("--author", help="the layer's name (not with a seat's --token)")
    annotate.add_argument("--author-kind", choices=("guest", "analysis"), default="guest")
    what = annotate.add_mutually_exclusive_group(required=True)
    what.add_argument("--comment", metavar="TEXT", help="a comment")
    what.add_argument("--mark", choices=MARKS, help="a move mark")
    what.add_argument(
        "--highlight", metavar="ISL,...", help="islands and lines (A-B) to outline, comma-separated"
    )
    annotate.add_argument("--text", help="words to go with a mark or a highlight")


def _add_render(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], remote: argparse.ArgumentParser
) -> None:
    render = commands.add_parser(
        "render", parents=[remote], help="draw the board at a version (.svg) or the whole game (.html)"
    )
    render.add_argument("game", metavar="GAME")
    render.add_argument("-o", "--output", required=True, help="board.svg, or game.html")
    render.add_argument("--at", type=int, metavar="N", help="the version (.svg) or the opening step (.html)")
    render.add_argument("--seat", metavar="S", help="view as this seat (number or name; complete files only)")
    render.add_argument("--format", choices=("svg", "html"), help="default: from the output's suffix")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line `argv`; the exit status."""
    args = build_parser().parse_args(argv)
    try:
        COMMANDS[args.command](args)
    except Failed as error:
        return _fail(str(error))
    except ClientError as error:
        return _fail(str(error))
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`): nothing more to say
        return 1
    except Exception as error:  # never a traceback for the user, unless asked for one
        if os.environ.get(DEBUG_ENV):
            raise
        return _fail(f"unexpected {type(error).__name__}: {error} (set {DEBUG_ENV}=1 for the traceback)")
    return 0


def _fail(message: str, status: int = 1) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return status


# --- the commands ----------------------------------------------------------------------------


def cmd_export(args: argparse.Namespace) -> None:
    content = _client(args, "export").export(args.game)
    _write_output(args.output, content)
    if args.output != "-":
        _status(f"wrote {args.output} ({len(content)} bytes)")


def cmd_export_tournament(args: argparse.Namespace) -> None:
    content = _client(args, "export-tournament").export_tournament(args.tournament)
    if not bundle.is_bundle(content):
        raise Failed(f"the service's export of tournament {args.tournament} is not a tournament bundle")
    _write_output(args.output, content)
    if args.output != "-":
        _status(f"wrote {args.output} ({len(content)} bytes)")


def cmd_import(args: argparse.Namespace) -> None:
    client = _client(args, "import")
    answer = client.import_game(_read_bytes(args.file))
    print(f"imported as game {answer.get('game_id')} (version {answer.get('version')}, archived)")


def cmd_verify(args: argparse.Namespace) -> None:
    if args.url:
        client = _client(args, "verify")
        _verify_stored(client, args.game)
        content = client.export(args.game)
    else:
        content = _read_bytes(args.game)
        if bundle.is_bundle(content):
            sys.stdout.write(_tournament(cli_tournament.verify_text, bundle.verify_bundle(content)))
            if args.receipts:
                tournament, games = bundle.read_bundle(content)
                streams = receipts_check.bundle_streams(tournament, games)
                _check_receipts(args, streams, bundle.published_keys(content))
            return
    result = archive.verify(content)
    if not result.ok:
        where = f"event {result.first_bad}" if result.first_bad is not None else f"line {result.line}"
        raise Failed(f"{where}: {result.reason}")
    game = archive.read(content)
    refereed = referee(game.envelopes)
    if not refereed.ok:
        raise Failed(
            f"event {refereed.first_fault}: the referee replay finds the command there at fault: "
            f"{refereed.fault}"
        )
    try:
        folded = replay(game)
    except ReplayError as error:
        raise Failed(str(error)) from None
    deal = check_deal(archive.read(content).envelopes)
    if not deal.ok:
        raise Failed(f"event {deal.first_bad}: the deal fails: {deal.reason}")
    last = folded.view()
    opened = sum(1 for e in game.envelopes if e.secret is not None)
    text = f"ok: {result.events} events; the hash chain holds and the rules fold every event"
    print(text + f" ({_outcome(last)}); {opened} secrets match their digests")
    print(deal_text(deal))
    print(f"referee: {refereed}")
    if result.unverifiable:
        print(
            f"note: {len(result.unverifiable)} events are redacted for this file's viewer: their "
            "hashes and links were checked, their secret digests cannot be recomputed"
        )
    if args.receipts:
        read = archive.read(content)
        streams = receipts_check.game_streams(read.envelopes)
        _check_receipts(args, streams, read.header.get(archive.KEYS))


def _check_receipts(args: argparse.Namespace, streams: receipts_check.Streams, published: Any) -> None:
    """The receipts of --receipts held against the file's `streams`, verified with --keys or the
    keys the file `published`; Failed naming the first receipt that fails."""
    keys = published
    if args.keys:
        try:
            keys = json.loads(_read_bytes(args.keys))
        except ValueError:
            raise Failed(f"{args.keys} is not a JWK set (JSON)") from None
    try:
        print(receipts_check.check(receipts_check.read_receipts(Path(args.receipts)), streams, keys))
    except receipts_check.ReceiptsError as error:
        raise Failed(str(error)) from None


def deal_text(deal: DealReport) -> str:
    """The deal's check in words."""
    if deal.status == CHECKED:
        return (
            f"deal: the revealed seed matches its commitment and draws every chance event again "
            f"({deal.draws} draws)"
        )
    if deal.status == COMMITTED:
        return (
            f"deal: committed (sha256 {deal.commitment}), not revealed to this file's viewer: {deal.reason}"
        )
    return f"deal: not checked: {deal.reason}"


def _verify_stored(client: Client, game_id: str) -> None:
    """The service's own check of the events it stores; the file it exports is checked next."""
    checked = client.verify(game_id)
    refereed = checked.get("referee") or {}
    if checked.get("first_bad_version") is None and refereed.get("ok") is False:
        raise Failed(
            f"event {refereed.get('first_fault')}: the service's referee replay finds the command there "
            f"at fault: {refereed.get('fault')}"
        )
    if checked.get("ok") is not True:
        first = checked.get("first_bad_version")
        deal = checked.get("deal") or {}
        if deal.get("status") == "fault":
            raise Failed(f"event {first}: the deal in the service's store fails: {deal.get('reason')}")
        raise Failed(
            f"event {first}: the hash chain in the service's store breaks there "
            f"(of {checked.get('version')} stored events); the record was changed outside the service"
        )


def cmd_show(args: argparse.Namespace) -> None:
    content = _bundle_file(args)
    if content is not None:
        sys.stdout.write(cli_tournament.standings_text(_tournament(cli_tournament.bundle_view, content)))
        return
    view, notes = _view(args)
    sys.stdout.write(show_text(view, _board(view), [annotation_text(n) for n in notes]))


def cmd_render(args: argparse.Namespace) -> None:
    kind = args.format or Path(args.output).suffix.lower().lstrip(".")
    if kind not in ("svg", "html"):
        raise Failed(
            f"cannot tell what to render from {args.output!r}: name it .svg or .html (or give --format)"
        )
    content = _bundle_file(args)
    if content is not None:
        _render_tournament(content, kind, args.output)
        return
    if kind == "svg":
        view, notes = _view(args)
        lit = [n for n in notes if n.get("kind") == "highlight"]
        svg = render_svg(
            view,
            _board(view),
            caption=f"version {view.get('version', '?')}",
            highlight_islands=[i for n in lit for i in n.get("islands", [])],
            highlight_lines=[line for n in lit for line in n.get("lines", [])],
            notes=[annotation_text(n) for n in notes],
        )
        _write_output(args.output, svg.encode("utf-8"))
    else:
        game = _replay(args)
        _status(f"rendering {len(game.steps)} steps of {game.last_version} versions ...")
        page = game_page(game, start_version=args.at, progress=_progress(sys.stderr))
        _write_output(args.output, page.encode("utf-8"))
    if args.output != "-":
        _status(f"wrote {args.output}")


def cmd_annotate(args: argparse.Namespace) -> None:
    note: dict[str, Any] = {"version": args.at}
    if args.comment is not None:
        note.update(kind="comment", text=args.comment)
    elif args.mark is not None:
        note.update(kind="mark", mark=args.mark)
    else:
        note.update(kind="highlight", **_highlight(args.highlight))
    if args.text is not None:
        if args.comment is not None:
            raise Failed("--text goes with --mark or --highlight; a comment is its own text")
        note["text"] = args.text
    if args.url:
        if args.author is not None:
            note.update(author=args.author, author_kind=args.author_kind)
        record = _client(args, "annotate").annotate(args.game, note)
        print(f"annotated version {record.get('version')} of game {args.game} (layer {record.get('layer')})")
        return
    if not args.author:
        raise Failed("name the annotation's author with --author (the layer's name)")
    _annotate_file(Path(args.game), note, args.author.strip(), args.author_kind)
    print(f"annotated version {args.at} of {args.game} (layer {args.author.strip()}, {note['kind']})")


def _render_tournament(content: bytes, kind: str, output: str) -> None:
    """The tournament's page and each game's player page beside it, linked from it."""
    if kind != "html" or output == "-":
        raise Failed("a tournament renders as pages: name the output file .html")
    pages = _tournament(cli_tournament.render_pages, content, Path(output))
    for path, page in pages.items():
        _write_output(str(path), page.encode("utf-8"))
    audit = list(pages)[-1]
    _status(f"wrote {output} and {len(pages) - 2} game pages beside it, and the audit page {audit.name}")


COMMANDS: dict[str, Callable[[argparse.Namespace], None]] = {
    "export": cmd_export,
    "export-tournament": cmd_export_tournament,
    "import": cmd_import,
    "verify": cmd_verify,
    "show": cmd_show,
    "annotate": cmd_annotate,
    "render": cmd_render,
}


# --- where a game comes from -----------------------------------------------------------------


def _client(args: argparse.Namespace, command: str) -> Client:
    if not args.url and command in ("export", "export-tournament", "import"):
        raise Failed(f"{command} talks to the service: give --url (e.g. --url http://127.0.0.1:8000)")
    return Client(args.url, args.token)


def _bundle_file(args: argparse.Namespace) -> bytes | None:
    """The bundle GAME names, when it is a tournament's bundle on disk; None for a game."""
    if args.url:
        return None
    content = _read_bytes(args.game)
    if not bundle.is_bundle(content):
        return None
    given = [f"--{name}" for name in ("at", "seat") if getattr(args, name, None) is not None]
    if given:
        raise Failed(f"{given[0]} is for a game; a tournament's bundle shows its standings")
    return content


def _tournament(work: Callable[..., Any], *args: Any) -> Any:
    """`work(*args)` on a bundle, its failure told as the first bad place."""
    try:
        return work(*args)
    except cli_tournament.BundleFailed as error:
        raise Failed(str(error)) from None


def _read_bytes(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise Failed(f"cannot read {path}: {error.strerror or error}") from None


def _archive(path: str) -> archive.Archive:
    try:
        return archive.read(_read_bytes(path))
    except archive.ArchiveError as error:
        raise Failed(f"{path} is not a readable game file: {error}") from None


def _replay(args: argparse.Namespace) -> Replay:
    """The game folded for its viewer: from the file, or from the service's export with --url."""
    if args.url:
        if getattr(args, "seat", None) is not None:
            raise Failed("with --url the token decides the seat: leave out --seat")
        content = Client(args.url, args.token).export(args.game)
        source = f"the export of game {args.game}"
        try:
            game_file = archive.read(content)
        except archive.ArchiveError as error:
            raise Failed(f"{source} is not a readable game file: {error}") from None
    else:
        game_file = _archive(args.game)
    try:
        return replay(game_file, args.seat)
    except ReplayError as error:
        raise Failed(str(error)) from None


def _view(args: argparse.Namespace) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The view at --at (default: the last version) and the annotations on that version."""
    if not args.url:
        game = _replay(args)
        try:
            view = game.view(args.at)
        except ReplayError as error:
            raise Failed(str(error)) from None
        return view, game.annotations_at(view["version"])
    if args.seat is not None:
        raise Failed("with --url the token decides the seat: leave out --seat")
    client = Client(args.url, args.token)
    view = client.view(args.game, args.at)
    version = view.get("version")
    listed = client.annotations(args.game)
    return view, [n for n in listed if isinstance(n, dict) and n.get("version") == version]


def _board(view: Mapping[str, Any]) -> Any:
    """The board data of the viewed game, as its declaration gives it to renderers."""
    game = str(view.get("game"))
    try:
        return rules_for(game).board(game)
    except DomainError as error:
        raise Failed(f"no board for game {view.get('game')!r}: {error.message}") from None
    except (OSError, ValueError) as error:
        raise Failed(f"no board for game {view.get('game')!r}: {error}") from None


def _outcome(view: Mapping[str, Any]) -> str:
    result = view.get("result")
    if not result:
        return f"the game is at round {view.get('round')}, phase {view.get('phase')}"
    names = [s["name"] for s in view.get("seats", [])]
    winner = result.get("winner")
    who = "a draw" if winner is None else f"{names[winner]} wins"
    return f"game over: {who}, {'-'.join(str(t) for t in result.get('totals', []))}"


# --- annotating a file -------------------------------------------------------------------------


def _highlight(text: str) -> dict[str, Any]:
    """ "ALOA,BARI-DUDA" as {"islands": ["ALOA"], "lines": [["BARI", "DUDA"]]}."""
    islands, lines = [], []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if "-" in item:
            a, _, b = item.partition("-")
            lines.append([a.strip(), b.strip()])
        else:
            islands.append(item)
    if not islands and not lines:
        raise Failed("--highlight names islands or lines, e.g. --highlight ALOA,BARI-DUDA")
    shown: dict[str, Any] = {}
    if islands:
        shown["islands"] = islands
    if lines:
        shown["lines"] = lines
    return shown


def _annotate_file(path: Path, note: Mapping[str, Any], author: str, author_kind: str) -> None:
    """Append one annotation to the file, checked as the service checks one, rewritten in place.

    The header's count is updated; every other line is kept byte for byte.
    """
    content = _read_bytes(str(path))
    try:
        game_file = archive.read(content)
    except archive.ArchiveError as error:
        raise Failed(f"{path} is not a readable game file: {error}") from None
    if author in game_file.header["seats"]:
        raise Failed(f"{author!r} is a seat of this game: a seat annotates with its token (--url --token)")
    record = {
        "layer": author,
        "author_kind": author_kind,
        **note,
        "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
    }
    game = str(game_file.header["game"])
    board = rules_for(game).board(game)
    try:
        record = check_record(record, len(game_file.envelopes), board, len(game_file.header["seats"]))
    except AnnotationRefused as error:
        raise Failed(f"{error.code}: {error.message}") from None
    header = {**game_file.header, "annotations": game_file.header["annotations"] + 1}
    rest = content.split(b"\n", 1)[1]
    line = canonical_json({"kind": "annotation", "annotation": record})
    updated = (canonical_json(header) + "\n").encode("utf-8") + rest + (line + "\n").encode("utf-8")
    try:
        archive.read(updated)  # what we write must read back: never leave a damaged file
    except archive.ArchiveError as error:
        raise Failed(f"the annotated file would not read back ({error}); {path} is unchanged") from None
    _write_output(str(path), updated)


# --- output ------------------------------------------------------------------------------------


def _write_output(target: str, content: bytes) -> None:
    """`content` to stdout ("-") or to the file, replaced whole (a partial file never remains)."""
    if target == "-":
        out = getattr(sys.stdout, "buffer", None)
        if out is None:
            sys.stdout.write(content.decode("utf-8"))
        else:
            out.write(content)
        sys.stdout.flush()
        return
    path = Path(target)
    tmp: Path | None = None
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else _default_mode()
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=f".{path.name}.", delete=False) as f:
            tmp = Path(f.name)
            f.write(content)
        tmp.chmod(mode)
        os.replace(tmp, path)
    except OSError as error:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        raise Failed(f"cannot write {target}: {error.strerror or error}") from None


def _default_mode() -> int:
    """The mode a new file gets from open(): 0o666 less the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _status(message: str) -> None:
    print(message, file=sys.stderr)


def _progress(stream: TextIO) -> Callable[[int, int], None]:
    """Report rendering progress about every tenth of the way (and at the end)."""
    step = {"next": 0}

    def report(done: int, total: int) -> None:
        if done >= step["next"] or done == total:
            print(f"  {done}/{total} frames", file=stream)
            step["next"] = done + max(1, total // 10)

    return report


if __name__ == "__main__":
    sys.exit(main())
