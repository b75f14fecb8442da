"""A tournament as one self-contained HTML page: standings, crosstable, rounds, links to games.

Nothing is fetched: the CSS is inline, there is no script, and the only addresses in the page
are the links to each game's player page that the caller hands in.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from replays.tournament_reports import cell_text, crosstable, figure, pairings

CSS = """
body{font:15px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:60em;color:#123;background:#fbfaf5}
h1{margin:0}h2{margin-top:1.6em;border-bottom:2px solid #2a7;padding-bottom:.2em}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #bcc;padding:.25em .6em;text-align:right}
th{background:#e4efe9}td.name,th.name{text-align:left}
td.self{background:#ccd}.muted{color:#789}.withdrawn{text-decoration:line-through}
"""
STANDINGS_HEAD = (
    ("#", "rank"), ("Entrant", "name"), ("Points", "points"), ("Island points", "island_points"),
    ("Buchholz", "buchholz"), ("Sonneborn-Berger", "sonneborn_berger"),
    ("Direct encounter", "direct_encounter"), ("Games", "games"), ("Byes", "byes"),
)  # fmt: skip


def render_tournament_html(
    view: Mapping[str, Any], game_links: Mapping[str, str], audit_link: str | None = None
) -> str:
    """The page of `view` (domain.tournament.module.view); `game_links` maps a game id to the
    address of its player page (a game without one is named, not linked); `audit_link`, the
    address of the audit page written beside it."""
    title = view["name"] or f"{view['game']} tournament"
    rounds = f"round {view['round']} of {view['rounds']}" if view["rounds"] else f"round {view['round']}"
    subtitle = f"{view['game']} · {view['format'].replace('_', ' ')} · {rounds} · {view['phase']}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
        f"<header><h1>{escape(title)}</h1><p class=muted>{escape(subtitle)}</p></header>",
        _audit(audit_link),
        "<h2>Standings</h2>",
        _standings(view),
        "<h2>Crosstable</h2>",
        _crosstable(view),
        "<h2>Rounds</h2>",
        *(_round(r, game_links) for r in pairings(view)),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _audit(link: str | None) -> str:
    if link is None:
        return ""
    return (
        f'<p><a href="{escape(link)}">Audit the bundle in your browser</a>: drop the bundle and your '
        "receipts on that page to check every hash chain, secret and receipt.</p>"
    )


def _cell(text: str, css: str = "", tag: str = "td") -> str:
    """One cell; `text` is HTML already escaped."""
    return f'<{tag} class="{css}">{text}</{tag}>' if css else f"<{tag}>{text}</{tag}>"


def _standings(view: Mapping[str, Any]) -> str:
    called = {e["id"]: e["name"] for e in view["entrants"]}
    head = "".join(_cell(label, key, "th") for label, key in STANDINGS_HEAD)
    rows = []
    for line in view["standings"]:
        css = "name withdrawn" if line["withdrawn"] else "name"
        cells = [_cell(str(line["rank"] + 1)), _cell(escape(called[line["entrant"]]), css)]
        cells += [_cell(figure(line[key])) for _, key in STANDINGS_HEAD[2:]]
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return f'<table id="standings"><tr>{head}</tr>{"".join(rows)}</table>'


def _crosstable(view: Mapping[str, Any]) -> str:
    table = crosstable(view)
    entrants = table["entrants"]
    head = [_cell("#", tag="th"), _cell("Entrant", "name", "th")]
    head += [_cell(str(e["rank"]), tag="th") for e in entrants] + [_cell("Points", tag="th")]
    rows = []
    for row in entrants:
        cells = [_cell(str(row["rank"])), _cell(escape(row["name"]), "name")]
        for col in entrants:
            met = table["cells"][row["entrant"]].get(col["entrant"], [])
            cells.append(_cell("", "self") if col is row else _cell(escape(cell_text(met))))
        cells.append(_cell(figure(row["points"])))
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return f'<table id="crosstable"><tr>{"".join(head)}</tr>{"".join(rows)}</table>'


def _round(round_: Mapping[str, Any], game_links: Mapping[str, str]) -> str:
    items = []
    for table in round_["tables"]:
        who = " – ".join(escape(seat["name"]) for seat in table["seats"])
        result = table["result"]
        score = "playing" if result is None else "–".join(figure(p) for p in result["points"])
        if result is not None and result["how"] != "played":
            score += f" ({escape(result['how'])})"
        items.append(f"<li>Table {table['table'] + 1}: {who}: {escape(score)}{_game(table, game_links)}</li>")
    for bye in round_["byes"]:
        items.append(
            f"<li>Bye: {escape(bye['name'])} ({figure(bye['points'])}, {escape(bye['reason'])})</li>"
        )
    return f"<h3>Round {round_['round']}</h3><ul>{''.join(items)}</ul>"


def _game(table: Mapping[str, Any], game_links: Mapping[str, str]) -> str:
    game_id = table["game_id"]
    if game_id is None:
        return ""
    link = game_links.get(game_id)
    if link is None:
        return f' <span class="muted">game {escape(game_id)}</span>'
    return f' <a href="{escape(link, quote=True)}">game {escape(game_id)}</a>'
