"""Capture a page: every frame's capture sent before any answer is waited for (the frames of the last
capture go out with the frame tree, in one round trip), the frames stitched into one tree -- of their
trees, or of the texts their pages rendered (views.py). Reading an answer: answers.py."""

from __future__ import annotations

import time

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, JSError
from ..base.timing import phase
from ..browser.frames import Frame, find_frame
from ..browser.page import Page
from . import cache, first as _first
from .answers import Answered, parse_answer, splice, unused
from .model import FrameInfo, collect_owners
from .owners import OwnerLookup as _OwnerLookup
from .views import FrameView, ViewMismatch

MAX_FRAME_DEPTH = 12
MAX_TREE_DEPTH = 200  # MAX_TREE in deep.js (module Deep of the in-page engine)
NOT_AVAILABLE = "frame content is not available (not loaded yet or blocked)"
UNCAPTURED = "frame could not be captured: "  # and why


def capture_tree(page: Page, reuse: dict[int, dict] | None = None, facts: dict[int, dict] | None = None,
                 start: Frame | None = None, follow: bool = True,
                 within: tuple[Frame, int] | None = None,
                 prior: dict[int, dict] | None = None, check: bool = False,
                 ahead: dict[int, tuple] | None = None, view: int = 0,
                 marked: set[int] | None = None) -> tuple[dict | FrameView, list[FrameInfo], list[str]]:
    """(stitched root, frames in index order, notes). ``reuse``: frame index -> facts of an earlier capture
    of frames known unchanged (cache.py), stitched in without a capture. ``facts`` (filled in): per captured
    frame, what the bridge said, its tree under "root". ``start``: from this frame, not the main frame;
    ``follow=False``: frame owners show their index, no content; ``within`` (frame, ref number): only that
    element's subtree. ``prior``: facts of the last capture: a changed frame whose bridge holds its tree
    answers with patches (incremental.js). ``check``: every frame whole, change tracking left as it was.
    ``ahead``: captures the settle after an action took (``cache.Ahead.frames``), used where they are what
    this capture asks. ``view`` (cache.view_of): 0 the frames' trees; 1 or 2 their texts (views.FrameView).
    ``marked`` (filled in): the first frame's page marks the refs of its text shown, in the same call; its
    index is added when it did."""
    facts = {} if facts is None else facts
    expr = CHECK if check else SNAP
    if within is not None or check:
        view = 0
    if within is not None:
        start, expr, reuse, prior = within[0], ("snapshot", int(within[1])), None, None
    ctx = _Ctx(page, facts, reuse or {}, follow, prior or {}, CHECK if check else SNAP, view)
    if marked is not None and within is None and not check:
        ctx.marked, ctx.marks = marked, start.index if start is not None else 0
    ctx.use_ahead(ahead or {})
    try:
        _begin(ctx, start, expr, whole_page=start is None and within is None and follow)
        root = _capture_frame(ctx, start or page.frames.main, depth=0, expr=expr)
    except BaseException:
        ctx.end(wait=False)
        raise
    finally:
        page.frames.forget_prepared()
    ctx.end()
    if start is None and within is None and follow:
        page.frames.captured = [f.index for f in ctx.seen]
    frames = []
    for f in ctx.seen:
        data = facts.get(f.index, {})
        tiers = data.get("tiers")
        frames.append(FrameInfo(f.index, f.url, f.name, page.frames.cross_origin(f), f.parent,
                                gone=data.get("gone") or [], tiers=tuple(tiers) if tiers else None))
    frames.sort(key=lambda f: f.index)
    return root, frames, ctx.notes


SNAP = cache.SNAP  # a whole frame (its tree or its text: see _Ctx.expr)
CHECK = ("check",)


