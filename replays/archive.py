"""The game file: one self-contained JSON Lines export of a game, its reading and its checks.

A pure library (no Redis, no Flask): the service writes and imports these files, the
`replays` CLI verifies them offline. The bytes are canonical, so exporting a game,
importing the file and exporting the imported game gives the same bytes:

    line 1      the header: format, game, options, mode, seats, setup, complete, counts
    lines 2..   one line per event envelope, version 1..n, with its hashes and secret digests
    then        one line per annotation

Every line is the canonical JSON of one object (sorted keys, no spaces, UTF-8 as is) and
ends with "\\n". Nothing in the file depends on where or when it was exported: no game
id, no global stream position, no export time. See docs/replays.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.decider import DomainError
from domain.games import rules_for
from domain.history import extend_history
from record.canonical import canonical_json
from record.chain import ZERO_HASH, digest_holds, envelope_hash
from record.convert import to_event
from record.envelope import STORED_FIELDS, Envelope
from record.redaction import command_shown, may_read_secret

FORMAT = "archipelago-game"
FORMAT_VERSION = 3
UNCOMMANDED_FORMATS = (2,)
"""Files from before commands were recorded: read as they are, their events only fold."""
PLAIN_HASH_FORMATS = (1,)
"""Files from before salted secret digests: their hashes give the redacted cards away."""
MEDIA_TYPE = "application/x-ndjson"

EVENT_FIELDS = STORED_FIELDS
"""An event line holds exactly what the store keeps of it (no global position)."""
COMMAND_LINE_FIELDS = ("command", "command_audience", "command_digest", "command_secret", "command_salt")
"""The fields of an event line that records a command (format_version 3): all or none."""
HEADER_FIELDS = (
    "format",
    "format_version",
    "game",
    "options",
    "mode",
    "seats",
    "setup",
    "complete",
    "events",
    "annotations",
)
KEYS = "keys"
"""The optional header field holding the JWK set that verifies the service's receipts for the game
(record/receipts.py); outside the hash chain: a receipt names its key, and a key set that lacks
it fails the receipt."""
_LOWER_HEX = re.compile(r"(?:[0-9a-f]{2})+")
_TYPES: dict[str, type | tuple[type, ...]] = {
    "version": int,
    "type": str,
    "schema": int,
    "data": dict,
    "secret": (dict, type(None)),
    "salt": (str, type(None)),
    "secret_digest": str,
    "audience": list,
    "actor": str,
    "command_id": str,
    "event_id": str,
    "at": str,
    "prev_hash": str,
    "hash": str,
}
_COMMAND_TYPES: dict[str, type | tuple[type, ...]] = {
    "command": dict,
    "command_audience": list,
    "command_digest": str,
    "command_secret": (dict, type(None)),
    "command_salt": (str, type(None)),
}


class ArchiveError(ValueError):
    """A file that is not a readable game export; `version` names the event line at fault."""

    def __init__(self, reason: str, line: int, version: int | None = None) -> None:
        where = f"event {version} (line {line})" if version is not None else f"line {line}"
        super().__init__(f"{where}: {reason}")
        self.reason = reason
        self.line = line
        self.version = version


class RefoldFailed(ValueError):
    """The rules could not fold the file's events: `version` is the first that failed."""

    def __init__(self, version: int, reason: str) -> None:
        super().__init__(f"event {version}: {reason}")
        self.version = version
        self.reason = reason


@dataclass(frozen=True)
class Archive:
    """A read game file: its header, its event lines (as envelopes) and annotation records."""

    header: dict[str, Any]
    envelopes: list[Envelope]
    redacted: frozenset[int]  # versions whose secret was withheld from the file's viewer
    annotations: list[dict[str, Any]]

    @property
    def complete(self) -> bool:
        return not self.redacted

    @property
    def setup(self) -> dict[str, Any]:
        return dict(self.header["setup"])


