"""Stable locators: the best target by meaning for one element, and its Playwright equivalent.

Preference: a unique test id, label, role:name, then role:name scoped to its nearest named landmark or
container (`"article:Coffee mug >> button:Add to cart"`), an id that does not look generated
(engine/targets.js says which), then the unscoped ones within its frame
(`role=document >> ...`, `iframe:NAME >> ...`); a candidate must name this element alone, exactly.
One engine call (``targets.locate``) builds and checks them in the element's document; with several
frames :meth:`Found.choose` also searches the others, when asked (`export`): an action only starts the call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..base.errors import VerdexError
from ..browser.frames import Frame
from ..browser.page import Page
from .targets import Target, norm, parse_target, quoted, search


def unchecked(testid: str, label: str, role: str, name: str) -> Target | None:
    """The first candidate these facts make (test id, label, role:name), unchecked: for an element that
    is gone (the engine's ``locate`` builds and checks the whole list in the page)."""
    testid, label, name = norm(testid or ""), norm(label or ""), norm(name or "")
    if testid or label:
        return Target("testid", testid) if testid else Target("label", label)
    return Target("role", role=role, name=name) if name else None


def _in_frame(t: Target, frame_name: str, in_frame: bool) -> Target:
    """The same inside its frame: by the iframe's name (an unnamed iframe: the only one), or inside the
    main document when the element is in the main frame (its name repeats in a frame)."""
    frame = Target("role", role="iframe", name=norm(frame_name)) if in_frame else Target("role", role="document")
    return Target(t.kind, t.value, t.role, t.name, frame)


def _target(c: dict) -> Target:
    scope = c.get("scope")
    return Target(c["kind"], c.get("value", ""), c.get("role", ""), c.get("name", ""),
                  Target("role", role=scope["role"], name=scope["name"]) if scope else None)


def _chain(t: Target) -> list[Target]:
    """A target and its scopes, outermost first."""
    out: list[Target] = []
    x: Target | None = t
    while x is not None:
        out.insert(0, x)
        x = x.scope
    return out


def _survives(t: Target) -> bool:
    """It must survive being written out (names with quotes or '>>')."""
    try:
        return parse_target(str(t)) == t
    except VerdexError:
        return False


@dataclass
class Found:
    """One ``locate`` answer: element ``n`` of frame ``fr`` (document ``loader``) and its candidates,
    each with whether its own document has it alone. ``single``: the tab had one frame."""
    page: Page
    fr: Frame
    n: int
    loader: str
    single: bool
    checks: list[tuple[Target, bool]] = field(default_factory=list)
    pw: list[Target] = field(default_factory=list)  # what a Playwright test can use, best first
    chain: str | None = None  # the Playwright frame chain, once asked (frame_chain)

    def frame_chain(self) -> str:
        """`page.frame_locator(...)...` down to the element's frame, asked once (while the page still
        shows the frame: an action's step asks it when it is recorded)."""
        if self.chain is None:
            try:
                self.chain = frame_prefix(self.page, self.fr)
            except VerdexError:
                self.chain = ""  # its frame cannot be reached: no locator
        return self.chain

    def playwright(self) -> str | None:
        """The Playwright locator of the element: its frame chain, then the best candidate Playwright's
        own matching finds alone in the element's document (None: none does, or its frame is gone)."""
        if not self.pw or not self.frame_chain():
            return None
        return self.frame_chain() + "".join("." + _pw_one(c) for c in _chain(self.pw[0]))

    def shown(self) -> bool:
        """The page still shows the element's document."""
        return not self.fr.detached and self.fr.loader_id == self.loader and self.fr.target.alive

    def choose(self) -> dict:
        """{"locator": target text, "playwright": code}, both None when no candidate holds."""
        t = self._pick()
        return {"locator": None if t is None else str(t), "playwright": self.playwright()}

    def _pick(self) -> Target | None:
        base = [(t, ok) for t, ok in self.checks if ok]
        shown = self.single or self.shown()
        for t, _ in base:
            if _survives(t) and (self.single or (shown and _alone(self.page, t, self.fr))):
                return t
        if self.single:
            return None
        in_frame = self.fr.parent is not None
        name = ""
        if in_frame and any(t.scope is None for t, _ in base):
            name = _frame_name(self.page, self.fr) if shown else None
        for t, _ in base:
            if t.scope is not None or name is None:
                continue
            framed = _in_frame(t, name, in_frame)
            # the main document alone needs no other check; an iframe's name must be the only one
            # (and its own frames must not match): checked while the page shows it
            if _survives(framed) and (not in_frame or _alone(self.page, framed, self.fr)):
                return framed
        if not shown:  # its frame is gone: the best its own document offered (not checked elsewhere)
            return next((t for t, _ in base if t.scope is None and _survives(t)), None)
        return None


def _alone(page: Page, t: Target, fr: Frame) -> bool:
    """No frame but ``fr`` has an exact match of ``t`` (and its scope names one element)."""
    try:
        hits, _ = search(page, t)
    except VerdexError:
        return False
    return not any(h.frame is not fr and h.level == 3 for h in hits)


def found_from(page: Page, fr: Frame, n: int, answer: dict | None, loader: str, single: bool) -> Found | None:
    """A :class:`Found` from a ``locate`` answer (None: the element was gone)."""
    if not answer:
        return None
    cands = answer["candidates"]
    return Found(page, fr, n, loader, single, [(_target(c), bool(c.get("ok"))) for c in cands],
                 [_target(c) for c in cands if c.get("pw")])


def one_frame(page: Page) -> bool:
    """The tab has one frame, as the registry knows it (the last snapshot and events): no round trip."""
    return len(page.frames.all_frames()) <= 1


def locate_now(page: Page, fr: Frame, n: int) -> Found | None:
    return found_from(page, fr, n, page.bridge.locate(fr, n), fr.loader_id, one_frame(page))


def stable_locator(page: Page, fr: Frame, n: int) -> dict | None:
    """{"locator": target text, "playwright": code} for element n of frame fr, or None (computed now)."""
    found = locate_now(page, fr, n)
    if found is None:
        return None
    out = found.choose()
    return out if out["locator"] is not None or out["playwright"] is not None else None


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


def _pw_one(t: Target, exact: bool = True) -> str:
    """One Playwright locator call. ``exact``: the whole (whitespace-normalised) text or name equals;
    otherwise Playwright matches a case-insensitive substring, as a target typed in verdex may."""
    ex = ", exact=True" if exact else ""
    if t.kind == "testid":
        return f"get_by_test_id({quoted(t.value)})"
    if t.kind == "id":
        return f"locator({quoted('#' + css_ident(t.value))})"
    if t.kind == "label":
        return f"get_by_label({quoted(t.value)}{ex})"
    if t.kind == "text":
        return f"get_by_text({quoted(t.value)}{ex})"
    if t.name:
        return f"get_by_role({quoted(t.role)}, name={quoted(t.name)}{ex})"
    return f"get_by_role({quoted(t.role)})"


_CSS_ESCAPED = re.compile(r"^-?[0-9]|^-$|[^\w-]")


def css_ident(text: str) -> str:
    """``text`` as a CSS identifier (like the DOM's CSS.escape): a leading digit and control characters
    as hex escapes, other ASCII punctuation after a backslash."""
    return _CSS_ESCAPED.sub(lambda m: "".join(f"\\{ord(c):x} " if c in "0123456789" or ord(c) < 32 or c == "\x7f"
                                              else "\\" + c for c in m.group()), text)


def owner_css(tag: str, attrs: dict) -> str:
    """A CSS selector for a frame owner element: its id, else its title, else its name, else its tag."""
    if attrs.get("id"):
        return "#" + css_ident(attrs["id"])
    for key in ("title", "name"):
        if attrs.get(key):
            return f"{tag}[{key}={quoted(attrs[key])}]"
    return tag


def chain_code(selectors: list[str]) -> str:
    """`page.frame_locator(...)...` through owners' selectors, outermost first."""
    return "page" + "".join(f".frame_locator({quoted(css)})" for css in selectors)


def frame_prefix(page: Page, fr: Frame) -> str:
    """`page.frame_locator("#id")...` down to the element's frame ("page" for the main frame), asking
    the browser for each owner element (two round trips a level)."""
    selectors: list[str] = []
    while fr.parent is not None:
        parent = page.frames.get(fr.parent)
        if parent is None:
            raise VerdexError("the frame's parent is gone")
        selectors.insert(0, owner_css(*_owner_attrs(page, fr)))
        fr = parent
    return chain_code(selectors)


def playwright_for(target: Target) -> str:
    """Playwright code for a target as typed, when its element could not be located (main frame;
    names and texts as substrings, as verdex may have matched them)."""
    return "page" + "".join("." + _pw_one(c, exact=False) for c in _chain(target))
