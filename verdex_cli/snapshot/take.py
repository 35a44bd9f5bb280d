"""Take a snapshot of a page: capture (or the cache), compact-mode decision, text. Recording its refs is
the page state's job (page_state.py), one layer up."""

from __future__ import annotations

import difflib
import json
import os

from . import cache
from ..base.gc_pause import gc_paused
from ..base.timing import phase
from ..browser.frames import Frame
from ..base.errors import VerdexError
from ..browser.page import Page
from .answers import drop_ahead
from .capture import UNCAPTURED, capture_tree
from .model import Snapshot, collect_owners
from .render_text import TextRenderer
from .views import FrameView, Stitched, frames_of

COMPACT_LIMIT = 100
# Developer check (the test suite sets it): every patched capture is compared with a whole capture.
CHECK_PATCHES = bool(os.environ.get("VERDEX_CHECK_PATCHES"))


class PatchMismatch(AssertionError):
    """A patched snapshot differs from a whole capture of the same page (a bug in incremental.js)."""


def _check_patched(page: Page, text: str, compact: bool, frame: Frame | None, follow: bool, ids,
                   refs: dict | None = None, hidden: dict | None = None) -> None:
    facts: dict[int, dict] = {}
    root, _, _ = capture_tree(page, facts=facts, start=frame, follow=follow, check=True)
    if any(f.get("changed") for f in facts.values()):
        return  # the page changed between the two captures: nothing to compare
    renderer = TextRenderer(page.prefix, compact)
    whole = renderer.render(root)
    if whole.count(UNCAPTURED) != text.count(UNCAPTURED):
        return  # a frame did not answer one of the two captures in time (a loaded machine): nothing to compare
    if whole != text:
        diff = "\n".join(difflib.unified_diff(whole.splitlines(), text.splitlines(), "whole", "patched", n=1,
                                              lineterm=""))
        raise PatchMismatch("patched snapshot differs from a whole capture:\n" + diff[:4000])
    if renderer.ids != ids:  # the node identities changes are paired by (delta.py)
        at = next((i for i, (x, y) in enumerate(zip(renderer.ids, ids)) if x != y), min(len(ids), len(renderer.ids)))
        raise PatchMismatch(f"patched snapshot's node identities differ from a whole capture's from line {at}")
    if refs is not None and list(renderer.refs.values()) != list(refs.values()):
        raise PatchMismatch("the page's refs differ from a whole capture's: "
                            f"{list(renderer.refs)[:40]} / {list(refs)[:40]}")
    if hidden is not None and renderer.hidden != hidden:
        raise PatchMismatch("the page's hidden refs differ from a whole capture's")


def cached_snapshot(page: Page, number: int, all_refs: bool = False, fresh: bool = False,
                    frame: Frame | None = None, follow: bool = True, trust_observer: bool = False,
                    tree: bool = False, asked: list | None = None) -> tuple[Snapshot, bool]:
    """(snapshot, cached): the last snapshot when the page has not changed since (snapshot/cache.py),
    else a capture of the frames that changed, numbered ``number``. ``fresh`` always captures everything. ``frame``: only
    that frame (and the frames inside it); ``follow=False``: frame boundaries only; ``tree``: the snapshot
    holds its tree (``Snapshot.root``; else the page renders the text and keeps the tree: views.py);
    ``asked``: the cache's check, sent already (cache.ask)."""
    hit = reuse = prior = None
    if not fresh:
        hit, reuse = cache.lookup(page, _mode(all_refs, frame, follow, tree), trust_observer, asked)
    ahead = cache.take_ahead(page)  # what the settle after an action captured (act/changes.py)
    if ahead is not None and (hit is not None or reuse is None or not trust_observer
                              or ahead.acted_at != page.settle.acted_at):
        if drop_ahead(page, ahead.frames):  # not this capture's: nothing may trust the watchers they reset
            hit = reuse = None
        ahead = None
    if hit is not None:
        return hit, True
    if reuse is not None:  # the watchers vouch for the page: changed frames may be patched
        prior = cache.entry_of(page).facts
    with gc_paused():  # a big page makes tens of thousands of small dicts at once
        return _take(page, number, all_refs, reuse, frame, follow, prior, ahead.frames if ahead is not None else None,
                     tree, not trust_observer), False