class _Ctx:
    """What one capture carries from frame to frame."""

    def __init__(self, page: Page, facts: dict[int, dict], reuse: dict[int, dict], follow: bool,
                 prior: dict[int, dict], whole: tuple, view: int = 0):
        self.page, self.facts = page, facts
        self.seen: list[Frame] = []  # the frames stitched in
        self.notes: list[str] = []
        self.reuse, self.follow, self.prior, self.whole, self.view = reuse, follow, prior, whole, view
        self.tree: dict | None = {}  # the main target's frame tree, read with the first captures
        self.took_ahead = False  # captures taken by the settle after an action (use_ahead)
        self.pending: dict[int, tuple] = {}  # frame index -> (the capture asked (bridge.Asked), what it asked for)
        self.primed = _first.Primed(page)  # what the first capture of a document set up (first.py)
        self.marked: set[int] = set()  # frames whose page marked the refs of its text shown
        self.marks: int | None = None  # the frame asked to (capture_tree's ``marked``)

    def expr(self, fr: Frame | None, base: tuple | None = None) -> tuple:
        """What to evaluate for ``fr`` (None: a frame new to the page): a whole capture, or changes to the
        last one (``prior``)."""
        expr = base or self.whole
        if expr != SNAP:
            return expr  # one element's subtree, or a check
        return cache.capture_expr(self.view, None if fr is None else fr.index,
                                  None if fr is None else self.prior.get(fr.index)) + self.mark(fr)

    def mark(self, fr: Frame | None) -> tuple:
        """The arguments asking ``fr``'s page to mark the refs of its text shown (bridge.js ``snapshot``)."""
        return (0, 1) if self.view and fr is not None and fr.index == self.marks else ()

    def read(self, fr: Frame, raw: str) -> dict:
        data = parse_answer(raw)
        if data.pop("shown", 0):
            self.marked.add(fr.index)
        return data

    def add(self, fr: Frame, facts: dict, root):
        """``fr`` stitched in, its capture's ``facts`` (its tree or text under "root") and notes kept."""
        self.seen.append(fr)
        self.facts[fr.index] = facts
        facts["root"] = root
        _frame_notes(self.notes, fr, facts)
        return root

    def use_ahead(self, ahead: dict[int, tuple]) -> None:
        """Captures taken ahead, as if sent now (their answers are here already)."""
        self.took_ahead = bool(ahead)
        for index, (loader, what, _dirty, answer) in ahead.items():
            fr = self.page.frames.get(index)
            if answer is None or fr is None or fr.detached or fr.loader_id != loader or index in self.reuse:
                continue
            self.pending[index] = (self.page.bridge.capture(fr, tuple(what), sent=(Answered(answer), loader)), tuple(what))

    def start(self, fr: Frame, base: tuple | None = None) -> None:
        """Send ``fr``'s capture now (its answer is taken when the frame is stitched in), so the
        captures of many frames share one round trip. Frames without a world yet are left out."""
        if fr.index in self.pending or fr.index in self.reuse or fr.frame_id in self.primed.captures:
            return
        expr = self.expr(fr, base)
        asked = self.page.bridge.capture(fr, expr, later=True)
        if asked.sent is not None:
            self.pending[fr.index] = (asked, expr)

    def take(self, fr: Frame, expr: tuple) -> str:
        asked, what = self.pending.pop(fr.index, None) or self.primed.take(fr, expr) or (None, None)
        if asked is not None and what == expr:
            return asked.value()
        if asked is not None:
            asked.drop()
        self.primed.used.discard(fr.frame_id)  # another capture: its owners' slots are its own
        return self.page.bridge.capture(fr, expr)

    def end(self, wait: bool = True) -> None:
        """Captures sent ahead for frames the page no longer shows: their answers are not used. The
        refs their bridges let go of meanwhile are handed back, for the next capture to report."""
        for index, (asked, _expr) in self.pending.items():
            fr = self.page.frames.get(index)
            if not wait or fr is None:
                asked.drop()
                continue
            unused(self.page, fr, lambda: asked.sent[0].result()["result"]["value"])
        self.pending.clear()
        self.primed.drop()


def _begin(ctx: _Ctx, start: Frame | None, expr: tuple, whole_page: bool) -> None:
    """One round trip to begin with: the main target's frame tree and, sent with it, the capture of
    the first frame and (a whole-page capture) of every frame the last one stitched in. After the
    settle of an action took the captures ahead (the cache checked that no frame came or went since
    the last capture), the frames the browser's events keep track of are current: no tree is read."""
    frames = ctx.page.frames
    if ctx.took_ahead:
        ctx.page.target.drain_events()
        tree_call = None
    else:
        tree_call = ctx.page.target.start("Page.getFrameTree")
    first = start or (frames.by_id.get(frames.main_id) if frames.main_id else None)
    asked = None
    if tree_call is not None and whole_page and expr == SNAP and (first is None or not frames.ready(first)):
        asked = _first.ask(ctx.page)  # a new document: every frame set up at once (first.py)
    if first is not None:
        ctx.start(first, expr)
        if whole_page:
            for index in frames.captured:
                fr = frames.get(index)
                if fr is not None and fr is not first:
                    ctx.start(fr)
    if tree_call is not None:
        ctx.tree = _first.tree_of(tree_call, asked)
        frames.refresh(ctx.tree)
    if asked is not None:
        ctx.primed = _first.prime(ctx.page, ctx.tree, asked, lambda fr: ctx.expr(fr, expr), MAX_FRAME_DEPTH)
        for fr, pending, what in ctx.primed.kept:  # frames in the registry: their captures as usual
            ctx.pending[fr.index] = (ctx.page.bridge.capture(fr, what, sent=(pending, fr.loader_id)), what)
    for index, (asked, _e) in list(ctx.pending.items()):  # a document changed meanwhile: not that one
        fr = frames.get(index)
        if fr is None or fr.detached or fr.loader_id != asked.loader:
            asked.drop()
            del ctx.pending[index]


