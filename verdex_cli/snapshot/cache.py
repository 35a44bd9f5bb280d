"""The snapshot cache of one page: answer `snapshot` without a capture when nothing changed.

Every captured frame's bridge keeps a change watcher (observer.js) that marks its document dirty on
DOM mutations, user input, focus moves, <details> toggles, resizes, media-query changes and CSS
animations/transitions (a frame with a running animation always counts as dirty). The cache check
asks each frame of the last capture once (one small `Runtime.evaluate` per frame, no DOM walk):
- no frame dirty: the last snapshot is the answer (`cached: true`);
- some frames dirty: only those are captured again; the others' trees are stitched in unchanged;
- anything the watchers cannot vouch for captures everything: another snapshot mode, a command that
  may change the page (``Page.serial``, bumped by the command loop), a main-document navigation, a
  frame detached, a frame whose check fails (its document or process changed), a frame owner the
  last capture could not follow, or ``--fresh``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base.errors import VerdexError
from ..base.timing import phase
from ..browser.page import Page
from .model import Snapshot


@dataclass
class Entry:
    mode: tuple
    serial: int
    frame_events: int
    main_loader: str
    snap: Snapshot
    facts: dict[int, dict] = field(default_factory=dict)  # frame index -> bridge facts, tree under "root"
    memo: object = None  # the text renderer's memo of this snapshot's subtrees (render_text.Memo)


def store(page: Page, entry: Entry) -> None:
    page.snapshot_cache = entry


def forget(page: Page) -> object:
    """Drop the entry; returns its text renderer memo (rendering the next capture may reuse it)."""
    entry = getattr(page, "snapshot_cache", None)
    page.snapshot_cache = None
    return entry.memo if entry is not None else None


def lookup(page: Page, mode: tuple, trust_observer: bool = False) -> tuple[Snapshot | None, dict[int, dict] | None]:
    """(the cached snapshot, None) when nothing changed; (None, reusable frames) when some frames
    changed; (None, None) when everything must be captured. ``trust_observer``: the capture right
    after an action (changes.py), which settled the page first -- the watchers vouch for the
    frames even though a command ran since."""
    entry: Entry | None = getattr(page, "snapshot_cache", None)
    if entry is None or entry.mode != mode or (entry.serial != page.serial and not trust_observer):
        return None, None
    with phase("cache check"):
        hit, reuse = _check(page, entry)
    if hit is not None:
        entry.serial = page.serial  # vouched for after the command: the next `snapshot` may use it
    return hit, reuse


def _check(page: Page, entry: Entry) -> tuple[Snapshot | None, dict[int, dict] | None]:
    page.target.drain_events(0.05)  # frame events already received are counted
    if entry.frame_events != page.frames.structure_events or page.frames.main.loader_id != entry.main_loader:
        return None, None
    frames = []
    for index, facts in entry.facts.items():
        fr = page.frames.get(index)
        if fr is None or fr.detached:
            return None, None
        if "followed" not in facts:  # no frame owner (the bridge counts them), else one walk per capture
            facts["followed"] = facts.get("owners", 1) == 0 or _owners_followed(facts["root"])
        if not facts["followed"]:
            return None, None
        frames.append((index, fr, facts))
    # every frame asked at once: one round trip however many frames there are
    asked = [(index, fr, facts, page.frames.start_eval(fr, DIRTY, timeout=min(page.timeout, 5.0))) for index, fr, facts in frames]
    clean: dict[int, dict] = {}
    try:
        for index, fr, facts, started in asked:
            try:
                if started is None:
                    dirty = page.frames.eval(fr, DIRTY, timeout=min(page.timeout, 5.0))["value"]
                else:
                    dirty = page.frames.finish_eval(fr, started, DIRTY)["value"]
            except VerdexError:
                return None, None
            if not dirty:
                clean[index] = facts
    finally:
        for _index, _fr, _facts, started in asked:
            if started is not None:
                started[0].drop()  # (the ones not waited for, after an early answer)
    if len(clean) == len(entry.facts):
        return entry.snap, None
    return None, clean


DIRTY = "__verdex.bridge.dirty()"


def _owners_followed(root: dict) -> bool:
    """Every frame owner of this frame's tree led to a frame (none was unloaded or blocked)."""
    stack = [root]
    while stack:
        n = stack.pop()
        if "fo" in n and "fi" not in n:
            return False
        for k in n.get("c") or ():
            if not isinstance(k, str):
                stack.append(k)
    return True
