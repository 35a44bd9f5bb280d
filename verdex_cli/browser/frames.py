"""Frames of one page: stable indices, isolated worlds, cross-origin targets.

A frame keeps the index it got when first seen for as long as it exists.
Each frame document gets one isolated world (created lazily, recreated when
the frame's document -- its loader id -- changes); its bridge numbers refs on
from the tab's numbering (numbering.py), never from 1.  Cross-origin frames
living in their own renderer are reached through their own session (attached by Chrome).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlparse

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, JSError
from .bridge import invocation
from .cdp import Pending, Target, finish_all
from .guard_world import GuardWorld
from . import timer_watch
from .numbering import RefNumbers
from .worlds import Worlds


def frame_url(frame: dict) -> str:
    """The URL of a frame dict from Page.getFrameTree / Page.frameNavigated (with its #fragment; an
    error page's unreachable URL)."""
    return frame.get("unreachableUrl") or frame.get("url", "") + frame.get("urlFragment", "")


@dataclass
class Frame:
    index: int
    frame_id: str
    target: Target
    parent: int | None
    url: str = ""
    name: str = ""
    loader_id: str = ""
    oopif: bool = False
    detached: bool = False
    world_id: int | None = None
    world_loader: str | None = None
    renumber: bool = False  # its document came back from the back/forward cache: its bridge numbers anew


def origin_of(url: str) -> str:
    p = urlparse(url)
    if p.scheme in ("http", "https"):
        return f"{p.scheme}://{p.netloc}"
    return p.scheme + ":" if p.scheme not in ("about", "") else ""


class FrameRegistry(Worlds):
    """The frames of one tab: ``target`` is the tab's own session, ``timeout`` its call limit."""

    def __init__(self, target: Target, timeout: float):
        self.target, self.timeout = target, timeout
        self.by_id: dict[str, Frame] = {}
        self.by_index: dict[int, Frame] = {}
        self.numbers = RefNumbers()  # frame indices and ref numbers handed out in this tab (numbering.py)
        self._oopif_targets: dict[str, Target] = {}
        # frame id -> (an isolated world created ahead, on which session): see prepare(); kept only
        # for the capture that made them (forget_prepared)
        self._made: dict[str, tuple[int, Target]] = {}
        self.main_id = ""
        self.structure_events = 0  # frames detached (or swapped process) so far: the snapshot cache checks it
        self._owner_ids: dict[tuple, int] = {}  # (frame id, parent's document, its session) -> owner's backend id
        self.captured: list[int] = []  # frames the last whole-page capture stitched in (captured ahead next time)
        self.guards = GuardWorld()  # every document's click guard world (guard_world.py), by frame id
        self.choosers: list[dict] = []  # file choosers the tab's documents opened (act/choosers.py reports them)
        self.tree_asked: Pending | None = None  # the main target's frame tree, asked ahead (ask_tree)

    # -- registry --------------------------------------------------------------
    def ensure(self, frame_id: str, target: Target, parent: int | None, oopif: bool = False) -> Frame:
        fr = self.by_id.get(frame_id)
        if fr is None or fr.detached:
            fr = Frame(self.numbers.new_frame_index(), frame_id, target, parent, oopif=oopif)
            self.by_id[frame_id] = fr
            self.by_index[fr.index] = fr
        else:
            fr.target, fr.oopif = target, oopif
            if parent is not None:
                fr.parent = parent
        return fr

    @property
    def main(self) -> Frame:
        return self.by_id[self.main_id]

    def get(self, index: int) -> Frame | None:
        return self.by_index.get(index)

    def note_document(self, fr: Frame, loader: str, url: str) -> None:
        """The frame was found showing another document (loader id) than last recorded."""
        fr.loader_id, fr.url = loader, url

    def tree(self, target: Target | None = None) -> dict:
        return (target or self.target).call("Page.getFrameTree")["frameTree"]

    def ask_tree(self) -> None:
        """Ask for the main target's frame tree now, in the round trip of what is asked next (an
        action's look at the page before its input); read by :meth:`asked_tree`."""
        self.asked_tree(read=False)
        self.tree_asked = self.target.start("Page.getFrameTree")

    def asked_tree(self, read: bool = True) -> dict | None:
        """The tree asked ahead (once; ``read=False``: let go of unread), or None."""
        asked, self.tree_asked = self.tree_asked, None
        if asked is not None and not read:
            asked.drop()
        return asked.result()["frameTree"] if asked is not None and read else None

    def refresh(self, tree: dict | None = None) -> None:
        """Re-read the main target's frame tree (urls, loader ids, detachment); ``tree``: one just read."""
        tree = tree or self.tree()
        self.main_id = tree["frame"]["id"]
        self.ensure(self.main_id, self.target, None)
        self._absorb(tree, self.target)

    def _absorb(self, node: dict, target: Target) -> None:
        fr = self.by_id.get(node["frame"]["id"])
        if fr is not None:
            self._fill(fr, node["frame"])
        for child in node.get("childFrames", ()):
            self._absorb(child, target)

    def scan(self, oopif_infos: list[dict]) -> list[Frame]:
        """Every frame of the page from the frame trees alone (no snapshot, no ref issued): the main
        target's tree, then each out-of-process frame (``Target.getTargets`` infos of type iframe
        inside this page, parents first) with the frames its own renderer hosts."""
        tree = self.tree()
        self.refresh(tree)
        live = {self.main_id}
        self._scan_children(tree, self.target, self.main, live, oopif=False)
        for info in oopif_infos:
            parent = self.by_id.get(info.get("parentFrameId") or info.get("parentId", ""))
            if parent is None or parent.detached:
                continue
            target = self.oopif_target(info["targetId"])
            if target is None:
                continue
            fr = self.ensure(info["targetId"], target, parent.index, oopif=True)
            try:
                tree = target.call("Page.getFrameTree")["frameTree"]
            except (CDPError, CDPTimeout, ConnectionLost):
                continue
            self._fill(fr, tree["frame"])
            live.add(fr.frame_id)
            self._scan_children(tree, target, fr, live, oopif=True)
        return [f for f in self.all_frames() if f.frame_id in live]

    def _scan_children(self, node: dict, target: Target, parent: Frame, live: set, oopif: bool) -> None:
        for child in node.get("childFrames", ()):
            fr = self.ensure(child["frame"]["id"], target, parent.index, oopif=oopif)
            self._fill(fr, child["frame"])
            live.add(fr.frame_id)
            self._scan_children(child, target, fr, live, oopif)

    @staticmethod
    def _fill(fr: Frame, f: dict) -> None:
        fr.url = frame_url(f)
        fr.name = f.get("name", "")
        fr.loader_id = f.get("loaderId", fr.loader_id)

    def all_frames(self) -> list[Frame]:
        return [f for i, f in sorted(self.by_index.items()) if not f.detached]

    def cross_origin(self, fr: Frame) -> bool:
        if fr.index == 0:
            return False
        if fr.oopif:
            return True
        mine, main = origin_of(fr.url), origin_of(self.main.url)
        return bool(mine) and bool(main) and mine != main

    # -- events (the session's event thread) ---------------------------------------------
    def on_frame_navigated(self, frame: dict | None = None, type: str = "", **_):  # noqa: A002 - CDP's name
        if not frame:
            return
        if type == "BackForwardCacheRestore":
            self._restored()
        fr = self.by_id.get(frame.get("id", ""))
        if fr is not None:
            self._fill(fr, frame)

    def on_same_document(self, frameId: str = "", url: str = "", **_):
        fr = self.by_id.get(frameId)
        if fr is not None:
            fr.url = url

    def on_frame_detached(self, frameId: str = "", reason: str = "remove", **_):
        self.structure_events += 1
        fr = self.by_id.get(frameId)
        if fr is not None and reason != "swap" and fr.index != 0:
            fr.detached = True

    # -- the frame's live state -------------------------------------------------
    def current_loader(self, fr: Frame, trees: "Trees | None" = None) -> tuple[str, str] | None:
        """(loader id, url) of the frame right now, or None when it is gone. ``trees``: frame trees
        asked for ahead (several targets in one round trip)."""
        try:
            tree = trees.of(fr.target) if trees is not None else self.tree(fr.target)
        except ConnectionLost:
            # the session of another process ended (an out-of-process frame, or a frame inside one,
            # whose process went away: it navigated or was removed): this frame is not there any more
            if fr.oopif or fr.target is not self.target:
                return None
            raise
        found = find_frame(tree, fr.frame_id)
        if found is None:
            return None
        return found.get("loaderId", ""), frame_url(found)

    def _restored(self) -> None:
        """The page came back from the back/forward cache: its documents (and their bridges, with the
        refs they hold) are those of an earlier visit. Every frame's bridge numbers its elements anew."""
        for fr in list(self.by_id.values()):
            fr.world_id, fr.renumber = None, True

    # -- frame owners ------------------------------------------------------------
    def _owner_key(self, fr: Frame) -> tuple | None:
        parent = self.by_index.get(fr.parent) if fr.parent is not None else None
        return None if parent is None else (fr.frame_id, parent.loader_id, id(parent.target))

    def owner_of(self, fr: Frame) -> int | None:
        """The backend node id of the iframe element showing ``fr`` in its parent, when known for
        both documents as they are now (and the parent's session)."""
        return self._owner_ids.get(self._owner_key(fr))

    def remember_owner(self, fr: Frame, backend: int) -> None:
        key = self._owner_key(fr)
        if key is not None:
            if len(self._owner_ids) > 500:
                self._owner_ids.clear()
            self._owner_ids[key] = backend

    # -- cross-origin (out-of-process) frames ----------------------------------
    def oopif_target(self, frame_id: str, wait: float | None = None) -> Target | None:
        """The session of an out-of-process frame (its target id is its frame id), attached to this
        page's connection by Chrome itself (auto-attach); waits briefly (``wait`` s) for one just created."""
        t = self._oopif_targets.get(frame_id)
        if t is not None and t.alive:
            return t
        t = self.target.child(frame_id, wait=min(self.timeout, 2.0) if wait is None else wait)
        if t is None:
            return None
        finish_all(self.start_enable(t))  # the three together: one round trip (a refusal leaves the rest)
        return t

    def start_enable(self, target: Target) -> list[Pending]:
        """An out-of-process frame's session (its target id is its frame id) taken as such, its domains
        turned on: the calls, sent now (answers to be taken or dropped), none when they were on."""
        self._oopif_targets[target.id or ""] = target
        if target.enabled:
            return []
        target.enabled = True
        timer_watch.install(target)  # its documents' watcher (settling; closed shadow roots' hosts)
        out = []
        for method in ("Page.enable", "Runtime.enable", "DOM.enable"):
            if method == "Runtime.enable":  # first: the guard world's contexts it reports are heard
                self.guards.watch(target)
            try:
                out.append(target.start(method))
                if method == "Page.enable":
                    out.append(self.hear_choosers(target))
            except (CDPError, CDPTimeout, ConnectionLost):
                break
        return out

    def hear_choosers(self, target: Target) -> Pending:
        """A file chooser a document of ``target`` opens is told here (``choosers``) instead of shown:
        a button that clicks a hidden file input is never dropped silently. The call, sent now."""
        target.on("Page.fileChooserOpened", lambda **kw: self.choosers.append(kw))
        return target.start("Page.setInterceptFileChooserDialog", enabled=True)

    def enable_new_sessions(self) -> None:
        """Out-of-process frames attached since verdex last looked (their sessions not set up: no guard
        world yet, guard_world.py): set up now and waited for -- a round trip, only when there are such
        frames -- so the guard worlds of their documents are known (reported before the answers)."""
        ids = self.target.conn.frame_targets(self.target.id or "")
        sessions = [s for s in map(self.target.child, ids) if s is not None and not s.enabled]
        finish_all([p for s in sessions for p in self.start_enable(s)])
        for session in sessions:
            session.drain_events(0.2)

    # -- refs the frame's bridge has issued --------------------------------------
    def note_issued(self, fr: Frame, counter: int, url: str | None = None) -> None:
        """The bridge of ``fr`` has issued ref numbers up to ``counter`` in its current document
        (and, from a capture, reports the document's URL)."""
        self.numbers.note(fr.index, counter, url or "")
        if url:
            fr.url = url

    def use_numbers(self, numbers: RefNumbers) -> None:
        """Number on from ``numbers`` (the tab's, kept by its ref store across a new browser): every
        bridge set up before from this registry's own numbering is set up again (numbering on)."""
        if numbers is self.numbers:
            return
        numbers.absorb(self.numbers)
        self.numbers = numbers
        for fr in self.by_id.values():
            fr.world_id, fr.renumber = None, True

    def reset_refs(self, keep_counter: bool) -> None:
        """Every frame's bridge forgets its refs (numbering restarts unless ``keep_counter``)."""
        current = {}
        for fr in self.all_frames():
            if fr.world_id is None:
                continue
            try:
                self.run(fr, invocation("bridge", "reset", keep_counter))
                current[fr.index] = (fr.world_loader or "", self.main.loader_id)
            except (CDPError, CDPTimeout, JSError, ConnectionLost):
                fr.world_id = None
        self.numbers.reset(keep_counter, current)

    def close(self) -> None:
        self._oopif_targets.clear()  # the sessions themselves live as long as their frames


class Trees:
    """The frame trees of several targets, asked for at once (one round trip), each read when needed
    (a target not asked ahead is asked then). ``close()`` lets unread answers go."""

    def __init__(self, targets: list[Target]):
        self._pending: dict[int, Pending] = {}
        self._got: dict[int, dict] = {}
        for t in {id(t): t for t in targets}.values():
            try:
                self._pending[id(t)] = t.start("Page.getFrameTree")
            except (CDPError, CDPTimeout, ConnectionLost):
                continue

    def of(self, target: Target) -> dict:
        key = id(target)
        if key not in self._got:
            pending = self._pending.pop(key, None)
            res = pending.result() if pending is not None else target.call("Page.getFrameTree")
            self._got[key] = res["frameTree"]
        return self._got[key]

    def close(self) -> None:
        for pending in self._pending.values():
            pending.drop()
        self._pending.clear()


def find_frame(node: dict, frame_id: str) -> dict | None:
    """The frame dict with that id in a Page.getFrameTree tree, or None."""
    if node["frame"]["id"] == frame_id:
        return node["frame"]
    for child in node.get("childFrames", ()):
        hit = find_frame(child, frame_id)
        if hit is not None:
            return hit
    return None
