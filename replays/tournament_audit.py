"""The audit of a tournament: every hash chain, every fold, every result against its game.

Pure (no Redis, no Flask): the service audits the streams it re-reads from its store, and
`replays verify` audits a bundle offline, with the same function.

A ResultRecorded must be the game's own result: its `game_end` is the data of the game's
GameEnded, its `final_hash` that event's hash, and its places and points are what the
tournament's scoring gives for that end. A ResultCorrected is the organizer's decision: it
may differ from the game's own end (that is what a correction is for), so it is listed with
who made it, when and why, beside the game's own end; it still has to name the game's final
hash and score its stated end as the scoring does.

Pairings and the close are the rules' own decisions from the events before them (a Swiss is
reproducible from its log): each RoundPaired and TournamentClosed, with the events its
command gave, must be what `decide` gives again from the state before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from domain.actor import ORGANIZER
from domain.decider import Command, DomainError, IllegalMove
from domain.ending import result_end
from domain.games import end_event_of
from domain.tournament_rules import State, read_game_end, score_game
from domain.tournament_rules import rules as tournament_rules
from record.canonical import plain
from record.chain import ZERO_HASH, digest_holds, envelope_hash
from record.convert import to_event
from record.deal import check_deal, check_lots, game_revealed, sealed_until_revealed, tournament_revealed
from record.envelope import Envelope
from record.referee import REFEREED, referee
from replays.archive import RefoldFailed, refold_envelopes

TOURNAMENT = "tournament"
RESULT_TYPES = ("ResultRecorded", "ResultCorrected")
REDECIDED = {"RoundPaired": "PairRound", "TournamentClosed": "CloseTournament"}
"""Events a command decides from the state alone, by the command that gives them."""


def game_stream(game_id: str) -> str:
    """The name a report gives a game's stream."""
    return f"game {game_id}"


@dataclass(frozen=True)
class BrokenPlace:
    """Where a record stops being sound: the stream, the event number, the line of a bundle file."""

    stream: str  # "tournament", "game <game_id>", or "bundle" for the bundle's own header line
    version: int | None
    line: int | None
    reason: str

    def __str__(self) -> str:
        where = self.stream
        if self.version is not None:
            where += f", event {self.version}"
        if self.line is not None:
            where += f" (line {self.line})" if self.version is not None else f", line {self.line}"
        return f"{where}: {self.reason}"


@dataclass(frozen=True)
class AuditReport:
    ok: bool
    streams: int
    events: int
    corrections: list[dict[str, Any]] = field(default_factory=list)
    broken: BrokenPlace | None = None
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    unfolded: list[str] = field(default_factory=list)  # games whose withheld secrets keep them from a fold
    # A stream of the store that lost its tail: stream, stored_version, vouched_version.
    truncated: dict[str, Any] | None = None
    # games the referee replay could not run through to their last event: why, and from where
    unrefereed: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "streams": self.streams,
            "events": self.events,
            "corrections": list(self.corrections),
            "broken": None if self.broken is None else asdict(self.broken),
            "mismatches": list(self.mismatches),
            "unfolded": list(self.unfolded),
            "chain_truncated": None if self.truncated is None else dict(self.truncated),
            "unrefereed": list(self.unrefereed),
        }


def chain_fault(envelopes: Sequence[Envelope]) -> tuple[int, str] | None:
    """The first event whose number, hash, secret digest or link is wrong, and why; None if sound."""
    previous = ZERO_HASH
    for number, envelope in enumerate(envelopes, start=1):
        if envelope.version != number:
            return number, f"numbered {envelope.version}, expected {number}"
        if envelope.hash != envelope_hash(envelope):
            return number, "hash mismatch: the event's content is not what was hashed"
        if not digest_holds(envelope):
            return number, "digest mismatch: the secret and salt are not what the digest commits to"
        if envelope.prev_hash != previous:
            return number, "broken link: prev_hash is not the previous event's hash"
        previous = envelope.hash
    return None


def assigned_games(tournament: Sequence[Envelope]) -> list[str]:
    """The game ids the tournament assigned to its tables, in the order it assigned them."""
    return [str(e.data.get("game_id")) for e in tournament if e.type == "GameAssigned"]


def audit(tournament: Sequence[Envelope], games: Mapping[str, Sequence[Envelope]]) -> AuditReport:
    """Every chain verified, the tournament and every game re-folded, each result checked against
    its game's own GameEnded (data and final hash), every ResultCorrected listed."""
    streams = 1 + len(games)
    events = len(tournament) + sum(len(g) for g in games.values())
    folded = fold_tournament(tournament)
    if isinstance(folded, BrokenPlace):
        return AuditReport(False, streams, events, broken=folded)
    broken, unfolded, unrefereed = _check_games(assigned_games(tournament), games)
    ends = {game_id: _game_end(envelopes) for game_id, envelopes in games.items()}
    mismatches, corrections = _redecided(tournament), []
    for envelope in tournament:
        if envelope.type in RESULT_TYPES:
            end = ends.get(str(envelope.data.get("game_id")))
            mismatches += _mismatches(folded, envelope, end)
            if envelope.type == "ResultCorrected":
                corrections.append(_correction(envelope, end))
    mismatches += _lots_mismatches(tournament)
    mismatches += _key_mismatches(tournament, folded, games)
    mismatches.sort(key=lambda m: int(m["version"]))  # in the order of the stream: the first is first
    broken = broken or _deal_fault(games)
    ok = broken is None and not mismatches
    return AuditReport(ok, streams, events, corrections, broken, mismatches, unfolded, unrefereed=unrefereed)


