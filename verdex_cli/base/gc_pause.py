"""Keep the cyclic garbage collector out of the way while many small acyclic objects are made.

A big snapshot builds tens of thousands of dicts and ref records at once; each collection the
allocations would set off also walks everything just built, and finds nothing (they make no cycles).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def gc_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
