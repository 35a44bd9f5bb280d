"""The snapshot cache of one page: answer `snapshot` without a capture when nothing changed.

Each captured frame's bridge keeps a change watcher (observer.js) that marks its document dirty on
mutations, input, focus moves, toggles, resizes, media-query changes and running animations. The check
asks every frame of the last capture at once (no DOM walk): none dirty, the last snapshot is the answer;
some dirty, only those are captured again. Anything the watchers cannot vouch for captures everything:
another mode, a command that may change the page (:func:`doubt`), a new main document, a frame
detached or whose check fails, a frame owner not followed, ``--fresh``."""

from __future__ import annotations

from dataclasses import dataclass, field
import weakref

from ..base.errors import VerdexError
from ..base.timing import phase
from ..browser.page import Page
from .model import Snapshot, collect_owners
from .views import FrameView

SNAP = ("snapshot",)  # a whole frame's tree (Bridge.capture)


def view_of(mode: tuple) -> int:
    """What a capture in snapshot mode ``mode`` asks the frames for: 0 their trees (the mode wants the
    tree: filtered views), 1 their text (text.js), 2 their text without compact mode (--all-refs)."""
    if mode[3]:
        return 0
    return 2 if mode[0] == "all-refs" else 1


def _cap(facts: dict | None) -> int:
    """The number of the frame's capture ``facts`` came from (0: not known)."""
    return int(facts["cap"]) if facts is not None and facts.get("cap") else 0


def caps(page: Page) -> dict[int, int]:
    """frame index -> the number of its last capture the cache holds (a frame that captured since
    counts as changed: bridge.dirty)."""
    entry = entry_of(page)
    return {i: _cap(f) for i, f in entry.facts.items()} if entry is not None else {}


def capture_expr(view: int, index: int | None, facts: dict | None) -> tuple:
    """What a frame (``index``; None: new to the page) is asked for in a whole-page capture: with
    ``facts`` of its last capture, its changes to that one where they hold what this mode needs."""
    cap = _cap(facts)
    held = facts.get("root") if cap else None
    if view:
        return ("snapshot", 0, cap if isinstance(held, FrameView) else 0, view, -1 if index is None else index)
    return ("snapshot", 0, cap) if isinstance(held, dict) else SNAP


@dataclass
class Ahead:
    """What the settle after an action found in each captured frame, in the same call (act.js
    ``settleThen``): frame index -> (the document its world was in, the capture asked for, dirty,
    that capture's JSON answer or None when the frame had not changed)."""
    acted_at: float
    frames: dict[int, tuple[str, tuple, bool, str | None]]


@dataclass
class Entry:
    mode: tuple
    frame_events: int
    main_loader: str
    snap: Snapshot
    facts: dict[int, dict] = field(default_factory=dict)  # frame index -> bridge facts, tree under "root"
    memo: object = None  # the text renderer's memo of this snapshot's subtrees (render_text.Memo)
    ahead: Ahead | None = None  # captures the settle after an action took (changes.py), for the next capture
    vouched: bool = True  # False from the start of a command that may change the page (doubt) to a check


_ENTRIES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # Page -> its Entry, gone with the page


def entry_of(page: Page) -> Entry | None:
    """The last capture of ``page`` the cache holds (written only here: store, forget, doubt, lookup)."""
    return _ENTRIES.get(page)


def doubt(page: Page) -> None:
    """A command that may change the page begins: its last capture is used only once checked again."""
    entry = _ENTRIES.get(page)
    if entry is not None:
        entry.vouched = False


def ahead_captures(page: Page) -> dict[int, tuple] | None:
    """frame index -> the capture to take once settled after an action (patches to the last one where
    the bridge keeps it), when the next capture will be of the same whole page; else None."""
    entry = entry_of(page)
    if entry is None or not entry.facts or entry.mode[1] != 0 or not entry.mode[2]:
        return None
    return {i: capture_expr(view_of(entry.mode), i, f) for i, f in entry.facts.items()}


def keep_ahead(page: Page, ahead: Ahead) -> bool:
    """Hand the settle's captures to the next capture (False: there is no entry to hand them with)."""
    entry = entry_of(page)
    if entry is None:
        return False
    entry.ahead = ahead
    return True


