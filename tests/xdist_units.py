"""How `make test` hands tests to its pytest-xdist workers.

Most tests go one at a time to whichever worker has room. The browser tests share one running
service and one finished game (package fixtures of tests/browser), and each replays module shares
the files it writes (module fixtures): those go whole to one worker, or each worker would start
its own service and play its own game. The units are told by path, not by an `xdist_group` mark:
pytest 9.2's node ids no longer carry the suffix xdist's own loadgroup reads (pytest-xdist issue
1386), and the grouping silently stopped.
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

#: Path prefix -> how its tests are kept together: all under the folder as one unit, or a unit per module.
SHARED_SET_UP = {"tests/browser/": "package", "tests/replays/": "module"}


def unit_of(nodeid: str) -> str:
    """The work unit a test belongs to: its shared set-up's folder or module, or the test alone."""
    path = nodeid.split("::", 1)[0]
    for prefix, scope in SHARED_SET_UP.items():
        if path.startswith(prefix):
            return prefix if scope == "package" else path
    return nodeid


class SharedSetUpScheduling(LoadScopeScheduling):
    """xdist's scope scheduler with the units above. Larger units are sent first (xdist orders
    units by their count of tests), so the browser tests start at once instead of ending the run."""

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid)
