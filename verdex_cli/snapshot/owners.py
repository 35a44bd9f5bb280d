"""Frame owners to frames: which frame an <iframe>/<frame> element of a captured frame shows (its owner
object in the frame's world, DOM.describeNode for its frame id, then the frame trees or the frame's own
session), looked up for many owners at once."""

from __future__ import annotations

from contextlib import suppress

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, JSError, VerdexError
from ..base.timing import phase
from ..browser.frames import Frame, find_frame, frame_url
from ..browser.page import Page


class OwnerLookup:
    """Owner element -> frame, looked up only when needed and for all owners at once; the frame ids found
    (also of frames not there) are told to the bridge (tagOwners) at the end, without waiting."""

    def __init__(self, page: Page, fr: Frame, local_tree: dict | None = None):
        self.page, self.fr = page, fr
        self.local_tree = local_tree or None
        self.found: dict[int, str] = {}
        self.looked = False
        self.trees: dict[str, dict] = {}  # frame id -> its frame dict, read ahead (FrameRegistry.prepare)
        self.backends: dict[str, int] = {}  # frame id -> its owner element's backend id, when looked up

    def local(self) -> dict:
        if self.local_tree is None:
            self.local_tree = self.fr.target.call("Page.getFrameTree")["frameTree"]  # frames this target hosts
        return self.local_tree

    def frame(self, frame_id: str, wait: float | None = None) -> Frame | None:
        child = frame_for(self.page, self.fr, frame_id, self.local(), wait, self.trees.get(frame_id))
        if child is not None and frame_id in self.backends:  # an action on it needs no owner lookup
            self.page.frames.remember_owner(child, self.backends[frame_id])
        return child

    def find(self, slot: int) -> Frame | None:
        self.looked = True
        with phase(f"stitch f{self.fr.index}"):
            frame_id = owner_frame_id(self.page, self.fr, slot)
            if frame_id is None:
                return None
            self.found[slot] = frame_id
            return self.frame(frame_id)

    def find_ids(self, slots: list[int]) -> dict[int, object]:
        """slot -> the frame id of that owner, None (it has none), or the error that stopped the
        lookup: two round trips for all (owner objects, then their nodes), one by one if a batch fails."""
        if not slots:
            return {}
        self.looked = True
        target = self.fr.target
        try:
            with phase(f"stitch f{self.fr.index}"):
                world = self.page.frames.world(self.fr)
                objs = target.call_many(self.page.bridge.owner_calls(world, slots))
                held = [(k, o["result"]["objectId"]) for k, o in zip(slots, objs) if "objectId" in o.get("result", {})]
                nodes = target.call_many([("DOM.describeNode", {"objectId": oid}) for _, oid in held]) if held else []
        except (CDPError, CDPTimeout, JSError, ConnectionLost, KeyError):
            return {k: self._one(k) for k in slots}
        out: dict[int, object] = {k: None for k in slots}
        for (k, _), desc in zip(held, nodes):
            frame_id = desc["node"].get("frameId")
            if frame_id:  # remembered also when its frame is not there: no lookup next time
                out[k] = self.found[k] = frame_id
                if desc["node"].get("backendNodeId"):
                    self.backends[frame_id] = desc["node"]["backendNodeId"]
        return out

    def _one(self, slot: int) -> object:
        try:
            with phase(f"stitch f{self.fr.index}"):
                frame_id = owner_frame_id(self.page, self.fr, slot)
            if frame_id:
                self.found[slot] = frame_id
            return frame_id
        except (CDPError, CDPTimeout, JSError, ConnectionLost) as exc:
            return exc

    def done(self) -> None:
        if not self.looked:
            return
        with suppress(VerdexError):
            self.fr.target.send("Runtime.releaseObjectGroup", objectGroup="verdex-owners")
            if self.found and self.fr.world_id is not None:
                self.page.bridge.tag_owners(self.fr, {str(k): v for k, v in self.found.items()})


def owner_frame_id(page: Page, parent: Frame, slot: int, via: str = "owner") -> str | None:
    """The frame id of owner ``slot`` (found ``via`` the bridge's owners, a search's or a ref
    number: ``Bridge.owner``), None when it has none."""
    obj = page.bridge.owner(parent, slot, via)
    if "objectId" not in obj:
        return None
    node = parent.target.call("DOM.describeNode", objectId=obj["objectId"])["node"]
    return node.get("frameId") or None


def frame_for(page: Page, parent: Frame, frame_id: str, local_tree: dict, wait: float | None = None,
              own: dict | None = None) -> Frame | None:
    """The frame ``frame_id`` inside ``parent``: in the parent's process (``local_tree``) or out of
    process (its own session; ``wait``: how long to wait for it to attach; ``own``: its frame dict from
    that session's tree, when read already). None when neither."""
    found = find_frame(local_tree, frame_id)
    if found is not None:
        child = page.frames.ensure(frame_id, parent.target, parent.index, oopif=False)
    else:
        target = page.frames.oopif_target(frame_id, wait)
        if target is None:
            return None
        child = page.frames.ensure(frame_id, target, parent.index, oopif=True)
        found = own or target.call("Page.getFrameTree")["frameTree"]["frame"]
    child.url = frame_url(found)
    child.name = found.get("name", "")
    child.loader_id = found.get("loaderId", "")
    return child
