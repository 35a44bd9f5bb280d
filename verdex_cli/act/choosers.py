"""File choosers the page opened (a handler clicking a hidden ``<input type=file>``; intercepted in
browser/frames.py): the command's result says so and gives the input a ref for ``upload REF PATH``."""

from __future__ import annotations

from contextlib import suppress
from ..base.errors import VerdexError
from ..browser.frames import Frame
from ..browser.page import Page
from ..refs.store import RefStore
from .targets import adopt


def report(page: Page, store: RefStore) -> tuple[list[str], list[dict]]:
    """(notes, ``[{"ref", "multiple"}]``) for the choosers the page opened since the last report."""
    notes, found = [], []
    while page.frames.choosers:
        asked = page.frames.choosers.pop(0)
        fr = page.frames.by_id.get(asked.get("frameId", ""))
        got = _input(page, fr, asked.get("backendNodeId")) if fr is not None and not fr.detached else None
        if got is None:
            notes.append("The page opened a file chooser, but its file input is gone; nothing was chosen.")
            continue
        page.frames.note_issued(fr, got["counter"])
        rec = adopt(store, fr, got["n"], got["role"], got["name"], 1, "for the file chooser the page opened")
        hidden = " (hidden)" if got["hidden"] else ""
        paths = "PATH..." if got["multiple"] else "PATH"
        notes.append(f"The page opened a file chooser for {got['label']}{hidden}; nothing was chosen. Choose "
                     f"with 'upload {rec.ref} {paths}'.")
        found.append({"ref": rec.ref, "multiple": got["multiple"]})
    return notes, found


def _input(page: Page, fr: Frame, backend) -> dict | None:
    """The chooser's file input in the frame's verdex world, given a ref there (None: gone)."""
    try:
        obj = fr.target.call("DOM.resolveNode", backendNodeId=backend, objectGroup="verdex-chooser",
                             executionContextId=page.frames.world(fr))["object"]
        return page.bridge.chooser_input(fr.target, obj["objectId"])
    except (VerdexError, KeyError):
        return None
    finally:
        with suppress(VerdexError):
            fr.target.call("Runtime.releaseObjectGroup", objectGroup="verdex-chooser", timeout=2)
