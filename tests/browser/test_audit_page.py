"""The audit page, opened from disk (file://) as `replays render` writes it beside a bundle: it
checks a played tournament's bundle and the receipts kept of it in Chromium, names the event of a
flipped byte and the receipt of a forged signature, and its canonical JSON is record/canonical.py's."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from record import receipts
from record.canonical import canonical_json
from record.envelope import HASHED_FIELDS, Envelope
from replays import archive
from replays.bundle import write_bundle
from replays.cli import main
from tests.browser import axe, pages, screens
from tests.browser.conftest import LiveService
from tests.replays.play import rechained
from tests.replays.tournament_play import Tournament, played
from tests.seat_signing import SeatKey

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(7, 39)))
JWK = receipts.public_jwk(KEY.public_key())
AT = "2026-11-28T01:00:00.000000Z"
#: A bundle of about 1000 events is hashed in well under a second; the margin is for a busy machine.
AUDITED_WITHIN = 60.0


def receipts_of(envelopes: Sequence[Envelope], field: str, stream_id: str) -> list[dict[str, Any]]:
    """A receipt of the last event of each command, as the service answers its clients."""
    last = {e.command_id: e for e in envelopes}
    return [receipts.sign(KEY, JWK["kid"], field, stream_id, e.version, e.hash, AT) for e in last.values()]


@dataclass(frozen=True)
class Played:
    tournament: Tournament
    bundle: bytes
    kept: list[dict[str, Any]]
    audit_page: Path


@pytest.fixture(scope="module")
def played_out(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A closed Kahuna Swiss, its bundle with the key set, every receipt of its streams, and the
    audit page that `replays render` writes beside the bundle's pages."""
    tournament = played(seed=11, commands=True)
    tournament.run("CloseTournament")
    tournament.envelopes = rechained(tournament.envelopes, 1, command_id="create-t1")
    kept = receipts_of(tournament.envelopes, receipts.TOURNAMENT, "t1")
    for game_id, envelopes in tournament.games.items():
        kept += receipts_of(envelopes, receipts.GAME, game_id)
    bundle = write_bundle(tournament.envelopes, tournament.games, keys=receipts.key_set([JWK]))
    folder = tmp_path_factory.mktemp("rendered")
    (folder / "open.jsonl").write_bytes(bundle)
    assert main(["render", str(folder / "open.jsonl"), "-o", str(folder / "open.html")]) == 0
    assert 'href="audit.html"' in (folder / "open.html").read_text(encoding="utf-8")
    return Played(tournament, bundle, kept, folder / "audit.html")


@dataclass(frozen=True)
class Report:
    state: str
    verdict: str
    fault: str
    checked: list[str]
    unchecked: list[str]


