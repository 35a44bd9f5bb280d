"""Capture a page: one bridge round trip per frame, frames stitched into one tree."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from ..browser.frames import Frame, find_frame, frame_url
from ..browser.page import Page
from ..errors import CDPError, CDPTimeout, ConnectionLost, JSError, VerdexError
from ..timing import phase
from .model import FrameInfo

HERE = Path(__file__).resolve().parent
MAX_FRAME_DEPTH = 12
MAX_TREE_DEPTH = 200  # Deep.MAX_TREE in deep.js


ARIA_PARTS = ("tables.js", "tree.js", "roles.js", "name_sources.js", "name_compute.js", "embedded.js", "states.js")


@lru_cache(maxsize=1)
def aria_source() -> str:
    """The role/name/state engine: its parts share one closure, exported as `Aria`."""
    body = "".join((HERE / "aria" / part).read_text(encoding="utf-8") for part in ARIA_PARTS)
    return "const Aria = (() => {\n  'use strict';\n" + body + "})();\n"


@lru_cache(maxsize=1)
def bridge_source() -> str:
    bridge = "".join((HERE / part).read_text(encoding="utf-8")
                     for part in ("act.js", "bridge.js", "fields.js", "targets.js", "structure.js"))
    registry = "".join((HERE / part).read_text(encoding="utf-8")
                       for part in ("registry.js", "runs.js", "deep.js", "sheets.js", "observer.js", "incremental.js"))
    # One scope for all; idempotent, because Chrome hands back the same
    # isolated world when one with this name already exists in the document.
    return ("if (!globalThis.__verdexBridge) { (() => {\n" + aria_source() + "\n" + registry + "\n" + bridge
            + "\nglobalThis.__verdexBridge = __verdexBridge;\n})(); }\n")


def capture_tree(page: Page, reuse: dict[int, dict] | None = None, facts: dict[int, dict] | None = None,
                 start: Frame | None = None, follow: bool = True,
                 within: tuple[Frame, int] | None = None,
                 prior: dict[int, dict] | None = None, check: bool = False) -> tuple[dict, list[FrameInfo], list[str]]:
    """Return (stitched root, frames in index order, notes).

    ``reuse``: frame index -> that frame's facts from an earlier capture (its tree under "root"), for
    frames known unchanged (see snapshot/cache.py); their trees are stitched in without a capture.
    ``facts`` (filled in): per captured frame, what the bridge said, its tree under "root".
    ``start``: capture from this frame instead of the main frame; ``follow=False``: frame owners show
    their frame index but no content. ``within`` (frame, ref number): only that element's subtree.
    ``prior``: frame index -> facts of the last capture (all frames); a changed frame whose bridge
    still holds that capture's tree answers with patches to it (incremental.js), spliced in here.
    ``check``: capture every frame whole, leaving the bridges' change tracking as it was."""
    page.frames.refresh()
    notes: list[str] = []
    seen: list[Frame] = []
    facts = {} if facts is None else facts
    expr = CHECK if check else SNAP
    if within is not None:
        start, expr, reuse, prior = within[0], f"__verdexBridge.snapshot({within[1]})", None, None
    ctx = _Ctx(page, seen, notes, facts, reuse or {}, follow, prior or {}, CHECK if check else SNAP)
    root = _capture_frame(ctx, start or page.frames.main, depth=0, expr=expr)
    frames = []
    for f in seen:
        data = facts.get(f.index, {})
        tiers = data.get("tiers")
        frames.append(FrameInfo(f.index, f.url, f.name, page.frames.cross_origin(f), f.parent,
                                gone=data.get("gone") or [], tiers=tuple(tiers) if tiers else None))
    frames.sort(key=lambda f: f.index)
    return root, frames, notes


SNAP = "__verdexBridge.snapshot()"
CHECK = "__verdexBridge.check()"


class _Ctx:
    """What one capture carries from frame to frame."""

    def __init__(self, page: Page, seen: list[Frame], notes: list[str], facts: dict[int, dict],
                 reuse: dict[int, dict], follow: bool, prior: dict[int, dict], whole: str):
        self.page, self.seen, self.notes, self.facts = page, seen, notes, facts
        self.reuse, self.follow, self.prior, self.whole = reuse, follow, prior, whole


