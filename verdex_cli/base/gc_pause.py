"""Keep the cyclic garbage collector out of the way while a big snapshot builds tens of thousands of
small acyclic objects: each collection they set off would walk them all and find nothing."""

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