def _lots_mismatches(tournament: Sequence[Envelope]) -> list[dict[str, Any]]:
    """A mismatch for the first lot that is not what the revealed seed draws (once closed)."""
    lots = check_lots(sealed_until_revealed(tournament, tournament_revealed(tournament)))
    if lots.ok:
        return []
    reason = f"not what the revealed seed draws: {lots.reason}"
    where = min(lots.first_bad or 1, len(tournament))
    return [{"type": tournament[where - 1].type, "version": where, "reason": reason}]


def _key_mismatches(
    tournament: Sequence[Envelope], state: State, games: Mapping[str, Sequence[Envelope]]
) -> list[dict[str, Any]]:
    """A mismatch for each game whose seats do not hold the keys its entrants registered: a game
    whose setup swapped a person's key for another would let whoever holds that other key sign
    for the person, so the keys the referee checks come from the tournament's own stream."""
    assigned = {str(e.data.get("game_id")): e.version for e in tournament if e.type == "GameAssigned"}
    found = []
    for game_id, version in assigned.items():
        table, envelopes = state.table_of_game(game_id), games.get(game_id)
        if table is None or not envelopes:
            continue  # a missing game is reported by the check of the games
        seats = envelopes[0].data.get("seats")
        held = [s.get("public_key") if isinstance(s, Mapping) else None for s in seats or []]
        entrants = [state.entrant(e) for e in table.seats]
        registered = [None if e is None or e.public_key is None else dict(e.public_key) for e in entrants]
        if held != registered:
            entry = {"game_id": game_id, "round": table.round, "table": table.index, "version": version}
            reason = "its seats do not hold the public keys its entrants registered"
            found.append({**entry, "type": "GameAssigned", "reason": reason})
    return found


def _deal_fault(games: Mapping[str, Sequence[Envelope]]) -> BrokenPlace | None:
    """The first game whose chance events are not what its revealed seed draws."""
    for game_id, envelopes in games.items():
        deal = check_deal(sealed_until_revealed(envelopes, game_revealed(envelopes)))
        if not deal.ok:
            return BrokenPlace(game_stream(game_id), deal.first_bad, None, f"the deal fails: {deal.reason}")
    return None


def fold_tournament(tournament: Sequence[Envelope]) -> State | BrokenPlace:
    """The tournament's state by its rules, or the first place its chain or its fold breaks."""
    if not tournament:
        return BrokenPlace(TOURNAMENT, None, None, "the tournament's stream is empty")
    fault = chain_fault(tournament)
    if fault is not None:
        return BrokenPlace(TOURNAMENT, fault[0], None, fault[1])
    if tournament[0].type != "TournamentCreated":
        return BrokenPlace(
            TOURNAMENT, 1, None, f"the first event is {tournament[0].type}, not TournamentCreated"
        )
    try:
        state = tournament_rules.initial_state(tournament[0].data)
    except (DomainError, LookupError, TypeError, ValueError) as error:
        return BrokenPlace(TOURNAMENT, 1, None, f"the rules refuse the settings: {error!r}")
    for envelope in tournament[1:]:
        try:
            state = tournament_rules.evolve(state, to_event(envelope))
        except Exception as error:  # whatever the rules trip on, the report names the event
            return BrokenPlace(TOURNAMENT, envelope.version, None, f"the rules cannot fold it: {error!r}")
    return state


def _redecided(tournament: Sequence[Envelope]) -> list[dict[str, Any]]:
    """A mismatch for each pairing or close that is not what the rules decide from the events before."""
    found = []
    state = tournament_rules.initial_state(tournament[0].data)
    for index, envelope in enumerate(tournament):
        command = REDECIDED.get(envelope.type)
        if command is not None:
            reason = _decided_again(state, command, tournament[index:])
            if reason is not None:
                entry = {"game_id": None, "round": envelope.data.get("round"), "table": None}
                found.append({**entry, "version": envelope.version, "type": envelope.type, "reason": reason})
        if index:
            state = tournament_rules.evolve(state, to_event(envelope))
    return found