def _mode(all_refs: bool, frame: Frame | None, follow: bool, tree: bool) -> tuple:
    return ("all-refs" if all_refs else "default", frame.index if frame is not None else 0, follow, tree)


def _take(page: Page, number: int, all_refs: bool, reuse: dict | None, frame: Frame | None,
          follow: bool, prior: dict | None, ahead: dict | None = None, tree: bool = False,
          shows: bool = False) -> Snapshot:
    events = page.frames.structure_events
    memo = cache.forget(page)
    facts: dict[int, dict] = {}
    mode = _mode(all_refs, frame, follow, tree)
    marked: set[int] | None = set() if shows else None  # (``shows``: its refs are shown to the user)
    root, frames, notes = capture_tree(page, reuse, facts, start=frame, follow=follow, prior=prior, ahead=ahead,
                                       view=cache.view_of(mode), marked=marked)
    # counted by the bridge (every answer says its frame's counts): no walk over the tree here
    t1, t2 = sum(f.tiers[0] for f in frames), sum(f.tiers[1] for f in frames)
    compact = (t1 + t2) > COMPACT_LIMIT and not all_refs
    if isinstance(root, FrameView):  # rendered by the page, frame by frame: stitched
        with phase("join texts"):
            made = Stitched(compact).build(root)
        text, refs, hidden, ids, memo, long = made.text, made.refs, made.hidden, made.ids, None, made.long
        views, root, empty = root, None, root.shape == 0
    else:
        renderer = TextRenderer(page.prefix, compact, memo)
        with phase("render"):
            text = renderer.render(root)
        refs, hidden, ids, memo, views = renderer.refs, renderer.hidden, renderer.ids, renderer.memo, None
        long = None  # (rendered here: whole texts not kept)
        empty = not root.get("c")
    if compact and t2:
        notes.append(f"{t1 + t2} interactive elements: refs shown for the {t1} controls only; {t2} more "
                     f"(list items, options, rows, cells) exist. 'snapshot --all-refs' shows them.")
    if empty:
        notes.append("The page has no accessible content (it is blank, or everything on it is hidden).")
    loaders = {f.index: fr.loader_id for f in frames if (fr := page.frames.get(f.index)) is not None}
    if CHECK_PATCHES and (views is not None or any(f.get("patched") for f in facts.values())):
        _check_patched(page, text, compact, frame, follow, ids, refs if views is not None else None,
                       hidden if views is not None else None)
    snap = Snapshot(number, text, root, refs, frames, notes, compact, hidden, loaders, ids, views, long,
                    frozenset(marked or ()))
    cache.store(page, cache.Entry(mode, events, page.frames.main.loader_id, snap,
                                  {i: f for i, f in facts.items() if i in loaders}, memo))
    return snap


def tree_of(page: Page, snap: Snapshot) -> dict | None:
    """The stitched tree of ``snap`` (as capture.py stitches one): its own, or, when the page rendered its
    text, the trees its frames' pages still hold for it, all asked at once (one round trip). None when
    one of them has moved on (captured again, or a new document) or cannot be asked."""
    if snap.root is not None or snap.views is None:
        return snap.root
    asked = []
    for v in frames_of(snap.views):
        fr = page.frames.get(v.index)
        if fr is None or fr.detached or fr.loader_id != snap.loaders.get(v.index):
            return None
        asked.append((v, fr, page.bridge.held_tree(fr, v.cap, later=True)))
    trees: dict[int, dict] = {}
    try:
        for v, fr, started in asked:
            raw = started.value() if started.sent is not None else None
            if not isinstance(raw, str):
                return None
            trees[v.index] = json.loads(raw)
    except VerdexError:
        return None
    finally:
        for _v, _fr, started in asked:
            started.drop()  # (the ones not read, after an early answer)
    for v in frames_of(snap.views):  # each frame owner given its frame, as capture.py does
        root = trees[v.index]
        root["fi"] = v.index
        by_slot = {o["fo"]: o for o in v.owners}
        owners: list = []
        collect_owners(root, owners)
        for node in owners:
            o = by_slot.get(node["fo"])
            if o is None:
                return None
            for key in ("fi", "err"):
                if key in o:
                    node[key] = o[key]
            if o.get("sub") is not None:
                node["sub"] = trees[o["sub"].index]
    return trees[snap.views.index]
