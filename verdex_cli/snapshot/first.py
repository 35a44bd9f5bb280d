"""The first capture of a page's document: every frame set up at once, in four round trips however many
frames there are and however deep they nest (later captures find them ready: capture.py).

The captures are stitched as always, with the frame of each owner known from its tagOwner answer
(``Primed.fid``): no owner is looked up; a frame new to the page gets its index when stitched in
(document order, depth first), its world and capture waiting for it here (``Primed.take``). A frame not
set up here (or new meanwhile) is set up the usual way when stitched."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, VerdexError
from ..base.timing import phase
from ..browser import bridge
from ..browser.bridge import Call, capture_call, engine_load, invocation, tag_owner
from ..browser.cdp import Pending, Target, finish_all
from ..browser.frames import Frame, Trees
from ..browser.page import Page
from ..browser.worlds import init_call, new_world

OWNERS = "verdex-owners"  # the object group of owner elements (released after the captures)
NEW = (0, True)  # how a frame new to the page is numbered (RefNumbers.start of a new frame index)
SNAP = ("snapshot",)


@dataclass
class _Node:
    frame_id: str
    target: Target
    info: dict  # its frame dict, from its session's tree
    parent: str | None
    known: Frame | None  # in the registry already
    depth: int = 0
    world: int | None = None
    loaded: bool = False
    numbered: tuple[int, bool] = NEW
    backend: int | None = None  # its owner element's backend node id (in its parent's document)
    owner: str | None = None  # its owner element, a remote object of its parent's world
    expr: tuple = SNAP  # what its capture asks for
    capture: Pending | None = None


@dataclass
class Primed:
    """What ``prime`` set up: the captures sent to frames new to the page (by frame id, until stitched)
    and to frames in the registry (``kept``: the capture's usual pending ones), the frame trees of the
    sessions (by session), the own frame dicts of out-of-process frames, the owners' backend ids."""

    page: Page
    captures: dict[str, tuple] = field(default_factory=dict)  # (pending, session, world, document)
    kept: list[tuple[Frame, Pending, tuple]] = field(default_factory=list)  # (frame, pending capture, what)
    trees: dict[int, dict] = field(default_factory=dict)
    roots: dict[str, dict] = field(default_factory=dict)
    backends: dict[str, int] = field(default_factory=dict)
    tags: dict[str, list] = field(default_factory=dict)  # parent frame id -> [(child frame id, pending tagOwner)]
    slots: dict[str, dict[int, str]] = field(default_factory=dict)  # parent frame id -> {owner slot: frame id}
    used: set[str] = field(default_factory=set)  # frames whose capture sent here was taken
    fresh: tuple = SNAP  # what the captures of frames new to the page ask for (their index not known yet)

    def take(self, fr: Frame, expr: tuple) -> tuple | None:
        """The capture sent for ``fr`` (being stitched in), its world now the frame's; None when there is
        none it can use (then it is captured the usual way)."""
        got = self.captures.pop(fr.frame_id, None)
        if got is None:
            return None
        pending, target, world, loader = got
        usable = expr == self.fresh or (len(expr) == 5 and expr[:4] == self.fresh[:4] and not expr[2])
        if target is not fr.target or not usable or not self.page.frames.adopt(fr, world, loader, NEW):
            _unused(pending, target, world)
            return None
        self.used.add(fr.frame_id)
        return self.page.bridge.capture(fr, expr, sent=(pending, loader)), expr

    def fid(self, fr: Frame, slot: int) -> str:
        """The frame id of owner ``slot`` of ``fr``'s capture, as its tagOwner answers say ("": not known,
        or ``fr`` was captured otherwise: another capture's slots)."""
        if fr.frame_id not in self.used:
            return ""
        if fr.frame_id not in self.slots:
            found = self.slots[fr.frame_id] = {}
            tags = self.tags.pop(fr.frame_id, [])
            for (child, _p), res in zip(tags, finish_all([p for _c, p in tags])):
                value = res.get("result", {}).get("value") if isinstance(res, dict) else None
                if isinstance(value, int) and value >= 0:
                    found[value] = child
        return self.slots[fr.frame_id].get(slot, "")

    def drop(self) -> None:
        """Captures of frames not stitched in (hidden, too deep, gone), answers not needed: let go unread,
        and the refs they issued forgotten (their frames have no index: the world's next capture, when
        the frame is shown, numbers from the start, as if this one was not taken)."""
        for pending, target, world, _loader in self.captures.values():
            _unused(pending, target, world)
        self.captures.clear()
        for tags in self.tags.values():
            for _c, pending in tags:
                pending.drop()
        self.tags.clear()


Sent = tuple[list[Target], list[Pending], Trees, dict]


def ask(page: Page) -> Sent:
    """Round trip 1, sent with the page's own frame tree: each out-of-process frame's session taken,
    its domains turned on, its frame tree and the size it is drawn at asked for (a frame drawn at 0x0,
    as most ad frames of a page are, hidden, is not set up here: if it is shown after all, it is set
    up the usual way when stitched)."""
    targets = [t for t in map(page.target.child, page.target.conn.frame_targets(page.target.id or "")) if t is not None]
    enabling = [p for t in targets for p in page.frames.start_enable(t)]
    sizes = dict(_each(targets, lambda t: t.start("Page.getLayoutMetrics")))
    return targets, enabling, Trees(targets), sizes


def tree_of(call: Pending, asked: Sent | None) -> dict:
    """The page's frame tree (``call``'s answer); when it cannot be read, what ``ask`` sent is let go of."""
    try:
        return call.result()["frameTree"]
    except BaseException:
        if asked is not None:
            for pending in asked[1] + list(asked[3].values()):
                pending.drop()
            asked[2].close()
        raise


def prime(page: Page, tree: dict, asked: Sent, expr_of,
          depth_limit: int) -> Primed:
    """Round trips 2 to 4 (see the module's doc); ``tree``: the page's own frame tree, read with
    ``asked``. ``expr_of(frame)``: what to capture of a frame in the registry (None: of a frame new to it)."""
    out = Primed(page, fresh=expr_of(None))
    try:
        with phase("set up frames"):
            _prime(page, tree, asked, expr_of, depth_limit, out)
    except BaseException:
        out.drop()
        raise
    return out


def _prime(page: Page, tree: dict, asked: Sent, expr_of, depth_limit: int, out: Primed) -> None:
    targets, enabling, trees, sizes = asked
    try:
        finish_all(enabling)
        unseen = {t.id for t, size in zip(sizes, finish_all(list(sizes.values()))) if _unseen(size)}
        nodes = _forest(page, tree, targets, trees, out)
    finally:
        trees.close()
    nodes = {k: n for k, n in nodes.items() if n.depth <= depth_limit}
    frames = page.frames
    fresh = [n for n in nodes.values() if n.frame_id not in unseen and (n.known is None or (
        not frames.ready(n.known) and n.known.target is n.target and n.known.loader_id == n.info.get("loaderId", "")))]
    fresh_ids = {n.frame_id for n in fresh}
    children = [n for n in nodes.values() if n.parent in fresh_ids]
    _worlds_and_owners(fresh, children, nodes, out)
    _load_and_capture(page, fresh, children, nodes, expr_of, out)
    _tag_owners(children, nodes, out)


def _worlds_and_owners(fresh: list[_Node], children: list[_Node], nodes: dict[str, _Node], out: Primed) -> None:
    """Round trip 2: an isolated world in each fresh frame, each child frame's owner element."""
    worlds = _each(fresh, lambda n: n.target.start("Page.createIsolatedWorld", **new_world(n.frame_id)))
    owners = _each(children, lambda n: nodes[n.parent].target.start("DOM.getFrameOwner", frameId=n.frame_id))
    for n, res in _answers(worlds):
        n.world = res["executionContextId"]
    for n, res in _answers(owners):
        n.backend = res.get("backendNodeId")
        if n.backend:
            out.backends[n.frame_id] = n.backend


def _load_and_capture(page: Page, fresh: list[_Node], children: list[_Node], nodes: dict[str, _Node], expr_of,
                      out: Primed) -> None:
    """Round trip 3: the engine loaded, numbered and captured in each new world; owners resolved."""
    frames = page.frames
    loads = []
    for n in fresh:
        if n.world is None:
            continue
        if n.known is not None:
            n.numbered = frames.numbering(n.known)
        loads.append((n, _start(n.target, engine_load().at(n.world))))
        loads.append((n, _start(n.target, init_call(*n.numbered).at(n.world))))
        n.expr = expr_of(n.known)  # (None: a frame new to the page)
        n.capture = _start(n.target, capture_call(n.expr).at(n.world))
    resolving = _each([n for n in children if n.backend and nodes[n.parent].world is not None],
                      lambda n: nodes[n.parent].target.start("DOM.resolveNode", backendNodeId=n.backend,
                                                             executionContextId=nodes[n.parent].world,
                                                             objectGroup=OWNERS))
    failed = set()
    for n, res in _answers(loads, failed):
        if "exceptionDetails" in res:
            failed.add(n.frame_id)
    for n in fresh:
        n.loaded = n.world is not None and n.frame_id not in failed
        if n.loaded and n.known is not None:
            n.loaded = frames.adopt(n.known, n.world, n.known.loader_id)
        if n.capture is None:
            continue
        if not n.loaded:  # set up the usual way when stitched (which says why it fails)
            n.capture.drop()
        elif n.known is not None:
            out.kept.append((n.known, n.capture, n.expr))
            out.used.add(n.frame_id)
        else:
            out.captures[n.frame_id] = (n.capture, n.target, n.world, n.info.get("loaderId", ""))
    for n, res in _answers(resolving):
        n.owner = res.get("object", {}).get("objectId")


def _tag_owners(children: list[_Node], nodes: dict[str, _Node], out: Primed) -> None:
    """Round trip 4: each owner element told its frame (after its parent's capture, as always)."""
    held = {}
    for n in children:
        parent = nodes[n.parent]
        if n.owner and parent.loaded:
            held[id(parent.target)] = parent.target
            pending = _start(parent.target, tag_owner(n.owner, n.frame_id))
            if pending is not None:
                out.tags.setdefault(parent.frame_id, []).append((n.frame_id, pending))
    for target in held.values():
        with suppress(VerdexError):
            target.send("Runtime.releaseObjectGroup", objectGroup=OWNERS)


def _forest(page: Page, tree: dict, targets: list[Target], trees: Trees, out: Primed) -> dict[str, _Node]:
    """Every frame of the page from the frame trees: frame id -> node, with its depth (the main frame 0);
    frames whose parent is not among them (a session of a frame going away) are left out."""
    frames = page.frames
    nodes: dict[str, _Node] = {}

    def add(node: dict, target: Target, parent: str | None) -> None:
        f = node["frame"]
        known = frames.by_id.get(f["id"])
        nodes[f["id"]] = _Node(f["id"], target, f, parent, known if known is not None and not known.detached else None)
        for child in node.get("childFrames", ()):
            add(child, target, f["id"])

    out.trees[id(page.target)] = tree
    add(tree, page.target, None)
    for t in targets:
        try:
            own = trees.of(t)
        except (CDPError, CDPTimeout, ConnectionLost):
            continue
        out.trees[id(t)] = own
        out.roots[own["frame"]["id"]] = own["frame"]
        add(own, t, own["frame"].get("parentId"))
    kept: dict[str, _Node] = {}
    for fid, n in nodes.items():
        depth, at, seen = 0, n, set()
        while at.parent is not None and at.parent in nodes and at.frame_id not in seen:
            seen.add(at.frame_id)
            at, depth = nodes[at.parent], depth + 1
        if at.parent is None and at.frame_id == tree["frame"]["id"]:
            n.depth = depth
            kept[fid] = n
    return kept


def _each(nodes: list, send) -> list[tuple]:
    out = []
    for n in nodes:
        with suppress(CDPError, CDPTimeout, ConnectionLost):
            out.append((n, send(n)))
    return out


def _unseen(size) -> bool:
    """An out-of-process frame's layout metrics say it is drawn at no size."""
    view = size.get("cssLayoutViewport") if isinstance(size, dict) else None
    return bool(view) and not (view.get("clientWidth") and view.get("clientHeight"))


def _start(target: Target, call: Call) -> Pending | None:
    with suppress(CDPError, CDPTimeout, ConnectionLost):
        return bridge.start(target, call)
    return None


def _unused(pending: Pending, target: Target, world: int) -> None:
    """A capture nobody will take: let go unread, and the refs it issued forgotten (see Primed.drop)."""
    pending.drop()
    with suppress(VerdexError):
        bridge.post(target, invocation("bridge", "reset", False).at(world))


def _answers(started: list[tuple[_Node, Pending | None]], failed: set | None = None):
    """(node, answer) for each call answered; a call that failed marks its node's frame in ``failed``."""
    pending = [p for _n, p in started if p is not None]
    answers = iter(finish_all(pending))
    for n, p in started:
        res = None if p is None else next(answers)
        if p is None or isinstance(res, VerdexError):
            if failed is not None:
                failed.add(n.frame_id)
            continue
        yield n, res