@dataclass(frozen=True)
class VerifyResult:
    """What `verify` found: `first_bad` is the version of the first event at fault, if any.

    `unverifiable` lists redacted events: their hashes and links are checked like every
    other, but their secret digests cannot be recomputed without the withheld secret.
    """

    ok: bool
    first_bad: int | None = None
    reason: str = ""
    line: int | None = None
    events: int = 0
    unverifiable: tuple[int, ...] = field(default=())

    def __str__(self) -> str:
        if self.ok:
            unchecked = f", {len(self.unverifiable)} redacted" if self.unverifiable else ""
            return f"ok: {self.events} events{unchecked}"
        where = f"event {self.first_bad}" if self.first_bad is not None else f"line {self.line}"
        return f"bad: {where}: {self.reason}"


# --- writing -----------------------------------------------------------------------------


def export(
    envelopes: Sequence[Envelope],
    viewer: int | None,
    revealed: bool,
    annotations: Sequence[Mapping[str, Any]] = (),
    keys: Mapping[str, Any] | None = None,
) -> str:
    """The game file of `envelopes` as `viewer` (a seat, None = spectator) may see it.

    After the end with the log revealed everyone gets every secret ("complete": true);
    otherwise each secret the viewer may not read is null and its line says "redacted".
    `keys`, the JWK set of the service's receipts, goes into the header as `keys`.
    """
    lines = [event_line(e, viewer, revealed) for e in envelopes]
    redacted = [line for line in lines if line.get("redacted")]
    header = _header(envelopes[0].data, len(lines), len(annotations), not redacted, viewer)
    if keys is not None:
        header[KEYS] = dict(keys)
    notes = [{"kind": "annotation", "annotation": dict(a)} for a in annotations]
    return "".join(canonical_json(obj) + "\n" for obj in [header, *lines, *notes])


def _header(
    setup: Mapping[str, Any],
    events: int,
    annotations: int,
    complete: bool,
    viewer: int | None,
    version: int = FORMAT_VERSION,
) -> dict[str, Any]:
    header = {
        "format": FORMAT,
        "format_version": version,
        "game": setup.get("game"),
        "options": setup.get("options") or {},
        "mode": setup.get("mode", "casual"),
        "seats": [seat.get("name") for seat in setup.get("seats", [])],
        "setup": dict(setup),
        "complete": complete,
        "events": events,
        "annotations": annotations,
    }
    if not complete:
        header["redacted_for"] = viewer
    return header


def event_line(envelope: Envelope, viewer: int | None, revealed: bool) -> dict[str, Any]:
    line: dict[str, Any] = {"kind": "event"}
    for name in EVENT_FIELDS:
        line[name] = getattr(envelope, name)
    line["audience"] = list(envelope.audience)
    if envelope.command is not None:
        line.update({"command_secret": None, "command_salt": ""}, **command_shown(envelope, viewer, revealed))
        if line.get("command_redacted"):
            line["command_salt"] = None
    if envelope.secret is not None and not may_read_secret(envelope, viewer, revealed):
        # The digest stays: it is what the chain covers. The salt goes: with it, each
        # guess of the card could be tested against the digest.
        line["secret"] = None
        line["salt"] = None
        line["redacted"] = True
    return line


# --- reading -----------------------------------------------------------------------------


def read(content: str | bytes) -> Archive:
    """The archive in `content`; ArchiveError naming the first line (and event) at fault.

    Checks the form only: canonical lines, the header's counts and its agreement with
    the GameCreated event. `verify` adds the hash chain.
    """
    raw = _lines(content)
    header = _read_header(raw[0] if raw else b"")
    count = header["events"]
    if len(raw) - 1 < count:
        missing = len(raw)
        raise ArchiveError(f"the file ends before event {missing} of {count}", len(raw) + 1, missing)
    envelopes, redacted = [], set()
    commands = header["format_version"] not in UNCOMMANDED_FORMATS
    for number in range(1, count + 1):
        envelope, hidden = read_event(raw[number], number + 1, number, commands)
        envelopes.append(envelope)
        if hidden:
            redacted.add(number)
    annotations = [_read_annotation(raw[n], n + 1, count) for n in range(count + 1, len(raw))]
    if len(annotations) != header["annotations"]:
        raise ArchiveError(
            f"the header announces {header['annotations']} annotations, the file holds {len(annotations)}",
            1,
        )
    _check_header(header, envelopes, redacted)
    return Archive(header, envelopes, frozenset(redacted), annotations)


