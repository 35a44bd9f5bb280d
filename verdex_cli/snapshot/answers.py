"""A frame capture's answer (bridge.js): read, spliced into the tree it patches, or, when no snapshot
uses it, handed back so that nothing it recorded is lost."""

from __future__ import annotations

import json
from contextlib import suppress

from ..base.errors import VerdexError
from ..browser.frames import Frame
from ..browser.page import Page
from . import cache


def parse_answer(raw: str) -> dict:
    """A frame capture's answer (bridge.js ``encode``): JSON, NUL, the frame's text (NUL, its whole lines)."""
    head, sep, text = raw.partition("\x00")
    data = json.loads(head)
    if sep:
        holder = data["view"].get("diff") or data["view"]
        holder["text"], _, holder["whole"] = text.partition("\x00")
    return data


class Answered:
    """A capture answered already (taken ahead), in the shape of a started call."""

    def __init__(self, value: str):
        self.value = value

    def result(self) -> dict:
        return {"result": {"value": self.value}}

    def drop(self) -> None:
        pass


def unused(page: Page, fr: Frame, answer) -> None:
    """A capture's answer that no snapshot uses: the refs its bridge issued are recorded, and those it
    let go of are handed back to it, for the next capture to report."""
    with suppress(VerdexError, KeyError, TypeError, ValueError):
        data = parse_answer(answer() if callable(answer) else answer)
        page.frames.note_issued(fr, data["counter"])
        if data.get("gone"):
            page.bridge.carry(fr, data["gone"])


def drop_ahead(page: Page, ahead: dict[int, tuple]) -> bool:
    """Captures taken ahead (cache.Ahead.frames) that no capture will use: recorded as unused, and the
    snapshot cache dropped (their frames' watchers were reset by them). True when there were any."""
    taken = [(page.frames.get(i), answer) for i, (_l, _w, _d, answer) in ahead.items() if answer is not None]
    for fr, answer in taken:
        if fr is not None:
            unused(page, fr, answer)
    if taken:
        cache.forget(page)
    return bool(taken)


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