def _capture_frame(ctx: _Ctx, fr: Frame, depth: int, expr: tuple | None = None) -> dict:
    page = ctx.page
    if fr.index in ctx.reuse:  # unchanged: its cached tree; its tombstones were recorded when captured
        old = ctx.reuse[fr.index]
        return _frame_tree(ctx, fr, depth, dict(old, gone=[], patched=False), old["root"])
    old = ctx.prior.get(fr.index)
    expr = ctx.expr(fr, expr)
    with phase(f"capture f{fr.index}"):
        data = ctx.read(fr, ctx.take(fr, expr))
    if "view" in data:
        try:
            return _frame_view(ctx, fr, depth, data, old)
        except ViewMismatch:  # (a bug, or an answer for another render): the frame captured anew
            page.frames.note_issued(fr, data["counter"])
            if data.get("gone"):
                page.bridge.carry(fr, data["gone"])  # the refs that answer let go of: the next one reports them
            data = ctx.read(fr, page.bridge.capture(fr, ("snapshot", 0, 0, ctx.view, fr.index) + ctx.mark(fr)))
            return _frame_view(ctx, fr, depth, data, None)
    if "patch" in data:  # the frame's bridge patched the tree of the last capture
        with phase(f"patch f{fr.index}"):
            root = splice(old["root"], data.pop("patch"), data.pop("title"))
        page.frames.note_issued(fr, data["counter"], data.get("url"))
        return _frame_tree(ctx, fr, depth, dict(old, **data, patched=True), root)
    page.frames.note_issued(fr, data["counter"], data.get("url"))
    root = ctx.add(fr, data, data.pop("root"))  # "gone": refs the page's registry let go of (tombstones)
    root["fi"] = fr.index
    owners = []
    if data.get("owners", 1):  # the bridge says how many frame owners it found
        collect_owners(root, owners)
    if owners:
        _stitch(ctx, fr, owners, depth)
    return root


def _frame_view(ctx: _Ctx, fr: Frame, depth: int, data: dict, old: dict | None) -> FrameView:
    """A frame that answered its text (text.js): whole, or the lines that changed since the render
    held in ``old`` (its last capture's facts). After patches (``title`` answered) its frame owners are
    the last capture's; otherwise they are found again."""
    v = data.pop("view")
    page = ctx.page
    if "diff" in v:
        held = old.get("root") if old is not None else None
        if not isinstance(held, FrameView):
            raise ViewMismatch(f"frame f{fr.index} answered changes to a render not held")
        with phase(f"patch f{fr.index}" if "title" in data else f"changed lines f{fr.index}"):
            view = held.follow(v, data["cap"], page.prefix)
    else:
        view = FrameView.whole(v, fr.index, data["cap"], page.prefix)
    page.frames.note_issued(fr, data["counter"], data.get("url"))
    if "title" in data and old is not None and isinstance(old.get("root"), FrameView):
        known = {o["fo"]: o for o in old["root"].owners}  # patches never touch a frame owner
        for o in view.owners:
            was = known.get(o["fo"])
            if was is not None and "fi" in was:
                o["fi"] = was["fi"]
        data.pop("title")
        return _frame_tree(ctx, fr, depth, dict(old, **data, patched=True), view)
    ctx.add(fr, data, view)
    if view.owners:
        _stitch(ctx, fr, sorted(view.owners, key=lambda o: o["fo"]), depth)
    return view


def _frame_tree(ctx: _Ctx, fr: Frame, depth: int, facts: dict, root: dict) -> dict:
    """A frame tree known without a whole capture (unchanged, or patched): its child frames are
    stitched in again (each reused, patched or captured, whichever it needs; captures all sent first)."""
    ctx.add(fr, facts, root)
    owners: list = []
    if isinstance(root, FrameView):
        owners = sorted(root.owners, key=lambda o: o["fo"])
    elif facts.get("owners", 1):
        collect_owners(root, owners)
    plan = []
    for node in owners:
        child = ctx.page.frames.get(node.get("fi", -1))
        node.pop("sub", None)
        if child is None or child.detached:
            node["err"] = NOT_AVAILABLE
            continue
        node.pop("err", None)
        if ctx.follow:
            plan.append((node, child))
            ctx.start(child)
    for node, child in plan:
        try:
            node["sub"] = _capture_frame(ctx, child, depth + 1)
        except (CDPError, CDPTimeout, JSError, ConnectionLost) as exc:
            node["err"] = UNCAPTURED + _short(exc)
    return root