def write_receipts(path: Path, rows: Sequence[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def audited(driver: WebDriver, page: Path | str, file: Path, kept: Sequence[Path] = ()) -> Report:
    """What the page (a file, or the service's address) reports once it has checked `file` against
    the receipt files `kept`."""
    driver.get(page.as_uri() if isinstance(page, Path) else page)
    pages.wait_until(
        driver, lambda d: d.find_element(By.ID, "audit").get_attribute("data-ready"), what="the page"
    )
    if kept:
        driver.find_element(By.ID, "audit-receipts").send_keys("\n".join(str(p) for p in kept))
        pages.wait_until(driver, lambda d: "receipts:" in d.find_element(By.ID, "audit-chosen").text)
    driver.find_element(By.ID, "audit-file").send_keys(str(file))
    result = driver.find_element(By.ID, "audit-result")
    state = pages.wait_until(
        driver,
        lambda d: (
            result.get_attribute("data-state") in ("ok", "fault") and result.get_attribute("data-state")
        ),
        timeout=AUDITED_WITHIN,
        what="the audit's report",
    )

    def items(css: str) -> list[str]:
        return [li.text for li in driver.find_elements(By.CSS_SELECTOR, css)]

    return Report(
        state,
        driver.find_element(By.ID, "audit-verdict").text,
        driver.find_element(By.ID, "audit-fault").text,
        items("#audit-checked li"),
        items("#audit-unchecked li"),
    )


def test_a_played_tournament_s_bundle_and_its_receipts_audit_ok_from_disk(
    played_out: Played, tmp_path: Path, open_browser: Callable[[], WebDriver]
) -> None:
    bundle = tmp_path / "open.jsonl"
    bundle.write_bytes(played_out.bundle)
    kept = write_receipts(tmp_path / "receipts.jsonl", played_out.kept)
    report = audited(open_browser(), played_out.audit_page, bundle, [kept])

    assert report.state == "ok", report
    assert report.verdict.startswith("ok: open.jsonl"), report.verdict
    checked = "\n".join(report.checked)
    for game_id, envelopes in played_out.tournament.games.items():
        assert f"game {game_id}: {len(envelopes)} events, every hash recomputed" in checked
    assert f"tournament t1: {len(played_out.tournament.envelopes)} events" in checked
    assert re.search(r"secrets? opened against", checked), checked  # the games' cards, revealed at the end
    assert f"Receipts: {len(played_out.kept)} checked: each signature against" in checked
    assert "Results: each of the 4 results the tournament recorded or corrected names its game's" in checked
    # The page says what it leaves to the command line.
    assert any("replays verify FILE --receipts PATH" in line for line in report.unchecked)


def flipped(bundle: bytes, line: int, field: str) -> bytes:
    """`bundle` with one character of `field`'s value on `line` changed, the line still canonical."""
    lines = bundle.split(b"\n")
    text = lines[line - 1].decode("utf-8")
    start = text.index(f'"{field}":"') + len(field) + 4
    digit = next(i for i in range(start, len(text)) if text[i].isdigit())
    lines[line - 1] = (text[:digit] + str((int(text[digit]) + 1) % 10) + text[digit + 1 :]).encode("utf-8")
    return b"\n".join(lines)


def test_a_flipped_byte_in_a_game_s_event_is_named_with_its_stream_event_and_line(
    played_out: Played, tmp_path: Path, open_browser: Callable[[], WebDriver]
) -> None:
    games = played_out.tournament.games
    game_id = sorted(games)[1]
    version = len(games[game_id]) // 2
    # The bundle's lines: its header, the tournament's events, then each game's header and events.
    line = 2 + len(played_out.tournament.envelopes)  # the first game's header
    for other in played_out.tournament.games:  # in the order the tournament assigned them
        if other == game_id:
            break
        line += 1 + len(games[other])
    line += version
    assert json.loads(played_out.bundle.split(b"\n")[line - 1])["version"] == version
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(flipped(played_out.bundle, line, "at"))

    report = audited(open_browser(), played_out.audit_page, damaged)

    assert report.state == "fault" and report.verdict.startswith("Not sound: damaged.jsonl")
    assert report.fault.startswith(
        f"The first fault: game {game_id}, event {version} (line {line}): hash mismatch: "
        "the event's content is not what was hashed"
    ), report.fault


def test_a_forged_receipt_is_named_and_so_is_a_re_sealed_rewrite_that_the_chains_alone_let_pass(
    played_out: Played, tmp_path: Path, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    bundle = tmp_path / "open.jsonl"
    bundle.write_bytes(played_out.bundle)
    genuine = played_out.kept
    forged = {**genuine[-1], "hash": "0" * 64}  # the signature of another hash
    kept = write_receipts(tmp_path / "kept.jsonl", [*genuine, forged])
    report = audited(driver, played_out.audit_page, bundle, [kept])
    field, stream_id = receipts.stream_of(forged)
    assert report.state == "fault"
    assert report.fault == (
        f"The first fault: receipt kept.jsonl line {len(genuine) + 1} ({field.removesuffix('_id')} "
        f"{stream_id}, event {forged['version']}): the signature does not verify: "
        "the service did not sign this receipt"
    ), report.fault

    # A game's winner flipped, its tournament's result made to name the new end, and every hash
    # after each change re-sealed: each chain holds and each result names its game's end, as far
    # as the page can tell; the receipts kept of the tournament and of the game do not hold.
    tournament = played_out.tournament
    game_id = sorted(tournament.games)[0]
    game = tournament.games[game_id]
    ended = next(e for e in game if e.type == "GameEnded")
    game = rechained(game, ended.version, data={**ended.data, "winner": 1 - (ended.data["winner"] or 0)})
    end = game[ended.version - 1]
    result = next(
        e for e in tournament.envelopes if e.type == "ResultRecorded" and e.data["game_id"] == game_id
    )
    stream = rechained(
        tournament.envelopes,
        result.version,
        data={**result.data, "final_hash": end.hash, "game_end": end.data},
    )
    forgery = tmp_path / "forgery.jsonl"
    forgery.write_bytes(
        write_bundle(stream, {**tournament.games, game_id: game}, keys=receipts.key_set([JWK]))
    )
    assert audited(driver, played_out.audit_page, forgery).state == "ok"  # without receipts nothing tells

    report = audited(driver, played_out.audit_page, forgery, [write_receipts(tmp_path / "r.jsonl", genuine)])
    changed = {("tournament_id", "t1"): (result.version, stream), ("game_id", game_id): (ended.version, game)}
    line, first = next(
        (n, r)
        for n, r in enumerate(genuine, 1)
        if receipts.stream_of(r) in changed and r["version"] >= changed[receipts.stream_of(r)][0]
    )
    field, stream_id = receipts.stream_of(first)
    now = changed[(field, stream_id)][1][first["version"] - 1].hash
    assert report.fault.startswith(
        f"The first fault: receipt r.jsonl line {line} ({field.removesuffix('_id')} {stream_id}, event "
        f"{first['version']}): rewritten: event {first['version']} hashes to {now}, "
        f"the receipt to {first['hash']}"
    ), report.fault


def test_a_result_that_names_another_end_than_its_game_s_is_named(
    played_out: Played, tmp_path: Path, open_browser: Callable[[], WebDriver]
) -> None:
    tournament = played_out.tournament
    game_id = sorted(tournament.games)[0]
    ended = next(e for e in tournament.games[game_id] if e.type == "GameEnded")
    game = rechained(
        tournament.games[game_id],
        ended.version,
        data={**ended.data, "winner": 1 - (ended.data["winner"] or 0)},
    )
    forgery = tmp_path / "game-only.jsonl"
    forgery.write_bytes(write_bundle(tournament.envelopes, {**tournament.games, game_id: game}))
    result = next(
        e for e in tournament.envelopes if e.type == "ResultRecorded" and e.data["game_id"] == game_id
    )

    report = audited(open_browser(), played_out.audit_page, forgery)

    assert report.fault.startswith(
        f"The first fault: tournament, event {result.version} (line {result.version + 1}): game {game_id}: "
        f"final_hash {ended.hash} is not the hash of the game's GameEnded (event {ended.version}, "
        f"{game[ended.version - 1].hash})"
    ), report.fault


def test_the_served_page_runs_under_the_service_s_policy_and_bars_no_one(
    played_out: Played, live_service: LiveService, tmp_path: Path, open_browser: Callable[[], WebDriver]
) -> None:
    bundle = tmp_path / "open.jsonl"
    bundle.write_bytes(played_out.bundle)
    kept = write_receipts(tmp_path / "receipts.jsonl", played_out.kept)
    driver = open_browser()
    report = audited(driver, f"{live_service.url}/audit", bundle, [kept])
    assert report.state == "ok", report
    assert axe.barred(axe.violations(driver)) == []


DROP = """
const [files, done] = [arguments[0], arguments[arguments.length - 1]];
const moved = new DataTransfer();
for (const [name, text] of files) moved.items.add(new File([text], name));
const zone = document.getElementById("audit-drop");
zone.dispatchEvent(new DragEvent("drop", {dataTransfer: moved, bubbles: true, cancelable: true}));
done();
"""


def dropped(driver: WebDriver, page: Path, files: Sequence[tuple[str, str]]) -> tuple[str, str, str]:
    """Drops `files` (name, text) together on the page: its state, verdict and first fault."""
    driver.get(page.as_uri())
    pages.wait_until(
        driver, lambda d: d.find_element(By.ID, "audit").get_attribute("data-ready"), what="the page"
    )
    driver.execute_async_script(DROP, [list(f) for f in files])
    result = driver.find_element(By.ID, "audit-result")
    state = pages.wait_until(
        driver,
        lambda d: (
            result.get_attribute("data-state") in ("ok", "fault") and result.get_attribute("data-state")
        ),
    )
    text = [driver.find_element(By.ID, i).text for i in ("audit-verdict", "audit-fault", "audit-checked")]
    return state, text[0], text[1] + text[2]


def test_a_game_file_and_its_receipts_dropped_together_are_told_apart_and_a_cut_tail_is_named(
    played_out: Played, open_browser: Callable[[], WebDriver]
) -> None:
    game_id = sorted(played_out.tournament.games)[2]
    game = rechained(played_out.tournament.games[game_id], 1, command_id=f"create-{game_id}")
    kept = "".join(json.dumps(r) + "\n" for r in receipts_of(game, receipts.GAME, game_id))
    keys = receipts.key_set([JWK])
    driver = open_browser()

    saved = json.dumps(keys, indent=2)  # a key set saved from /.well-known/archipelago/keys
    game_file = archive.export(game, None, True, keys=keys)
    files = [("kept.jsonl", kept), ("keys.json", saved), ("game.jsonl", game_file)]
    state, verdict, text = dropped(driver, played_out.audit_page, files)
    assert state == "ok" and verdict.startswith("ok: game.jsonl"), (verdict, text)
    assert f"game {game_id}: {len(game)} events" in text
    assert (
        f"Receipts: {len({e.command_id for e in game})} checked: each signature against the key set keys.json"
        in text
    )

    cut = archive.export(game[:-3], None, True, keys=keys)
    state, _, text = dropped(driver, played_out.audit_page, [("cut.jsonl", cut), ("kept.jsonl", kept)])
    last = len(game) - 3
    first = next(r for r in receipts_of(game, receipts.GAME, game_id) if r["version"] > last)
    assert state == "fault"
    assert (
        f"(game {game_id}, event {first['version']}): truncated: the receipt vouches for event "
        f"{first['version']}, the file ends at event {last}"
    ) in text, text


#: JSON texts whose canonical form is easy to get wrong: key order by code point (an astral
#: character sorts after U+FFFF, not before it as UTF-16 does), escapes, non-ASCII kept as is,
#: Python's spelling of floats, integers beyond 2**53, nesting, whitespace, repeated keys.
CASES = [
    '{"b":1,"a":2,"A":3,"_":4,"aa":5,"":6}',
    '{"\\ud83d\\ude00":1,"\\uffff":2,"\\ue000":3,"z":4,"é":5,"€":6}',
    '{"s":"tab\\t nl\\n cr\\r bs\\b ff\\f q\\" bsl\\\\ sl\\/ nul\\u0000 us\\u001f del\\u007f"}',
    '{"s":"é ñ 日本 \\u2028 \\u2029 😀 \\u00e9 \\uFEFF"}',
    "[1.0, -0.0, 0.0, 1e16, 1e15, 1.5e300, 1e-5, 0.0001, 0.00012345, 123456789012345678.0]",
    "[0.1, 0.30000000000000004, 5e-324, 1.7976931348623157e308, 2.5E+3, -1.25e-7, 100.0, 1e22, 1E2]",
    "[-0, 0, 9007199254740993, -123456789012345678901234567890, 18446744073709551616]",
    '{"n":{"z":[{"b":[],"a":{}},[[["deep"]]]],"a":null,"m":[true,false,null]}}',
    ' { "spaced" : [ 1 , 2 ] ,\n "k" :\t"v" } ',
    '{"a":1,"b":2,"a":3}',
]


def test_the_page_s_canonical_json_is_record_canonical_s(
    played_out: Played, open_browser: Callable[[], WebDriver]
) -> None:
    driver = open_browser()
    driver.get(played_out.audit_page.as_uri())
    pages.wait_until(
        driver, lambda d: d.find_element(By.ID, "audit").get_attribute("data-ready"), what="the page"
    )
    fields = driver.execute_script("return window.ArchipelagoAudit.HASHED_FIELDS")
    assert fields == list(HASHED_FIELDS)
    for text in CASES:
        page = driver.execute_script("return window.ArchipelagoAudit.canonicalOf(arguments[0])", text)
        assert page == canonical_json(json.loads(text)), text


def test_the_players_signatures_of_a_signed_tournament_are_checked_and_a_forger_s_move_is_named(
    played_out: Played, tmp_path: Path, open_browser: Callable[[], WebDriver]
) -> None:
    names = ("Ada", "Bo", "Cy", "Di")
    keys = {name: SeatKey() for name in names}
    honest = played(seed=12, commands=True, keys=keys)
    forged = played(seed=12, commands=True, keys=keys, signers={name: SeatKey() for name in names})
    files = {}
    for label, tournament in (("signed", honest), ("forged", forged)):
        files[label] = tmp_path / f"{label}.jsonl"
        files[label].write_bytes(write_bundle(tournament.envelopes, tournament.games))
    driver = open_browser()

    sound = audited(driver, played_out.audit_page, files["signed"])
    rewritten = audited(driver, played_out.audit_page, files["forged"])

    assert sound.state == "ok", sound
    signed = sum(
        1 for g in honest.games.values() for e in g if e.command and e.command.get("seat") is not None
    )
    assert f"Players' signatures: {signed} commands of seats holding a key" in "\n".join(sound.checked)
    first = next(iter(forged.games))  # the bundle holds the games in the order they were assigned
    version = next(e.version for e in forged.games[first] if e.command and e.command.get("seat") is not None)
    assert rewritten.state == "fault"
    assert f"game {first}, event {version}" in rewritten.fault
    assert "the signature does not verify under the seat's key" in rewritten.fault


def _call(base: str, method: str, path: str, token: str, body: Any = None, **headers: str) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    sent = {"Authorization": f"Bearer {token}", "Content-Type": "application/json", **headers}
    request = urllib.request.Request(f"{base}{path}", data, sent, method=method)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer) if answer.headers.get_content_type() == "application/json" else answer.read()


def test_a_tournament_game_won_by_resignation_audits_ok_on_the_served_page(
    live_service: LiveService, tmp_path: Path, open_browser: Callable[[], WebDriver]
) -> None:
    base = live_service.url
    created = screens.post(base, "/tournaments", {"game": "kahuna", "format": "swiss", "rounds": 1})
    tid, organizer = created["tournament_id"], created["organizer_token"]
    ann = screens.post(base, f"/tournaments/{tid}/entrants", {"name": "Ann"})
    screens.post(base, f"/tournaments/{tid}/entrants", {"name": "Ben"})
    for step in ("StartTournament", "PairRound"):
        _call(base, "POST", f"/tournaments/{tid}/commands", organizer, {"type": step})
    game = _call(base, "GET", f"/tournaments/{tid}/me", ann["token"])["game"]
    version = pages.api_get(base, game["url"])["version"]
    _call(base, "POST", f"{game['url']}/resign", game["seat_token"], **{"If-Match": f'"{version}"'})
    driver = open_browser()
    pages.wait_until(
        driver,
        lambda _: pages.api_get(base, f"/tournaments/{tid}")["tables"][0]["result"] is not None,
        what="the resignation's result recorded",
    )
    bundle = tmp_path / "resigned.jsonl"
    bundle.write_bytes(_call(base, "GET", f"/tournaments/{tid}/export", organizer))

    report = audited(driver, f"{base}/audit", bundle)

    assert report.state == "ok", report
    assert any(line.startswith("Results: each of the 1 result") for line in report.checked), report.checked