def _lines(content: str | bytes) -> list[bytes]:
    data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
    if not data:
        raise ArchiveError("the file is empty", 1)
    if not data.endswith(b"\n"):
        raise ArchiveError("the last line does not end with a newline", data.count(b"\n") + 1)
    return data[:-1].split(b"\n")


def parse_line(raw: bytes, line: int, version: int | None) -> dict[str, Any]:
    """One line as a JSON object; it must be exactly the canonical text of that object."""
    try:
        text = raw.decode("utf-8")
        value = json.loads(text)
    except UnicodeDecodeError:
        raise ArchiveError("not UTF-8", line, version) from None
    except json.JSONDecodeError as error:
        raise ArchiveError(f"not JSON ({error.msg} at column {error.colno})", line, version) from None
    except (ValueError, RecursionError):  # a number longer than int() reads; nesting without end
        raise ArchiveError("not JSON a reader takes (too deep, a number too long)", line, version) from None
    if not isinstance(value, dict):
        raise ArchiveError("not a JSON object", line, version)
    try:
        canonical = canonical_json(value)
    except ValueError:
        raise ArchiveError("holds a number JSON cannot carry", line, version) from None
    if canonical != text:
        raise ArchiveError("not in canonical form (sorted keys, no spaces)", line, version)
    return value


def _read_header(raw: bytes) -> dict[str, Any]:
    header = parse_line(raw, 1, None)
    if header.get("format") != FORMAT:
        raise ArchiveError(f"not an {FORMAT} file", 1)
    if header.get("format_version") in PLAIN_HASH_FORMATS:
        raise ArchiveError(
            f"format_version {header['format_version']} hashes secrets without salt and is no longer "
            "read: export the game again from the service",
            1,
        )
    if header.get("format_version") not in (FORMAT_VERSION, *UNCOMMANDED_FORMATS):
        raise ArchiveError(f"format_version {header.get('format_version')!r} is not supported", 1)
    missing = [name for name in HEADER_FIELDS if name not in header]
    if missing:
        raise ArchiveError(f"the header lacks {', '.join(missing)}", 1)
    if type(header["events"]) is not int or header["events"] < 1:
        raise ArchiveError("the header's events is not a count of at least 1", 1)
    if type(header["annotations"]) is not int or header["annotations"] < 0:
        raise ArchiveError("the header's annotations is not a count", 1)
    if not isinstance(header["setup"], dict) or not isinstance(header["complete"], bool):
        raise ArchiveError("the header's setup or complete has the wrong type", 1)
    return header


def read_event(raw: bytes, line: int, version: int, commands: bool = True) -> tuple[Envelope, bool]:
    """The envelope of one event line, and whether its secret is withheld; `commands` False
    for a file of a format that records none."""
    obj = parse_line(raw, line, version)
    if obj.get("kind") != "event":
        raise ArchiveError(f"expected event {version}, found kind {obj.get('kind')!r}", line, version)
    known = {"kind", "redacted", *EVENT_FIELDS}
    if commands:
        known |= {"command_redacted", *COMMAND_LINE_FIELDS}
    extra = set(obj) - known
    if extra:
        raise ArchiveError(f"unknown fields {sorted(extra)}", line, version)
    for name, kind in _TYPES.items():
        value = obj.get(name)
        if name not in obj or not isinstance(value, kind) or isinstance(value, bool):
            raise ArchiveError(f"{name} is missing or has the wrong type", line, version)
    if obj["version"] != version:
        raise ArchiveError(f"numbered {obj['version']}, expected {version}", line, version)
    if not all(type(seat) is int for seat in obj["audience"]):
        raise ArchiveError("audience must list seat numbers", line, version)
    redacted = obj.get("redacted", False)
    if "redacted" in obj and (redacted is not True or obj["secret"] is not None or obj["salt"] is not None):
        raise ArchiveError('"redacted" is only ever true, with a null secret and salt', line, version)
    if obj["salt"] is None and not redacted:
        raise ArchiveError("a null salt belongs to a redacted event only", line, version)
    if redacted and not obj["secret_digest"]:
        raise ArchiveError("a redacted event keeps its secret_digest", line, version)
    if obj["salt"] and not _LOWER_HEX.fullmatch(obj["salt"]):
        # bytes.fromhex reads "AB" as "ab": only one spelling keeps every byte of the file checked
        raise ArchiveError("a salt is written in lowercase hex", line, version)
    values = {name: obj[name] for name in EVENT_FIELDS}
    values["audience"] = tuple(obj["audience"])
    values["salt"] = obj["salt"] or ""
    if "command" in obj or "command_redacted" in obj:
        values.update(_read_command(obj, line, version))
    return Envelope(**values, position=0), redacted


