"""`archipelago-admin`: an operator's commands on the store the service uses (REDIS_URL, or
REDIS_CLUSTER_URL with RQ_REDIS_URL, as the web app and the worker read them).

`rebuild-listings` makes the games and tournaments listings afresh from every stored event
(after a restore from a backup, a migration to a cluster, or a change of what a listing
shows); `--catch-up` only reads the events after their checkpoints, as the worker's sweeper
does. The service may keep serving meanwhile: a listing's entry is only ever replaced by a
newer version of it, so a rebuild and the service's own writes agree whatever their order.

`rotate-signing-key` retires the receipts' key of the key folder (service/signing.py): its
public key stays published, so the receipts it signed still verify.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from service.games import GameService
from service.signing import RETIRED, keys_dir, rotate
from service.wiring import build_service


@dataclass(frozen=True)
class Rebuilt:
    game_events: int
    tournament_events: int
    games: int
    tournaments: int


def rebuild_listings(service: GameService, catch_up_only: bool = False) -> Rebuilt:
    """Both listings from every stored event (or from their checkpoints); what was read and listed."""
    games, tournaments = service.listings, service.tournaments.listings
    if catch_up_only:
        read = games.update(service), tournaments.update(service.tournaments)
    else:
        read = games.rebuild(service), tournaments.rebuild(service.tournaments)
    return Rebuilt(read[0], read[1], games.listing.count(), tournaments.listing.count())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="archipelago-admin", description="Operator commands on the service's store."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    rebuild = commands.add_parser(
        "rebuild-listings", help="make the games and tournaments listings afresh from the stored events"
    )
    rebuild.add_argument(
        "--catch-up", action="store_true", help="only read the events after the listings' checkpoints"
    )
    commands.add_parser(
        "rotate-signing-key",
        help="retire the receipts' signing key (its public key stays published) and make a new one; "
        "restart the service to sign with it",
    )
    args = parser.parse_args(argv)
    if args.command == "rotate-signing-key":
        folder = keys_dir(os.environ)
        old, new = rotate(folder)
        print(
            f"retired key {old} (kept in {folder / RETIRED}); "
            f"receipts will be signed with {new} after a restart"
        )
        return 0
    started = time.monotonic()
    done = rebuild_listings(build_service(), catch_up_only=args.catch_up)
    print(
        f"read {done.game_events} game events and {done.tournament_events} tournament events in "
        f"{time.monotonic() - started:.1f} s; listed {done.games} games and {done.tournaments} tournaments"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
