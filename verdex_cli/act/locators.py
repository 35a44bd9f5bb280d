"""Stable locators: the best target by meaning for one element, and its Playwright equivalent.

Preference: a unique test id, then a unique label, then a unique role:name, then role:name scoped to
its nearest named landmark or container (`"article:Coffee mug >> button:Add to cart"`). Each
candidate is checked by resolving it the way a command would: it must name this element alone,
by exact name.
"""

from __future__ import annotations

import json
import re

from ..base.errors import VerdexError
from ..browser.frames import Frame
from ..browser.page import Page
from .targets import Target, norm, parse_target, search


def _facts(page: Page, fr: Frame, n: int) -> dict | None:
    return page.frames.eval(fr, f"__verdex.targets.facts({n})")["value"]


def candidates(facts: dict, frame_name: str = "", in_frame: bool = False) -> list[Target]:
    out: list[Target] = []
    if facts.get("testid") and norm(facts["testid"]):
        out.append(Target("testid", norm(facts["testid"])))
    for label in dict.fromkeys(norm(x) for x in facts.get("labels") or []):
        if label:
            out.append(Target("label", label))
    name = norm(facts.get("name") or "")
    if name:
        own = Target("role", role=facts["role"], name=name)
        out.append(own)
        for s in facts.get("scopes") or []:
            out.append(Target("role", role=facts["role"], name=name,
                              scope=Target("role", role=s["role"], name=norm(s["name"]))))
    # the same inside its frame: by the iframe's name (an unnamed iframe: the only one), or inside the
    # main document when the element is in the main frame (its name repeats in a frame)
    frame = Target("role", role="iframe", name=norm(frame_name)) if in_frame else Target("role", role="document")
    out += [Target(t.kind, t.value, t.role, t.name, frame) for t in list(out) if t.scope is None]
    return out


def stable_locator(page: Page, fr: Frame, n: int) -> dict | None:
    """{"locator": target text, "playwright": code} for element n of frame fr, or None."""
    facts = _facts(page, fr, n)
    if not facts:
        return None
    for t in candidates(facts, _frame_name(page, fr), fr.parent is not None):
        try:
            if parse_target(str(t)) != t:  # it must survive being written out (names with quotes or '>>')
                continue
            hits, _ = search(page, t, self_at=(fr, n))
        except VerdexError:
            continue
        if len(hits) == 1 and hits[0].self and hits[0].level == 3 and hits[0].frame is fr:
            return {"locator": str(t), "playwright": playwright(page, fr, t)}
    return None


def _owner_attrs(page: Page, fr: Frame) -> tuple[str, dict]:
    """(tag, attributes) of the iframe element that holds frame fr, in its parent."""
    parent = page.frames.get(fr.parent)
    owner = parent.target.call("DOM.getFrameOwner", frameId=fr.frame_id)["backendNodeId"]
    node = parent.target.call("DOM.describeNode", backendNodeId=owner)["node"]
    return node.get("localName") or "iframe", dict(zip(node.get("attributes", [])[::2],
                                                       node.get("attributes", [])[1::2]))


def _frame_name(page: Page, fr: Frame) -> str:
    if fr.parent is None or page.frames.get(fr.parent) is None:
        return ""
    try:
        tag, attrs = _owner_attrs(page, fr)
    except VerdexError:
        return ""
    return attrs.get("title") or attrs.get("aria-label") or ""


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _pw_one(t: Target) -> str:
    if t.kind == "testid":
        return f"get_by_test_id({_q(t.value)})"
    if t.kind == "label":
        return f"get_by_label({_q(t.value)}, exact=True)"
    if t.kind == "text":
        return f"get_by_text({_q(t.value)}, exact=True)"
    if t.name:
        return f"get_by_role({_q(t.role)}, name={_q(t.name)}, exact=True)"
    return f"get_by_role({_q(t.role)})"


_SIMPLE_ID = re.compile(r"^[A-Za-z][\w-]*$")


def frame_prefix(page: Page, fr: Frame) -> str:
    """`page.frame_locator("#id")...` down to the element's frame ("page" for the main frame)."""
    parts: list[str] = []
    while fr.parent is not None:
        parent = page.frames.get(fr.parent)
        if parent is None:
            break
        tag, attrs = _owner_attrs(page, fr)
        if _SIMPLE_ID.match(attrs.get("id", "")):
            css = "#" + attrs["id"]
        elif attrs.get("title"):
            css = f'{tag}[title={_q(attrs["title"])}]'
        elif attrs.get("name"):
            css = f'{tag}[name={_q(attrs["name"])}]'
        else:
            css = tag
        parts.insert(0, f"frame_locator({_q(css)})")
        fr = parent
    return "page" + "".join("." + p for p in parts)


def playwright(page: Page, fr: Frame, t: Target) -> str:
    chain: list[Target] = []
    x: Target | None = t
    while x is not None:
        if not (x.kind == "role" and x.role in ("iframe", "document") and x is not t):  # frames: frame_locator below
            chain.insert(0, x)
        x = x.scope
    try:
        base = frame_prefix(page, fr)
    except VerdexError:
        base = "page"
    return base + "".join("." + _pw_one(c) for c in chain)


def playwright_for(target: Target) -> str:
    """Playwright code for a target as typed (main frame; substring names stay substring)."""
    chain: list[Target] = []
    x: Target | None = target
    while x is not None:
        chain.insert(0, x)
        x = x.scope
    return "page" + "".join("." + _pw_one(c) for c in chain)