def _stitch(ctx: _Ctx, fr: Frame, owners: list[dict], depth: int) -> None:
    """Find and capture the frame behind each frame owner of ``fr``'s tree: an owner the bridge remembers
    (``fid``) costs no lookup, also when its frame was not there; the others are looked up through the DOM
    all at once, and remembered. The child frames' captures are all sent before any answer is waited for;
    frames new to the registry get their indices in document order, depth first."""
    page = ctx.page
    lookup = _OwnerLookup(page, fr, ctx.tree if fr.target is page.target else ctx.primed.trees.get(id(fr.target)))
    lookup.trees.update(ctx.primed.roots)  # the frames and owners first.py found
    lookup.backends.update(ctx.primed.backends)
    plan: list[tuple[dict, object, bool]] = []  # (owner node, frame / frame id / None / error, remembered)
    missing = []
    for node in owners:
        fid = node.pop("fid", "") or ctx.primed.fid(fr, node["fo"])
        known = page.frames.by_id.get(fid) if fid else None
        if known is not None and not (known.detached or (known.oopif and not known.target.alive)):
            plan.append((node, known, True))
        elif known is None and fid:  # an owner whose frame was not there when looked up: no DOM lookup
            plan.append((node, fid, False))
        else:  # never looked up, or its frame went away or moved process
            missing.append(node["fo"])
            plan.append((node, None, False))
    found = lookup.find_ids(missing)
    plan = [(node, found.get(node["fo"]) if what is None else what, remembered) for node, what, remembered in plan]
    follow = ctx.follow and depth + 1 <= MAX_FRAME_DEPTH
    if follow:
        _send_ahead(ctx, lookup, plan)
    deadline = time.monotonic() + min(page.timeout, 2.0)  # one wait for frames still attaching
    for node, what, remembered in plan:
        try:
            try:
                if isinstance(what, Exception):
                    raise what
                child = what
                if isinstance(what, str):  # a frame id: its frame (the owner's fid: no waiting)
                    wait = 0.0 if node["fo"] not in missing else max(0.0, deadline - time.monotonic())
                    child = lookup.frame(what, wait=wait)
                if child is None:
                    node["err"] = NOT_AVAILABLE
                    continue
                node["fi"] = child.index
                if not ctx.follow:
                    continue
                if not follow:
                    node["err"] = "frame nesting is too deep to capture"
                    continue
                node["sub"] = _capture_frame(ctx, child, depth + 1)
            except (CDPError, JSError, ConnectionLost):
                if not remembered:
                    raise
                child = lookup.find(node["fo"])  # the remembered frame moved (another process): look again
                if child is None:
                    node.pop("fi", None)
                    node["err"] = NOT_AVAILABLE
                    continue
                node["fi"] = child.index
                node["sub"] = _capture_frame(ctx, child, depth + 1)
        except (CDPError, CDPTimeout, JSError, ConnectionLost) as exc:
            node["err"] = UNCAPTURED + _short(exc)
    lookup.done()


def _send_ahead(ctx: _Ctx, lookup: _OwnerLookup, plan: list) -> None:
    """Before the child frames are stitched in one by one: the captures of those ready sent at once;
    those new (or with a new document) made ready at once (sessions, isolated worlds: one round trip)."""
    frames = ctx.page.frames
    new = []
    for _node, what, _r in plan:
        child = what if isinstance(what, Frame) else frames.by_id.get(what) if isinstance(what, str) else None
        if child is not None and not child.detached:
            if not frames.ready(child) and child.index not in ctx.reuse:
                new.append((child.frame_id, child.target, child.oopif))
            continue
        if not isinstance(what, str):
            continue
        if what in ctx.primed.captures:
            continue  # set up already (first.py)
        if find_frame(lookup.local(), what) is not None:
            new.append((what, lookup.fr.target, False))
        else:
            target = ctx.page.target.child(what)
            if target is not None:
                new.append((what, target, True))
    if new:
        lookup.trees.update(frames.prepare(new))
    for _node, what, _r in plan:
        child = what if isinstance(what, Frame) else frames.by_id.get(what) if isinstance(what, str) else None
        if child is not None and not child.detached:
            ctx.start(child)


def _frame_notes(notes: list[str], fr: Frame, facts: dict) -> None:
    """What a frame's capture could not show as it is: elements nested too deep (listed flat), and
    closed shadow roots the protocol could not resolve (their hosts named)."""
    where = "" if fr.index == 0 else f" in frame f{fr.index}"
    if facts.get("flat"):
        notes.append(f"{facts['flat']} elements{where} are nested deeper than {MAX_TREE_DEPTH} levels: they are "
                     f"listed flat under their ancestor at that level.")
    if facts.get("unread"):
        notes.append(f"The content of closed shadow roots{where} could not be read, so it is not shown: "
                     f"{', '.join(facts['unread'])}.")


def _short(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) <= 120 else text[:117] + "..."
