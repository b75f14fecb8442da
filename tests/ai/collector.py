"""What a finished search leaves for the cycle collector: the objects the next collection finds."""

from __future__ import annotations

import gc
import random
from typing import Any

from ai.ismcts import Budget, search


def left_after_search(knowledge: Any, legal: Any) -> int:
    """Objects a 300-iteration search leaves as cyclic garbage (the rules' caches warmed first)."""
    search(knowledge, legal, random.Random(5), Budget(iterations=10))
    was = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        search(knowledge, legal, random.Random(5), Budget(iterations=300))
        return gc.collect()
    finally:
        if was:
            gc.enable()
