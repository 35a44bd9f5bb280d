"""Everything verdex keeps about one tab (owned by the Workspace, dropped with its tab): its ref store,
its recent snapshots and the last one. A ref's status is decided by staleness.classify alone and
written only by the ref store."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ..base.errors import UsageError, VerdexError
from ..base.timing import phase
from ..snapshot import delta
from ..snapshot.model import Snapshot
from ..snapshot.take import cached_snapshot
from .staleness import main_navigated
from .store import RefStore, ref_number

HISTORY = 20  # snapshots kept per page for `diff`
HISTORY_CHARS = 24_000_000  # ... and at most this much text (huge pages keep fewer, never fewer than 2)


@dataclass
class Shot:
    """One snapshot as the history keeps it: its text, not its tree (a big page's tree is large)."""

    number: int
    text: str
    hidden: dict[int, str]  # line index -> ref compact mode did not print
    loaders: dict[int, str]  # frame index -> document (loader id) at capture
    scope: str  # "page", "frame fN" or "page without frames"
    ids: object = None  # per line: the node's identity (snapshot/render_text.node_key), for delta.compare
    long: dict[int, str] | None = None  # line -> the line with no text cut, for delta.compare (None: not known)


class PageState:
    def __init__(self, prefix: str, numbers=None):
        self.store = RefStore(prefix, numbers)  # numbers: the tab's numbering (browser/numbering.py)
        self.history: deque[Shot] = deque(maxlen=HISTORY)
        self.last: Snapshot | None = None  # the last snapshot shown or captured (for `find`)
        self.told_no_baseline: str | None = None  # the document whose actions were told "no snapshot yet"
        self.seen: int | None = None  # the last whole-page snapshot the user saw (or saw the changes of)
        self.shown: Snapshot | None = None  # the snapshot whose refs were all shown last, nothing shown since

    def snapshot(self, page, all_refs: bool = False, fresh: bool = False, frame=None, follow: bool = True,
                 trust_observer: bool = False, tree: bool = False,
                 asked: list | None = None) -> tuple[Snapshot, bool]:
        """(snapshot, cached): see snapshot/take.py. Every capture is recorded in the ref store and
        enters the history. Its refs count as shown to the user unless ``trust_observer`` (an action's
        change capture: only the refs its change lines name are, see :meth:`show`)."""
        snap, cached = cached_snapshot(page, self.store.next_number(), all_refs=all_refs, fresh=fresh, frame=frame,
                                       follow=follow, trust_observer=trust_observer, tree=tree, asked=asked)
        self.last = snap
        if not cached:
            with phase("record refs"):
                self.store.record(snap, snap.loaders, set(snap.loaders), shown=not trust_observer)
                self.store.log.name_frames(snap.text)
            scope = (f"frame f{frame.index}" if frame is not None and frame.index else
                     "page" if follow else "page without frames")
            self.history.append(Shot(snap.number, snap.text, snap.hidden, dict(self.store.frame_loaders), scope,
                                     ids=snap.ids, long=snap.long))
            while len(self.history) > 2 and sum(len(h.text) for h in self.history) > HISTORY_CHARS:
                self.history.popleft()
        if not trust_observer and not (cached and snap is self.shown):  # (shown again: nothing to tell)
            self.show(page, snap, snap.refs, store=cached, marked=frozenset() if cached else snap.marked)
            if frame is None and follow and not tree:  # (find's capture shows only what matched)
                self.seen = snap.number
        return snap, cached

    def show(self, page, snap: Snapshot, refs: dict, store: bool = True, marked: frozenset = frozenset()) -> None:
        """The user was shown ``refs`` (ref -> its RefInfo in ``snap``) as ``snap`` saw them: from now on
        acting on one compares with that (its record and heading in the page's registry too; the pages of
        the frames ``marked`` did that as they captured)."""
        self.shown = snap if refs is snap.refs else None
        if store:
            self.store.show(refs)
        by_frame: dict[int, list[int]] = {}
        if not set(snap.loaders) <= marked:
            for ref, info in refs.items():
                if info.frame not in marked:
                    by_frame.setdefault(info.frame, []).append(ref_number(ref))
        for fi, ns in by_frame.items():
            fr = page.frames.get(fi)
            if fr is None or fr.detached or fr.loader_id != snap.loaders.get(fi):
                continue
            try:
                page.bridge.show(fr, ns)
            except VerdexError:
                pass  # a frame going away: its refs go with it

    def show_live(self, page, fr, ref: str, role: str, name: str) -> None:
        """The user was shown ``ref`` as it is now (``inspect``): acting on it compares with that."""
        self.shown = None
        self.store.show_live(ref, role, name)
        try:
            page.bridge.show_now(fr, ref_number(ref))
        except VerdexError:
            pass  # a frame going away: its refs go with it

    def latest(self, scope: str | None = None) -> Shot | None:
        """The newest kept snapshot (of that scope: "page", "frame fN", "page without frames")."""
        return next((shot for shot in reversed(self.history) if scope is None or shot.scope == scope), None)

    def last_seen(self) -> Shot | None:
        """The whole-page snapshot the user last saw (a snapshot, or an action's changes), while kept;
        else the newest whole-page one."""
        seen = (shot for shot in reversed(self.history) if shot.number == self.seen and shot.scope == "page")
        return next(seen, None) or self.latest("page")

    def shot(self, number: int) -> Shot:
        for s in self.history:
            if s.number == number:
                return s
        kept = (f"#{self.history[0].number}..#{self.history[-1].number}" if self.history else "none yet")
        raise UsageError(f"Snapshot #{number} is not kept (this tab keeps its last {HISTORY} snapshots, fewer "
                         f"for very large pages: {kept}).")

    def diff(self, first: int | None = None, second: int | None = None) -> dict:
        """Every node that differs between snapshots ``first`` and ``second`` (default: the last two)."""
        if first is None:
            if len(self.history) < 2:
                return {"from": None, "to": self.history[-1].number if self.history else None,
                        "added": [], "removed": [], "changed": [], "navigated_frames": []}
            a, b = self.history[-2], self.history[-1]
        else:
            a = self.shot(first)
            b = self.shot(second) if second is not None else self.history[-1]
        return compare(a, b)

    def status(self, page) -> dict | None:
        """For a status line: the last snapshot's number and time, the live refs, and whether the tab
        has a new page since (staleness.main_navigated); None before the first snapshot."""
        store = self.store
        if not store.last_snapshot_at:
            return None
        try:
            navigated = main_navigated(page, store)
        except VerdexError:
            navigated = False
        return {"snapshot": store.snapshot_no, "taken_at": store.last_snapshot_at, "live": store.live_count(),
                "navigated": navigated}

    def reset(self, restart: bool = False) -> None:
        self.store.reset(restart)
        self.history.clear()
        self.last = self.seen = None


def compare(a: Shot, b: Shot, aside: tuple[set[int], set[int]] | None = None) -> dict:
    """Snapshot ``a`` to ``b`` (delta.compare; ``aside``: lines of each whose changes go apart)."""
    if a.scope != b.scope:
        raise UsageError(f"Snapshot #{a.number} shows the {a.scope}, #{b.number} the {b.scope}: "
                         "diff compares snapshots of the same scope.")
    main_moved = a.loaders.get(0) != b.loaders.get(0)
    navigated = {f for f in b.loaders if f in a.loaders and a.loaders[f] != b.loaders[f]}
    if main_moved:
        navigated |= set(a.loaders) | set(b.loaders)
    out = {"from": a.number, "to": b.number}
    out.update(delta.compare(a.text, a.hidden, b.text, b.hidden, frozenset(navigated), a.ids, b.ids, a.long, b.long,
                             aside))
    out["navigated_frames"] = sorted(navigated)
    return out