def _read_command(obj: Mapping[str, Any], line: int, version: int) -> dict[str, Any]:
    """The command fields of an event line, checked as its secret's are."""
    for name, kind in _COMMAND_TYPES.items():
        value = obj.get(name)
        if name not in obj or not isinstance(value, kind) or isinstance(value, bool):
            raise ArchiveError(f"{name} is missing or has the wrong type", line, version)
    if not all(type(seat) is int for seat in obj["command_audience"]):
        raise ArchiveError("command_audience must list seat numbers", line, version)
    hidden = obj["command_secret"] is not None
    redacted = obj.get("command_redacted", False)
    if "command_redacted" in obj and (redacted is not True or hidden or obj["command_salt"] is not None):
        raise ArchiveError(
            '"command_redacted" is only ever true, with a null command_secret and salt', line, version
        )
    if obj["command_salt"] is None and not redacted:
        raise ArchiveError("a null command_salt belongs to a redacted command only", line, version)
    if (hidden or redacted) != bool(obj["command_digest"]):
        raise ArchiveError(
            "a command_digest belongs to a command with a hidden part, and only to one", line, version
        )
    if obj["command_salt"] and not _LOWER_HEX.fullmatch(obj["command_salt"]):
        raise ArchiveError("a command_salt is written in lowercase hex", line, version)
    values = {name: obj[name] for name in COMMAND_LINE_FIELDS}
    values["command_audience"] = tuple(obj["command_audience"])
    values["command_salt"] = obj["command_salt"] or ""
    return values


def _read_annotation(raw: bytes, line: int, events: int) -> dict[str, Any]:
    obj = parse_line(raw, line, None)
    if obj.get("kind") != "annotation":
        raise ArchiveError(f"expected an annotation, found kind {obj.get('kind')!r}", line)
    note = obj.get("annotation")
    if set(obj) != {"kind", "annotation"} or not isinstance(note, dict):
        raise ArchiveError("an annotation line holds only kind and annotation", line)
    version = note.get("version")
    if type(version) is not int or not 0 <= version <= events:
        raise ArchiveError(f"annotation version {version!r} is outside 0..{events}", line)
    for name in ("layer", "kind"):
        if not isinstance(note.get(name), str) or not note[name]:
            raise ArchiveError(f"annotation {name} is missing", line)
    return note


def _check_header(header: Mapping[str, Any], envelopes: Sequence[Envelope], redacted: set[int]) -> None:
    """The header repeats what the first event says; any difference is a damaged header."""
    first = envelopes[0]
    if first.type != "GameCreated":
        raise ArchiveError(f"the first event is {first.type}, not GameCreated", 2, 1)
    try:
        expected = _header(
            first.data, len(envelopes), header["annotations"], not redacted, None, header["format_version"]
        )
    except (AttributeError, TypeError):
        raise ArchiveError("the setup in GameCreated is malformed", 2, 1) from None
    for name in HEADER_FIELDS:
        if header[name] != expected[name]:
            raise ArchiveError(f"the header's {name} does not match the events", 1)
    if redacted:
        viewer = header.get("redacted_for", "absent")
        if viewer is not None and type(viewer) is not int:
            raise ArchiveError("a redacted file names its viewer in redacted_for: a seat or null", 1)
    if KEYS in header and not is_key_set(header[KEYS]):
        raise ArchiveError('the header\'s keys is not a JWK set ({"keys": [...]})', 1)
    extra = set(header) - {*HEADER_FIELDS, KEYS} - ({"redacted_for"} if redacted else set())
    if extra:
        raise ArchiveError(f"unknown header fields {sorted(extra)}", 1)


