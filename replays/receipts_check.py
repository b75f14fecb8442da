"""`replays verify --receipts`: the receipts a player kept, held against a game file or a bundle.

A receipt file is JSON Lines, one receipt a line (as the service answers them and the browser
saves them); a folder is every such file in it. Each receipt for one of the file's streams must
carry a signature of one of the keys the file publishes (or --keys gives), and the stream must
hold the receipt's hash at the receipt's version: another hash there is a rewrite, a stream that
ends before it a truncation. Pure: no Redis, no Flask.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from record import receipts
from record.envelope import Envelope

Streams = Mapping[tuple[str, str], Sequence[Envelope]]
"""A file's streams by (receipts.GAME or receipts.TOURNAMENT, the id)."""


class ReceiptsError(ValueError):
    """Receipts that cannot be read, or that the file contradicts."""


@dataclass(frozen=True)
class Held:
    """One receipt and where it was read (`file line n`)."""

    where: str
    receipt: dict[str, Any]


@dataclass(frozen=True)
class Checked:
    checked: int
    elsewhere: int
    """Receipts of streams this file does not hold (another game), left aside."""

    def __str__(self) -> str:
        aside = (
            f"; {self.elsewhere} receipts of other games or tournaments left aside" if self.elsewhere else ""
        )
        return (
            f"receipts: {self.checked} checked; each is signed by a published key and the file holds "
            f"its hash at its version{aside}"
        )


def read_receipts(path: Path) -> list[Held]:
    """Every receipt in the file `path`, or in each file of the folder `path` (in name order)."""
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
    else:
        files = [path]
    held = []
    for file in files:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ReceiptsError(f"cannot read receipts from {file}: {error}") from None
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                held.append(_parsed(line, f"{file.name} line {number}"))
    if not held:
        raise ReceiptsError(f"no receipts in {path}")
    return held


def _parsed(line: str, where: str) -> Held:
    try:
        value = json.loads(line)
    except ValueError:
        raise ReceiptsError(f"receipt {where}: not JSON") from None
    fault = receipts.form_fault(value)
    if fault is not None:
        raise ReceiptsError(f"receipt {where}: {fault}")
    return Held(where, value)


def game_streams(envelopes: Sequence[Envelope]) -> dict[tuple[str, str], Sequence[Envelope]]:
    """A game file's one stream, by the id its first event names."""
    named = receipts.stream_id(envelopes)
    return {} if named is None else {(receipts.GAME, named): envelopes}


def bundle_streams(
    tournament: Sequence[Envelope], games: Mapping[str, Sequence[Envelope]]
) -> dict[tuple[str, str], Sequence[Envelope]]:
    """A bundle's streams: the tournament's and each game's."""
    streams = {(receipts.GAME, game_id): envelopes for game_id, envelopes in games.items()}
    named = receipts.stream_id(tournament)
    if named is not None:
        streams[(receipts.TOURNAMENT, named)] = tournament
    return streams


def check(held: Sequence[Held], streams: Streams, key_set: Any) -> Checked:
    """How many receipts were checked against `streams`; ReceiptsError naming every receipt the
    keys do not verify or the streams contradict (the first one first)."""
    keys = receipts.public_keys(key_set)
    faults, checked = [], 0
    for one in held:
        field, stream_id = receipts.stream_of(one.receipt)
        envelopes = streams.get((field, stream_id))
        if envelopes is None:
            continue
        checked += 1
        reason = receipts.signature_fault(one.receipt, keys) or receipts.stream_fault(one.receipt, envelopes)
        if reason is not None:
            kind = "game" if field == receipts.GAME else "tournament"
            faults.append(
                f"receipt {one.where} ({kind} {stream_id}, event {one.receipt['version']}): {reason}"
            )
    if faults:
        more = f" (and {len(faults) - 1} more receipts fail)" if len(faults) > 1 else ""
        raise ReceiptsError(faults[0] + more)
    if not checked:
        names = ", ".join(f"{f.removesuffix('_id')} {i}" for f, i in streams) or "none it names"
        raise ReceiptsError(f"none of the {len(held)} receipts is for this file's streams ({names})")
    return Checked(checked, len(held) - checked)
