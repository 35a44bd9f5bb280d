"""Closed shadow roots, resolved into verdex's isolated world so snapshots walk them and actions reach
what is inside.

A closed root is hidden from every script world (``el.shadowRoot`` is null), but not from the protocol:
``DOM.describeNode`` lists an element's shadow roots, closed ones included, and ``DOM.resolveNode``
makes a root an object of the world we name. Which elements to ask about: the main world's watcher
(timer_watch.py), there before the page's scripts, hands each host over to the engine as its closed
root is attached (also a declarative root its custom element takes over); the engine answers a capture
with the hosts it wants first (``WANT_CLOSED``), and the capture is taken again once they are held.
Nothing is asked on a page without closed roots: a capture costs one event in the page more. The
watcher is late only to documents loaded before verdex came (a tab verdex attached to: a frame that
starts later waits for it, connection.py). Such a top document has its roots looked for once in the
whole document (``pierce``); such a frame's only when it has custom elements (a look costs each frame's
first capture several round trips in turn: 49 instead of 9 for ten frames), so there a closed root on a
plain element is not shown. A host whose root cannot be resolved is named in a note by the capture.
The calls' parameters come from the bridge client (bridge.py)."""

from __future__ import annotations

from ..base.errors import VerdexError

ROUNDS = 4  # resolving rounds for one capture (roots inside closed roots found in the round after)
GROUP = "verdex-closed"


def adopt(bridge, fr, want: dict) -> None:
    """Resolve the closed roots the engine of ``fr``'s world wants (``want``: how many hosts, whether
    to look through the whole document) and hand them to it; a root that cannot be resolved is left
    out (the engine names its host)."""
    target, ctx = fr.target, fr.world_id
    try:
        objects = bridge.closed_objects(fr, int(want.get("closed", 0)), bool(want.get("scan")), GROUP)
        described = [target.start("DOM.describeNode", objectId=o["objectId"], depth=-1, pierce=True)
                     for o in objects if o and o.get("objectId")]
        ids: list[int] = []
        for pending in described:
            try:
                _closed_in(pending.result()["node"], ids)
            except (VerdexError, KeyError):
                continue
        resolved = [target.start("DOM.resolveNode", backendNodeId=b, executionContextId=ctx, objectGroup=GROUP)
                    for b in dict.fromkeys(ids)]
        roots = []
        for pending in resolved:
            try:
                roots.append(pending.result()["object"]["objectId"])
            except (VerdexError, KeyError):
                continue
        bridge.hand_closed(fr, roots)
    finally:
        try:
            target.send("Runtime.releaseObjectGroup", objectGroup=GROUP)
        except VerdexError:
            pass


def _closed_in(node: dict, out: list[int]) -> None:
    """The backend ids of the closed shadow roots in ``node``'s tree (not in frames' documents)."""
    stack = [node]
    while stack:
        n = stack.pop()
        for sr in n.get("shadowRoots") or ():
            if sr.get("shadowRootType") == "closed":
                out.append(sr["backendNodeId"])
            stack.append(sr)
        stack.extend(n.get("children") or ())