def _capture_frame(ctx: _Ctx, fr: Frame, depth: int, expr: str | None = None) -> dict:
    page = ctx.page
    expr = expr or ctx.whole
    if fr.index in ctx.reuse:  # unchanged: its cached tree; its tombstones were recorded when captured
        old = ctx.reuse[fr.index]
        return _frame_tree(ctx, fr, depth, dict(old, gone=[], patched=False), old["root"])
    old = ctx.prior.get(fr.index)
    if old is not None and old.get("cap") and expr == SNAP:
        expr = f"__verdexBridge.snapshot(0, {int(old['cap'])})"
    with phase(f"capture f{fr.index}"):
        res = page.frames.eval(fr, expr)
        data = json.loads(res["value"])
    if "patch" in data:  # the frame's bridge patched the tree of the last capture
        with phase(f"patch f{fr.index}"):
            root = splice(old["root"], data.pop("patch"), data.pop("title"))
        page.frames.note_issued(fr, data["counter"], data.get("url"))
        return _frame_tree(ctx, fr, depth, dict(old, **data, patched=True), root)
    ctx.seen.append(fr)
    ctx.facts[fr.index] = data  # "gone": refs the page's registry let go of (tombstones); "tiers": ref counts
    if data.get("flat"):
        _flat_note(ctx.notes, fr, data["flat"])
    page.frames.note_issued(fr, data["counter"], data.get("url"))
    root = data.pop("root")
    data["root"] = root
    root["fi"] = fr.index
    owners = []
    if data.get("owners", 1):  # the bridge says how many frame owners it found
        _collect_owners(root, owners)
    if owners:
        _stitch(ctx, fr, owners, depth)
    return root


def splice(root: dict, patches: list[dict], title: str) -> dict:
    """The frame tree ``root`` with each patch's node put at its path (child indices from the root).
    Copy on write: the nodes on each path are copied, the old tree stays as it was (an earlier
    snapshot holds it), and every untouched subtree is shared."""
    if root.get("n", "") != title:
        root = dict(root, n=title)
    for p in patches:
        path = p["p"]
        root = dict(root, c=list(root["c"]))
        parent = root
        for i in path[:-1]:
            child = parent["c"][i]
            child = dict(child, c=list(child["c"]))
            parent["c"][i] = child
            parent = child
        parent["c"][path[-1]] = p["n"]
    return root


def _frame_tree(ctx: _Ctx, fr: Frame, depth: int, facts: dict, root: dict) -> dict:
    """A frame tree known without a whole capture (unchanged, or patched): its child frames are
    stitched in again (each reused, patched or captured, whichever it needs)."""
    ctx.seen.append(fr)
    ctx.facts[fr.index] = facts
    facts["root"] = root
    if facts.get("flat"):
        _flat_note(ctx.notes, fr, facts["flat"])
    owners: list = []
    if facts.get("owners", 1):
        _collect_owners(root, owners)
    for node in owners:
        child = ctx.page.frames.get(node.get("fi", -1))
        node.pop("sub", None)
        if child is None or child.detached:
            node["err"] = "frame content is not available (not loaded yet or blocked)"
            continue
        node.pop("err", None)
        if not ctx.follow:
            continue
        try:
            node["sub"] = _capture_frame(ctx, child, depth + 1)
        except (CDPError, CDPTimeout, JSError, ConnectionLost) as exc:
            node["err"] = f"frame could not be captured: {_short(exc)}"
    return root


