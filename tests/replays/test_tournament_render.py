"""The tournament's page (replays.render_tournament): one self-contained HTML file."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from replays.render_tournament import render_tournament_html
from tests.replays.tournament_play import hand_swiss

LINKS = {"g1-0": "swiss-g1-0.html", "g2-1": "swiss-g2-1.html?step=3&seat=1"}


class Tables(HTMLParser):
    """The text of every cell of every table, by the table's id."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.current: str | None = None
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table":
            self.current = found.get("id") or ""
            self.tables[self.current] = []
        elif tag == "tr" and self.current is not None:
            self.tables[self.current].append([])
        elif tag in ("td", "th") and self.current is not None:
            self.tables[self.current][-1].append("")
        elif tag == "a":
            self.hrefs.append(found.get("href") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.current = None

    def handle_data(self, data: str) -> None:
        if self.current is not None and self.tables[self.current] and self.tables[self.current][-1]:
            self.tables[self.current][-1][-1] += data


@pytest.fixture(scope="module")
def page() -> str:
    return render_tournament_html(hand_swiss().view, LINKS)


def parsed(page: str) -> Tables:
    tables = Tables()
    tables.feed(page)
    return tables


def test_the_page_fetches_nothing_from_elsewhere(page: str) -> None:
    assert "<style>" in page
    for resource in ("<script", "<link", "src=", "url(", "@import", "<img", "<iframe"):
        assert resource not in page
    assert "//" not in page  # no address of another site, not even a protocol-relative one


def test_the_page_shows_the_standings_in_order_with_their_tie_breaks(page: str) -> None:
    rows = parsed(page).tables["standings"]
    assert rows[0][:4] == ["#", "Entrant", "Points", "Island points"]
    assert [row[:4] for row in rows[1:]] == [
        ["1", "Ada", "6", "8"],
        ["2", "Bo", "5", "0"],
        ["3", "Cy", "4", "4"],
        ["4", "Ed", "4", "-4"],
        ["5", "Di", "3", "-8"],
    ]
    assert [row[4] for row in rows[1:]] == ["8", "3", "9", "6", "9"]  # Buchholz


def test_the_page_shows_the_crosstable(page: str) -> None:
    rows = parsed(page).tables["crosstable"]
    assert rows == [
        ["#", "Entrant", "1", "2", "3", "4", "5", "Points"],
        ["1", "Ada", "", "", "1", "1", "", "6"],
        ["2", "Bo", "", "", "", "", "½", "5"],
        ["3", "Cy", "0", "", "", "", "1", "4"],
        ["4", "Ed", "0", "", "", "", "", "4"],
        ["5", "Di", "", "½", "0", "", "", "3"],
    ]


def test_the_page_links_each_game_it_was_given_a_link_for(page: str) -> None:
    assert parsed(page).hrefs == [LINKS["g1-0"], LINKS["g2-1"]]
    assert "game g1-1" in page and "game g2-0" in page  # named without a link
    assert "Bye: Ed" in page and "Bye: Bo" in page


def test_a_link_handed_in_is_kept_as_given_escaped() -> None:
    page = render_tournament_html(hand_swiss().view, {"g1-0": "https://example.org/games/g1-0?a=1&b=2"})
    assert parsed(page).hrefs == ["https://example.org/games/g1-0?a=1&b=2"]
    assert 'href="https://example.org/games/g1-0?a=1&amp;b=2"' in page


def test_names_are_escaped() -> None:
    tournament = hand_swiss()
    view = tournament.view
    view["entrants"][0]["name"] = "<b>Ada</b> & co"
    page = render_tournament_html(view, {})
    assert "<b>Ada" not in page and "&lt;b&gt;Ada&lt;/b&gt; &amp; co" in page