def take_ahead(page: Page) -> Ahead | None:
    entry = entry_of(page)
    if entry is None:
        return None
    ahead, entry.ahead = entry.ahead, None
    return ahead


def store(page: Page, entry: Entry) -> None:
    _ENTRIES[page] = entry


def forget(page: Page) -> object:
    """Drop the entry; returns its text renderer memo (rendering the next capture may reuse it)."""
    entry = _ENTRIES.pop(page, None)
    return entry.memo if entry is not None else None


def lookup(page: Page, mode: tuple, trust_observer: bool = False,
           asked: list | None = None) -> tuple[Snapshot | None, dict[int, dict] | None]:
    """(the cached snapshot, None) when nothing changed; (None, reusable frames) when some frames
    changed; (None, None) when everything must be captured. ``trust_observer``: the capture right
    after an action (changes.py), which settled the page first -- the watchers vouch for the
    frames even though a command ran since. ``asked``: the check, sent already (:func:`ask`)."""
    entry = entry_of(page)
    if entry is None or entry.mode != mode or (not entry.vouched and not trust_observer):
        return None, None
    with phase("cache check"):
        asked = asked if asked is not None else ask(page, trust_observer)
        if asked is None:
            return None, None
        clean: dict[int, dict] = {}
        try:
            for index, facts, known, started in asked:
                try:
                    dirty = known if started is None else started.value()
                except VerdexError:
                    return None, None
                if not dirty:
                    clean[index] = facts
        finally:
            drop(asked)
    if len(clean) < len(entry.facts):
        return None, clean
    entry.vouched = True  # vouched for after the command: the next `snapshot` may use it
    return entry.snap, None


def drop(asked: list | None) -> None:
    """Let a check's answers go unread (the ones not waited for, after an early answer, included)."""
    for *_, started in asked or ():
        if started is not None:
            started.drop()


def ask(page: Page, after_action: bool = True) -> list | None:
    """Every frame of the last capture asked at once whether it changed (one round trip however many
    frames), not waited for: [(index, facts, dirty if known already, the call sent)] for :func:`lookup`
    to read, or :func:`drop`; None: everything must be captured. (The look before an action sends it
    ahead: the target's search rides in its round trip.)"""
    entry = entry_of(page)
    if entry is None:
        return None
    page.target.drain_events(0.05)  # frame events already received are counted
    if entry.frame_events != page.frames.structure_events or page.frames.main.loader_id != entry.main_loader:
        return None
    frames = []
    for index, facts in entry.facts.items():
        fr = page.frames.get(index)
        if fr is None or fr.detached:
            return None
        if "followed" not in facts:  # no frame owner (the bridge counts them), else one walk per capture
            facts["followed"] = facts.get("owners", 1) == 0 or _owners_followed(facts["root"])
        if not facts["followed"]:
            return None
        frames.append((index, fr, facts))
    limit = min(page.timeout, 5.0)
    # told by the settle just before, for the capture after an action: not asked again (a later
    # snapshot asks: the page may have changed since)
    known = _known_dirt(page, entry, frames) if after_action else {}
    return [(index, facts, known.get(index),
             None if index in known else page.bridge.dirty(fr, _cap(facts), timeout=limit, later=True))
            for index, fr, facts in frames]


def _known_dirt(page: Page, entry: Entry, frames: list) -> dict[int, bool]:
    """frame index -> dirty, for the frames the settle after the last action answered for (their
    documents unchanged since)."""
    ahead = entry.ahead
    if ahead is None or ahead.acted_at != page.settle.acted_at:
        return {}
    out = {}
    for index, fr, _facts in frames:
        seen = ahead.frames.get(index)
        if seen is not None and seen[0] == fr.loader_id == fr.world_loader:
            out[index] = seen[2]
    return out


def _owners_followed(root: dict | FrameView) -> bool:
    """Every frame owner of this frame's tree led to a frame (none was unloaded or blocked)."""
    if isinstance(root, FrameView):
        owners = root.owners
    else:
        owners = []
        collect_owners(root, owners)
    return all("fi" in o for o in owners)