def _stitch(ctx: _Ctx, fr: Frame, owners: list[dict], depth: int) -> None:
    """Find and capture the frame behind each frame owner of ``fr``'s tree. An owner the bridge
    remembers (``fid``: the frame id found for that element before, same browsing context) costs no
    lookup; the others are looked up through the DOM and remembered for next time."""
    page = ctx.page
    lookup = _OwnerLookup(page, fr)
    for node in owners:
        known = page.frames.by_id.get(node.pop("fid", ""))
        if known is not None and (known.detached or (known.oopif and not known.target.alive)):
            known = None
        try:
            child = known or lookup.find(node["fo"])
            if child is None:
                node["err"] = "frame content is not available (not loaded yet or blocked)"
                continue
            node["fi"] = child.index
            if not ctx.follow:
                continue
            if depth + 1 > MAX_FRAME_DEPTH:
                node["err"] = "frame nesting is too deep to capture"
                continue
            try:
                node["sub"] = _capture_frame(ctx, child, depth + 1)
            except (CDPError, JSError, ConnectionLost):
                if known is None:
                    raise
                child = lookup.find(node["fo"])  # the remembered frame moved (another process): look again
                if child is None:
                    node["err"] = "frame content is not available (not loaded yet or blocked)"
                    continue
                node["fi"] = child.index
                node["sub"] = _capture_frame(ctx, child, depth + 1)
        except (CDPError, CDPTimeout, JSError, ConnectionLost) as exc:
            node["err"] = f"frame could not be captured: {_short(exc)}"
    lookup.done()


class _OwnerLookup:
    """Owner element -> frame through the DOM (frame tree, owner object, DOM.describeNode), made
    only when needed; what it finds is told to the bridge (tagOwners) in one call at the end."""

    def __init__(self, page: Page, fr: Frame):
        self.page, self.fr = page, fr
        self.local_tree: dict | None = None
        self.found: dict[int, str] = {}

    def find(self, slot: int) -> Frame | None:
        if self.local_tree is None:
            self.local_tree = self.fr.target.call("Page.getFrameTree")["frameTree"]  # frames this target hosts
        with phase(f"stitch f{self.fr.index}"):
            child = _child_frame(self.page, self.fr, slot, self.local_tree)
        if child is not None:
            self.found[slot] = child.frame_id
        return child

    def done(self) -> None:
        if self.local_tree is None:
            return
        try:
            self.fr.target.call("Runtime.releaseObjectGroup", objectGroup="verdex-owners")
            if self.found:
                self.page.frames.eval(self.fr, f"__verdexBridge.tagOwners({json.dumps(self.found)})")
        except VerdexError:
            pass


def _flat_note(notes: list[str], fr: Frame, flat: int) -> None:
    where = "" if fr.index == 0 else f" in frame f{fr.index}"
    notes.append(f"{flat} elements{where} are nested deeper than {MAX_TREE_DEPTH} levels: they are "
                 f"listed flat under their ancestor at that level.")


def _collect_owners(node: dict, out: list) -> None:
    stack = [node]
    while stack:
        n = stack.pop()
        if "fo" in n:
            out.append(n)
        kids = n.get("c")
        if kids:
            stack.extend(k for k in reversed(kids) if not isinstance(k, str))
    out.sort(key=lambda n: n["fo"])


def _child_frame(page: Page, parent: Frame, slot: int, local_tree: dict,
                 owner: str = "__verdexBridge.owner") -> Frame | None:
    ctx = page.frames.world(parent)
    obj = parent.target.call("Runtime.evaluate", expression=f"{owner}({slot})", contextId=ctx,
                             objectGroup="verdex-owners")["result"]
    if "objectId" not in obj:
        return None
    node = parent.target.call("DOM.describeNode", objectId=obj["objectId"])["node"]
    frame_id = node.get("frameId")
    if not frame_id:
        return None
    found = find_frame(local_tree, frame_id)
    if found is not None:
        child = page.frames.ensure(frame_id, parent.target, parent.index, oopif=False)
    else:
        target = page.frames.oopif_target(frame_id)
        if target is None:
            return None
        child = page.frames.ensure(frame_id, target, parent.index, oopif=True)
        found = target.call("Page.getFrameTree")["frameTree"]["frame"]
    child.url = frame_url(found)
    child.name = found.get("name", "")
    child.loader_id = found.get("loaderId", "")
    return child


def _short(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) <= 120 else text[:117] + "..."
