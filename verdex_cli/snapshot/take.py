"""Take a snapshot of a page and record it in the page's ref store."""

from __future__ import annotations

import gc

from ..browser.page import Page
from ..refs import RefStore
from .capture import capture_tree
from .model import Snapshot
from .render_text import TextRenderer, count_refs

COMPACT_LIMIT = 100


def take_snapshot(page: Page, store: RefStore, all_refs: bool = False) -> Snapshot:
    # A big page makes tens of thousands of small dicts at once: keep the cyclic
    # garbage collector out of the way until they are built (it finds nothing).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _take(page, store, all_refs)
    finally:
        if was_enabled:
            gc.enable()


def _take(page: Page, store: RefStore, all_refs: bool) -> Snapshot:
    root, frames, notes = capture_tree(page)
    if all(f.tiers is not None for f in frames):  # counted by the bridge: no walk over the tree here
        t1, t2 = sum(f.tiers[0] for f in frames), sum(f.tiers[1] for f in frames)
    else:
        t1, t2 = count_refs(root)
    compact = (t1 + t2) > COMPACT_LIMIT and not all_refs
    renderer = TextRenderer(page.prefix, compact)
    text = renderer.render(root)
    if compact and t2:
        notes.append(f"{t1 + t2} interactive elements: refs shown for the {t1} controls only; {t2} more "
                     f"(list items, options, rows, cells) exist. 'snapshot --all-refs' shows them.")
    if not root.get("c"):
        notes.append("The page has no accessible content (it is blank, or everything on it is hidden).")
    snap = Snapshot(store.next_number(), text, root, renderer.refs, frames, notes, compact)
    loaders = {}
    for f in frames:
        fr = page.frames.get(f.index)
        if fr is not None:
            loaders[f.index] = fr.loader_id
    store.record(snap, loaders, set(loaders))
    return snap
