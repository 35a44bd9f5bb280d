"""One browser tab: navigation, load waiting, dialogs, evaluation in the main world."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable
from pathlib import Path
from urllib.parse import urljoin, urlparse

from ..errors import CDPError, CDPTimeout, JSError, NavigationFailed, UsageError
from .cdp import Target
from .frames import FrameRegistry


def normalize_url(raw: str, base: str | None = None) -> str:
    """Accept URLs, bare host names, local file paths, and paths relative to an http page."""
    text = raw.strip()
    if not text:
        raise UsageError("Usage: open URL")
    parsed = urlparse(text)
    if parsed.scheme in ("http", "https", "file", "about", "data", "chrome", "view-source"):
        return text
    path = Path(text).expanduser()
    if path.exists():
        return path.resolve().as_uri()
    looks_relative = text.startswith(("/", "./", "../", "?", "#")) or text.endswith((".html", ".htm"))
    if looks_relative and base and urlparse(base).scheme in ("http", "https"):
        return urljoin(base, text)
    if looks_relative or text.startswith("~"):
        raise NavigationFailed(f"No such file: {text}")
    if parsed.scheme and parsed.netloc:
        return text
    return "http://" + text


MAX_SHOT_HEIGHT = 16384


@dataclass
class DialogNote:
    kind: str
    message: str


@dataclass
class Page:
    """A tab, with its frames.  ``context``/``index`` make the ref prefix."""

    context: int
    index: int
    target: Target
    timeout: float
    frames: FrameRegistry = field(init=False)
    notes: list[str] = field(default_factory=list)
    _nav_lock: threading.Lock = field(default_factory=threading.Lock)
    _load_event: threading.Event = field(default_factory=threading.Event)
    _nav_count: int = 0
    tab_closed: Callable[[int], bool] | None = None  # set by the session: was page N of this context closed?

    def __post_init__(self) -> None:
        t = self.target
        self.frames = FrameRegistry(self)
        t.on("Page.loadEventFired", self._on_load)
        t.on("Page.frameStartedLoading", self._on_started)
        t.on("Page.frameRequestedNavigation", self._on_started)
        t.on("Page.javascriptDialogOpening", self._on_dialog)
        t.on("Page.frameNavigated", self.frames.on_frame_navigated)
        t.on("Page.navigatedWithinDocument", self.frames.on_same_document)
        t.on("Page.frameDetached", self.frames.on_frame_detached)
        t.call("Page.enable")
        t.call("Runtime.enable")
        t.call("DOM.enable")
        t.watch_crashes()  # hostile: 'page_crashed' instead of time-outs after a renderer crash
        try:
            t.call("Page.setLifecycleEventsEnabled", enabled=False)
        except CDPError:
            pass
        self.frames.refresh()

    # -- identity ----------------------------------------------------------
    @property
    def prefix(self) -> str:
        return f"c{self.context}p{self.index}"

    # -- events --------------------------------------------------------------
    def _on_load(self, **_):
        self._load_event.set()

    def _on_started(self, frameId: str = "", **_):
        if frameId == self.frames.main_id:
            self._nav_count += 1
            self._load_event.clear()

    def _on_dialog(self, type: str = "alert", message: str = "", defaultPrompt: str = "", **_):
        try:
            params = {"accept": True}
            if type == "prompt":
                params["promptText"] = defaultPrompt
            self.target.call("Page.handleJavaScriptDialog", **params)
        except Exception:
            pass
        self.notes.append(f"A {type} dialog was shown and accepted: {message!r}")

    def take_notes(self) -> list[str]:
        out, self.notes = self.notes, []
        return out

    # -- main-world evaluation ---------------------------------------------
    def evaluate(self, expression: str, timeout: float | None = None):
        """Evaluate in the page's own world, like the DevTools console (top-level
        await, re-declarable let); a Promise result is awaited."""
        call = self.target.call
        res = call("Runtime.evaluate", timeout=timeout, expression=expression, returnByValue=False,
                   awaitPromise=True, userGesture=True, replMode=True, allowUnsafeEvalBlockedByCSP=True,
                   objectGroup="verdex-eval")
        try:
            if "exceptionDetails" in res:
                raise JSError(describe_exception(res["exceptionDetails"]))
            obj = res.get("result", {})
            if obj.get("subtype") == "promise":
                res = call("Runtime.awaitPromise", timeout=timeout, promiseObjectId=obj["objectId"],
                           returnByValue=True)
                if "exceptionDetails" in res:
                    raise JSError(describe_exception(res["exceptionDetails"]))
                obj = res.get("result", {})
            elif "objectId" in obj and obj.get("type") == "object" and obj.get("subtype") != "node":
                try:
                    obj = call("Runtime.callFunctionOn", timeout=timeout, objectId=obj["objectId"],
                               functionDeclaration="function () { return this; }", returnByValue=True)["result"]
                except CDPError:
                    pass  # not serialisable (cycles): fall back to its description
            return _value_of(obj)
        finally:
            try:
                call("Runtime.releaseObjectGroup", timeout=2, objectGroup="verdex-eval")
            except (CDPError, CDPTimeout):
                pass

    def info(self) -> dict:
        """Current URL and title (from the target list, no page JS involved)."""
        tree = self.frames.tree()
        frame = tree["frame"]
        try:
            title = self.target.call("Runtime.evaluate", timeout=min(self.timeout, 2.0), interrupt=False,
                                     expression="document.title", returnByValue=True)["result"].get("value", "")
        except (CDPError, CDPTimeout):
            title = ""
        return {"url": frame.get("url", "") + frame.get("urlFragment", ""), "title": title or ""}

    # -- navigation ------------------------------------------------------------
    def navigate(self, url: str) -> dict:
        self._load_event.clear()
        res = self.target.call("Page.navigate", url=url)
        if res.get("errorText"):
            raise NavigationFailed(f"Could not open {url}: {res['errorText']}")
        return self._after_navigation(res.get("loaderId") is not None)

    def reload(self) -> dict:
        self._load_event.clear()
        self.target.call("Page.reload", ignoreCache=False)
        return self._after_navigation(True)

    def history_step(self, delta: int) -> dict:
        hist = self.target.call("Page.getNavigationHistory")
        index = hist["currentIndex"] + delta
        entries = hist["entries"]
        if not 0 <= index < len(entries):
            word = "previous" if delta < 0 else "next"
            raise NavigationFailed(f"There is no {word} page in this tab's history.")
        self._load_event.clear()
        self.target.call("Page.navigateToHistoryEntry", entryId=entries[index]["id"])
        return self._after_navigation(True)

    def _after_navigation(self, cross_document: bool) -> dict:
        notes = []
        if cross_document and not self.wait_for_load(self.timeout):
            notes.append(f"The page did not finish loading within {self.timeout:g} s; continuing.")
        self.frames.refresh()
        info = self.info()
        info["notes"] = notes + self.take_notes()
        return info

    def wait_for_load(self, timeout: float) -> bool:
        """Wait for the load event, falling back to document.readyState."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._load_event.wait(0.05):
                return True
            try:
                state = self.target.call("Runtime.evaluate", timeout=max(0.5, deadline - time.monotonic()),
                                         expression="document.readyState", returnByValue=True)
                if state.get("result", {}).get("value") == "complete":
                    return True
            except CDPTimeout:
                return False
            except CDPError:
                pass
            time.sleep(0.05)
        return False

    def settle_after_action(self, nav_before: int, grace: float = 0.08) -> list[str]:
        """After an input action: if it started a navigation, wait for it to load."""
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and self._nav_count == nav_before:
            time.sleep(0.02)
        notes = []
        if self._nav_count != nav_before:
            if not self.wait_for_load(self.timeout):
                notes.append(f"The navigation did not finish within {self.timeout:g} s.")
            self.frames.refresh()
            notes.append(f"Navigated to {self.info()['url']}")
        return notes + self.take_notes()

    @property
    def nav_count(self) -> int:
        return self._nav_count

    def screenshot(self, path: str, full_page: bool = False) -> dict:
        import base64

        out = Path(path).expanduser()
        if out.suffix.lower() not in (".png", ".jpg", ".jpeg", ".webp"):
            raise UsageError("Screenshot path must end in .png, .jpg or .webp.")
        fmt = {"jpg": "jpeg"}.get(out.suffix.lower()[1:], out.suffix.lower()[1:])
        params: dict = {"format": fmt}
        notes = []
        if full_page:
            size = self.target.call("Page.getLayoutMetrics")["cssContentSize"]
            height = min(size["height"], MAX_SHOT_HEIGHT)
            if height < size["height"]:
                notes.append(f"The page is {size['height']:.0f} px tall; the screenshot stops at {MAX_SHOT_HEIGHT} px.")
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": size["width"], "height": height, "scale": 1})
        data = self.target.call("Page.captureScreenshot", timeout=max(self.timeout, 30.0), **params)["data"]
        raw = base64.b64decode(data)
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(raw)
        except OSError as exc:
            raise UsageError(f"Cannot write {out}: {exc.strerror or exc}") from exc
        return {"path": str(out), "bytes": len(raw), "notes": notes}

    def bring_to_front(self) -> None:
        """Make this the visible tab (background tabs run no animation frames)."""
        try:
            self.target.call("Page.bringToFront")
        except (CDPError, CDPTimeout):
            pass

    def close(self) -> None:
        self.frames.close()
        self.target.close()


def _value_of(obj: dict):
    if "value" in obj:
        return obj["value"]
    if obj.get("type") == "undefined":
        return None
    if "unserializableValue" in obj:
        return obj["unserializableValue"]
    return obj.get("description")


def describe_exception(details: dict) -> str:
    exc = details.get("exception") or {}
    text = exc.get("description") or details.get("text") or "Script error"
    first = text.strip().splitlines()[0] if text.strip() else "Script error"
    return first