def is_key_set(value: Any) -> bool:
    return isinstance(value, dict) and list(value) == ["keys"] and isinstance(value["keys"], list)


# --- checking ----------------------------------------------------------------------------


def verify(content: str | bytes) -> VerifyResult:
    """Check the whole file: its form, every hash and link, every secret digest it can.

    Every event's hash is recomputed, redacted or not (it covers the secret's digest,
    not the secret). A redacted event's digest cannot be recomputed without the withheld
    secret and salt: it is listed in `unverifiable`.
    """
    try:
        archive = read(content)
    except ArchiveError as error:
        changed = changed_event(content) if error.line == 1 else None
        return changed or VerifyResult(False, error.version, error.reason, error.line)
    return verify_chain(archive)


def changed_event(content: str | bytes) -> VerifyResult | None:
    """The chain's first fault when the header disagrees with events whose lines all read: the
    header repeats what GameCreated says, so a changed GameCreated shows first as that
    disagreement, and it is the event that was changed. None when the chain holds."""
    try:
        raw = _lines(content)
        count = json.loads(raw[0]).get("events")
        events = [read_event(raw[n], n + 1, n) for n in range(1, count + 1)]
    except (ArchiveError, ValueError, TypeError, AttributeError, IndexError):
        return None
    envelopes = [envelope for envelope, _ in events]
    redacted = frozenset(n for n, (_, hidden) in enumerate(events, start=1) if hidden)
    checked = verify_chain(Archive({}, envelopes, redacted, []))
    return None if checked.ok else checked


def verify_chain(archive: Archive) -> VerifyResult:
    """The hash chain of a read archive: numbering, every hash, every link, every digest it can."""
    envelopes = archive.envelopes
    for index, envelope in enumerate(envelopes):
        version = envelope.version
        if envelope.hash != envelope_hash(envelope):
            return _bad(version, "hash mismatch: the event's content is not what was hashed")
        if not digest_holds(envelope):
            return _bad(version, "digest mismatch: the secret and salt are not what the digest commits to")
        previous = envelopes[index - 1].hash if index else ZERO_HASH
        if envelope.prev_hash != previous:
            if index:
                # This event is intact (its hash covers its prev_hash): the one before lies.
                return _bad(version - 1, "hash mismatch: the next event links to another hash")
            return _bad(version, "broken link: prev_hash is not the previous event's hash")
    return VerifyResult(True, events=len(envelopes), unverifiable=tuple(sorted(archive.redacted)))


def _bad(version: int, reason: str) -> VerifyResult:
    return VerifyResult(False, version, reason, line=version + 1)


def refold(archive: Archive) -> Any:
    """The state the rules reach by folding every event of a complete archive.

    Folds as the service does (domain.history: undos restore an earlier state). Raises
    RefoldFailed naming the first event the rules could not take.
    """
    return refold_envelopes(archive.envelopes)


def refold_envelopes(envelopes: Sequence[Envelope]) -> Any:
    """The state the rules reach by folding `envelopes` (every secret present), as `refold`."""
    try:
        rules = rules_for(envelopes[0].data.get("game", ""))
        initial = rules.initial_state(envelopes[0].data)
    except (DomainError, LookupError, TypeError, ValueError, AttributeError) as error:
        raise RefoldFailed(1, f"the rules refuse the setup: {error}") from None
    states = [initial, initial]
    for envelope in envelopes[1:]:
        try:
            states = extend_history(rules, states, [(envelope.version, to_event(envelope))])
        except Exception as error:  # whatever the rules trip on, the answer names the event
            raise RefoldFailed(envelope.version, f"{type(error).__name__}: {error}") from None
    return states[-1]


def event_dicts(archive: Archive) -> Iterable[dict[str, Any]]:
    """The events as redacted dicts (what `describe` and `notation` read)."""
    for envelope in archive.envelopes:
        shown: dict[str, Any] = {
            "version": envelope.version,
            "type": envelope.type,
            "data": envelope.data,
            "actor": envelope.actor,
            "command_id": envelope.command_id,
            "at": envelope.at,
        }
        if envelope.version in archive.redacted:
            shown["secret"], shown["redacted"] = None, True
        elif envelope.secret is not None:
            shown["secret"] = envelope.secret
        yield shown
