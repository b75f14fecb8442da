"""What the `replays` commands print and write for a tournament bundle (replays.bundle)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from domain.tournament_rules import rules as tournament_rules
from replays import archive, audit_page, bundle
from replays.frames import replay
from replays.render_html import game_page
from replays.render_tournament import render_tournament_html
from replays.tournament_audit import AuditReport, BrokenPlace, fold_tournament
from replays.tournament_reports import figure

STANDINGS = (
    ("Points", "points"), ("Island", "island_points"), ("Buchholz", "buchholz"),
    ("S-B", "sonneborn_berger"), ("Direct", "direct_encounter"), ("Games", "games"), ("Byes", "byes"),
)  # fmt: skip


class BundleFailed(Exception):
    """A bundle that does not read or does not audit; the message names the first bad place."""


def verify_text(report: AuditReport) -> str:
    """What `replays verify` prints for a sound bundle; BundleFailed naming the first bad place."""
    if report.broken is not None:
        raise BundleFailed(str(report.broken))
    if report.mismatches:
        first, more = report.mismatches[0], len(report.mismatches) - 1
        place = BrokenPlace("tournament", first["version"], first["version"] + 1, _mismatch(first))
        raise BundleFailed(
            str(place) + (f" (and {more} more places the rules or the games contradict)" if more else "")
        )
    lines = [
        f"ok: tournament bundle of {report.streams} streams, {report.events} events; every hash chain "
        "holds, the rules fold every stream, the referee finds no recorded command at fault and every "
        "recorded result is its game's own"
    ]
    # Before the corrections, whose reasons end the report.
    lines += [
        f"note: game {game['game_id']} is not refereed from version {game['from_version']}: {game['reason']}"
        for game in report.unrefereed
    ]
    if report.corrections:
        lines.append(f"corrections by the organizer ({len(report.corrections)}):")
        lines += [f"  {_correction(c)}" for c in report.corrections]
    if report.unfolded:
        hidden = ", ".join(report.unfolded)
        lines.append(
            f"note: {len(report.unfolded)} games keep cards hidden from spectators ({hidden}): "
            "their chains were checked, the rules could not fold them"
        )
    return "\n".join(lines) + "\n"


def _mismatch(found: Mapping[str, Any]) -> str:
    if found.get("game_id") is None:  # a pairing or the close: no game of its own
        of_round = "" if found.get("round") is None else f" of round {found['round']}"
        return f"{found['type']}{of_round}: {found['reason']}"
    return f"game {found['game_id']} ({_table(found)}): {found['reason']}"


def _correction(c: Mapping[str, Any]) -> str:
    before = "-".join(figure(p) for p in (c.get("before") or {}).get("points", []))
    after = "-".join(figure(p) for p in c["after"]["points"] or [])
    where = f"game {c['game_id']} ({_table(c)})"
    return f"event {c['version']}, {c['at']}, by {c['actor']}: {where} {before} -> {after}: {c['reason']}"


def _table(entry: Mapping[str, Any]) -> str:
    """Round and table as people count them (the events number tables from 0)."""
    table = entry.get("table")
    return f"round {entry.get('round')}, table {table + 1 if isinstance(table, int) else table}"


def bundle_view(content: bytes) -> dict[str, Any]:
    """The tournament's view (as a spectator sees it) from a bundle whose chains hold."""
    try:
        tournament, _ = bundle.read_bundle(content)
    except bundle.BundleError as error:
        raise BundleFailed(str(error.place)) from None
    state = fold_tournament(tournament)
    if isinstance(state, BrokenPlace):
        raise BundleFailed(str(state))
    return tournament_rules.view(state, None)


def standings_text(view: Mapping[str, Any]) -> str:
    """The standings as a text table, with a line saying what the tournament is and where it stands."""
    called = {e["id"]: e["name"] for e in view["entrants"]}
    rounds = f"round {view['round']} of {view['rounds']}" if view["rounds"] else f"round {view['round']}"
    kind = f"{view['game']}, {view['format'].replace('_', ' ')}"
    title = f"{view['name'] or 'Tournament'}: {kind}, {rounds}, {view['phase']}"
    rows = [["#", "Entrant", *(label for label, _ in STANDINGS)]]
    for line in view["standings"]:
        name = called[line["entrant"]] + (" (withdrawn)" if line["withdrawn"] else "")
        rows.append([str(line["rank"] + 1), name, *(figure(line[key]) for _, key in STANDINGS)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    text = [title]
    for row in rows:
        cells = [row[0].rjust(widths[0]), row[1].ljust(widths[1])]
        cells += [cell.rjust(width) for cell, width in zip(row[2:], widths[2:], strict=True)]
        text.append("  ".join(cells).rstrip())
    return "\n".join(text) + "\n"


def render_pages(content: bytes, output: Path) -> dict[Path, str]:
    """The tournament's page at `output`, each game's player page beside it (`<stem>-<game>.html`)
    and the audit page (audit.html), linked from the tournament's page by file name: every page the
    render writes, by path; the audit page comes last."""
    view = bundle_view(content)
    pages: dict[Path, str] = {}
    links: dict[str, str] = {}
    for game_id, game_file in bundle.game_files(content).items():
        path = output.with_name(f"{output.stem}-{_file_safe(game_id)}.html")
        pages[path] = game_page(replay(archive.read(game_file)))
        links[game_id] = path.name
    audit = audit_page.offline_path(output)
    pages[output] = render_tournament_html(view, links, audit_link=audit.name)
    pages[audit] = audit_page.offline_page()
    return pages


def _file_safe(game_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in game_id)