def _decided_again(state: State, command: str, recorded: Sequence[Envelope]) -> str | None:
    """Why the recorded events are not those `command` gives from `state`; None when they are."""
    try:
        expected = tournament_rules.decide(state, Command(command, None, {}), ORGANIZER)
    except IllegalMove as refusal:
        return f"the rules refuse {command} here ({refusal.code})"
    given = [(e.type, e.data) for e in recorded[: len(expected)]]
    if given != [(e.type, plain(e.data)) for e in expected]:
        return f"not what the rules decide for {command} from the events before it"
    return None


def _check_games(
    assigned: Sequence[str], games: Mapping[str, Sequence[Envelope]]
) -> tuple[BrokenPlace | None, list[str], list[dict[str, Any]]]:
    """The first game that is missing, extra, broken, unfoldable or at fault by the referee
    replay; the games left unfolded; those not refereed to their end, with why."""
    unfolded: list[str] = []
    unrefereed: list[dict[str, Any]] = []
    found = _check_each(assigned, games, unfolded, unrefereed)
    return found, unfolded, unrefereed


def _check_each(
    assigned: Sequence[str],
    games: Mapping[str, Sequence[Envelope]],
    unfolded: list[str],
    unrefereed: list[dict[str, Any]],
) -> BrokenPlace | None:
    for game_id in [*assigned, *sorted(set(games) - set(assigned))]:
        stream = game_stream(game_id)
        if game_id not in assigned:
            return BrokenPlace(stream, None, None, "not a game the tournament assigned")
        envelopes = games.get(game_id)
        if not envelopes:
            return BrokenPlace(stream, None, None, "the tournament assigned it, its events are missing")
        fault = chain_fault(envelopes)
        if fault is not None:
            return BrokenPlace(stream, fault[0], None, fault[1])
        refereed = referee(envelopes)
        if not refereed.ok:
            return BrokenPlace(stream, refereed.first_fault, None, f"the referee replay: {refereed.fault}")
        if refereed.status != REFEREED:
            unrefereed.append(
                {"game_id": game_id, "from_version": refereed.unchecked_from, "reason": refereed.unchecked}
            )
        # The deal's seed (GameCreated's secret) is withheld too until the end; the rules need it not.
        if any(e.secret is None and e.secret_digest for e in envelopes[1:]):
            unfolded.append(game_id)  # a hand still hidden: the chain holds, the rules cannot fold it
            continue
        try:
            refold_envelopes(envelopes)
        except RefoldFailed as error:
            return BrokenPlace(stream, error.version, None, f"the rules cannot fold it: {error.reason}")
    return None


def _game_end(envelopes: Sequence[Envelope]) -> Envelope | None:
    """The game's own end with a result: its module's end event, or GameResigned (shaped alike)."""
    return result_end(envelopes, end_event_of(envelopes))


def _mismatches(state: State, envelope: Envelope, end: Envelope | None) -> list[dict[str, Any]]:
    """What is wrong with one recorded or corrected result, each as a mismatch entry."""
    data = envelope.data
    found = []
    if end is None:
        if envelope.type == "ResultRecorded" or data.get("final_hash") is not None:
            found.append("the game has no end with a result")
    else:
        if data.get("final_hash") != end.hash:
            found.append(f"final_hash {data.get('final_hash')} is not the hash of the game's {end.type}")
        if envelope.type == "ResultRecorded" and data.get("game_end") != end.data:
            found.append(f"game_end is not the data of the game's {end.type}")
    table = state.table_of_game(str(data.get("game_id")))
    if table is None or data.get("seats") != list(table.seats):
        found.append("seats are not the seats of the game's table")
    scored = _scored(state, data)
    if scored is not None:
        found.append(scored)
    return [
        {
            "game_id": data.get("game_id"),
            "round": data.get("round"),
            "table": data.get("table"),
            "version": envelope.version,
            "type": envelope.type,
            "reason": reason,
        }
        for reason in found
    ]


def _scored(state: State, data: Mapping[str, Any]) -> str | None:
    """Why the places and points are not what the scoring gives for the stated end, if they are not."""
    stated = data.get("game_end")
    if stated is None:
        return None
    try:
        end = read_game_end(stated, len(data.get("seats", ())))
    except DomainError as error:
        return f"game_end is no game's end: {error}"
    result = score_game(state.settings, end, data.get("final_hash"), "played")
    recorded = (data.get("places"), data.get("points"), data.get("island_points"))
    if recorded != (list(result.places), list(result.points), list(result.island_points)):
        return "places or points are not what the scoring gives for game_end"
    return None


def _correction(envelope: Envelope, end: Envelope | None) -> dict[str, Any]:
    data = envelope.data
    return {
        "version": envelope.version,
        "actor": envelope.actor,
        "at": envelope.at,
        "reason": data.get("reason"),
        "game_id": data.get("game_id"),
        "round": data.get("round"),
        "table": data.get("table"),
        "before": data.get("before"),
        "after": {
            "places": data.get("places"),
            "points": data.get("points"),
            "island_points": data.get("island_points"),
            "final_hash": data.get("final_hash"),
            "game_end": data.get("game_end"),
        },
        "game_end": None if end is None else end.data,
    }
