"""One browser tab: events, evaluation in the main world, screenshots (navigation: navigation.py)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import downloads, timer_watch
from . import bridge
from .bridge import Bridge, by_value_of, page_read, user_expression
from ..base.errors import CDPError, CDPTimeout, ConnectionLost, JSError, UsageError
from .cdp import Target
from .dialogs import DialogAnswers
from .frames import FrameRegistry, frame_url
from .js_values import console_text, describe_exception, to_data
from .navigation import Navigation
from .netlog import NetLog
from .settle import Settle

MAX_SHOT_HEIGHT = 16384


@dataclass(eq=False)  # a tab is itself: compared and hashed by identity (snapshot/cache.held)
class Page(Navigation):
    """A tab, with its frames.  ``context``/``index`` make the ref prefix."""

    context: int
    index: int
    target: Target
    timeout: float
    dialogs: DialogAnswers  # the session's, shared between its tabs
    frames: FrameRegistry = field(init=False)
    bridge: Bridge = field(init=False)  # typed calls of the in-page engine (bridge.py)
    netlog: NetLog = field(init=False)  # the tab's requests and console messages (netlog.py)
    settle: Settle = field(default_factory=Settle)  # what it knows of settling after an input (settle.py)
    _load_event: threading.Event = field(default_factory=threading.Event)
    nav_count: int = 0  # main-frame navigations begun so far (navigation.py)
    _loading: bool = False
    _requested_at: float = 0.0
    _commits: int = 0
    _commits_at_start: int = 0
    _doc_status: dict = field(default_factory=dict)  # loader id -> HTTP status of the main document
    _last_doc_loader: str | None = None
    _answered: dict = field(default_factory=dict)  # loader id -> (frame id, HTTP status) of documents answered
    _doc_request: dict = field(default_factory=dict)  # frame id -> id of its latest document request
    _doc_failed: str = ""  # the network error of the main frame's latest document, if it failed
    downloads_expected: list = field(default_factory=list)  # (frame id, loader id): navigations that became downloads
    _watchers: int = 0  # watch_responses() nesting
    _network_on: bool = False
    _reloads: dict = field(default_factory=dict)  # loader id made by 'reload' -> the loader it replaced
    _console: list | None = None  # console.* calls collected while an eval runs

    def __post_init__(self) -> None:
        t = self.target
        self.frames = FrameRegistry(t, self.timeout)
        self.bridge = Bridge(self.frames)
        self.netlog = NetLog(self._frame_index)
        t.on("Page.loadEventFired", self._on_load)
        t.on("Page.domContentEventFired", self._on_content)
        t.on("Page.frameStartedLoading", self._on_started)
        t.on("Page.frameRequestedNavigation", self._on_requested)
        t.on("Page.frameStartedNavigating", self._on_navigating)
        t.on("Page.frameStoppedLoading", self._on_stopped)
        t.on("Page.javascriptDialogOpening", lambda **kw: self.dialogs.handle(self.target, self.on_dialog_answered, **kw))
        t.on("Network.requestWillBeSent", self._on_doc_request)
        t.on("Network.responseReceived", self._on_response)
        t.on("Network.loadingFailed", self._on_failed)
        t.on("Runtime.bindingCalled", self._on_binding)
        t.on("Runtime.consoleAPICalled", self._on_console)
        t.on("Page.frameNavigated", self.frames.on_frame_navigated)
        t.on("Page.frameNavigated", self._on_committed)
        t.on("Page.navigatedWithinDocument", self.frames.on_same_document)
        t.on("Page.frameDetached", self.frames.on_frame_detached)
        t.on("Page.frameNavigated", self._on_main_document)
        self.netlog.watch(t)  # before the domains are on: every request and message of the tab is heard
        t.call("Page.enable")
        try:
            self.frames.hear_choosers(t).result()
        except (CDPError, CDPTimeout):
            pass
        self.frames.guards.watch(t)  # every document's click guard (a click meant for another document)
        t.call("Runtime.enable")
        t.call("DOM.enable")
        t.watch_crashes()  # 'page_crashed' instead of time-outs after a renderer crash
        downloads.hear_clicks(t)
        timer_watch.follow(t)  # what an action's input started (changes.settle); closed roots' hosts
        self.frames.refresh()

    # -- identity ----------------------------------------------------------
    @property
    def prefix(self) -> str:
        return f"c{self.context}p{self.index}"

    # -- events --------------------------------------------------------------
    def _on_console(self, type: str = "log", args: list | None = None, **_):
        sink = self._console
        if sink is not None and len(sink) < 1000:
            sink.append({"type": type, "text": console_text(args or [])})

    def _on_main_document(self, frame: dict | None = None, type: str = "Navigation", **_):
        if frame and not frame.get("parentId") and type == "Navigation":
            self.netlog.navigated(frame_url(frame))

    def _frame_index(self, frame_id: str) -> int | None:
        fr = self.frames.by_id.get(frame_id)
        return None if fr is None else fr.index

    def _on_binding(self, name: str = "", **_):
        if name == downloads.BINDING:  # a click asked for a download (any frame of this tab)
            self.downloads_expected.append((None, None))

    def interrupt_scripts(self) -> None:
        """Stop the script running in this tab and in its out-of-process frames (after Ctrl-C)."""
        for target in {id(f.target): f.target for f in self.frames.all_frames()}.values():
            if target.alive and not target.crashed:
                target.interrupt_script()

    # -- main-world evaluation ---------------------------------------------
    def evaluate(self, expression: str, timeout: float | None = None):
        """Evaluate like the DevTools console and return the plain value (None for undefined)."""
        data = self.evaluate_data(expression, timeout)
        return data["value"] if "description" not in data else data["description"]

    def evaluate_data(self, expression: str, timeout: float | None = None, console: bool = False) -> dict:
        """Evaluate in the page's own world, like the DevTools console (top-level await,
        re-declarable let; a Promise result is awaited). Returns ``js_values.to_data`` data, with
        ``"console"``: the console.* calls made meanwhile, when asked."""
        if console:
            self._console = []
        try:
            res = bridge.ask(self.target, user_expression(expression), timeout)
            if "exceptionDetails" in res:
                raise JSError(describe_exception(res["exceptionDetails"]))
            obj = res.get("result", {})
            if obj.get("subtype") == "promise":
                res = self.target.call("Runtime.awaitPromise", timeout=timeout, promiseObjectId=obj["objectId"],
                           returnByValue=False, generatePreview=True)
                if "exceptionDetails" in res:
                    raise JSError(describe_exception(res["exceptionDetails"]))
                obj = res.get("result", {})

            def by_value(o: dict):
                try:
                    out = bridge.ask(self.target, by_value_of(o["objectId"]), timeout)
                except CDPError:
                    return None  # not serialisable (cycles): described instead
                if "exceptionDetails" in out:
                    return None
                return {"value": out["result"].get("value")}

            self.target.drain_events()
            # while a navigation it started is pending, Chrome holds further calls: use the preview
            data = to_data(obj, None if self.navigation_pending else by_value)
        finally:
            self.target.drain_events()
            if not self.navigation_pending:  # (a document that is going away frees its objects anyway)
                try:
                    self.target.call("Runtime.releaseObjectGroup", timeout=2, objectGroup="verdex-eval")
                except (CDPError, CDPTimeout, ConnectionLost):
                    pass  # the script closed its own tab
            if console:
                logged, self._console = self._console, None
        if console and logged:
            data["console"] = logged
        return data

    def info(self, refresh: bool = False) -> dict:
        """Current URL and title (no page JS involved); ``refresh``: the frames re-read from the same tree."""
        tree = self.frames.tree()
        if refresh:
            self.frames.refresh(tree)
        try:
            title = bridge.ask(self.target, page_read("title"), min(self.timeout, 2.0),
                               interrupt=False)["result"].get("value", "")
        except (CDPError, CDPTimeout):
            title = ""
        return {"url": frame_url(tree["frame"]), "title": title or ""}

    def screenshot(self, path: str, full_page: bool = False, cap: int | None = None) -> dict:
        """Save the viewport (``full_page``: the whole page, up to MAX_SHOT_HEIGHT) to ``path``; with
        ``cap``, scaled down so the image's long side is at most that many pixels. The result says the
        image's ``width``/``height`` in pixels and its ``scale`` (pixels per CSS pixel)."""
        import base64

        out = Path(path).expanduser()
        if out.suffix.lower() not in (".png", ".jpg", ".jpeg", ".webp"):
            raise UsageError("Screenshot path must end in .png, .jpg or .webp.")
        fmt = {"jpg": "jpeg"}.get(out.suffix.lower()[1:], out.suffix.lower()[1:])
        notes = []
        metrics = self.target.call("Page.getLayoutMetrics")
        view = metrics["cssLayoutViewport"]
        dpr = metrics.get("visualViewport", {}).get("clientWidth", 0) / (metrics["cssVisualViewport"]["clientWidth"] or 1) or 1
        if full_page:
            size = metrics["cssContentSize"]
            clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], MAX_SHOT_HEIGHT)}
            if clip["height"] < size["height"]:
                notes.append(f"The page is {size['height']:.0f} px tall; the screenshot stops at {MAX_SHOT_HEIGHT} px.")
        else:  # the viewport: a clip in document coordinates, where the page is scrolled to
            clip = {"x": view["pageX"], "y": view["pageY"], "width": view["clientWidth"], "height": view["clientHeight"]}
        scale = 1.0
        long_side = max(clip["width"], clip["height"]) * dpr
        if cap and long_side > cap:
            scale = cap / long_side
            notes.append(f"Scaled to {cap} px on its long side (it was {long_side:.0f} px); --full keeps every pixel.")
        raw = base64.b64decode(self.target.call("Page.captureScreenshot", timeout=max(self.timeout, 30.0), format=fmt,
                                                clip=dict(clip, scale=scale), captureBeyondViewport=full_page)["data"])
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(raw)
        except OSError as exc:
            raise UsageError(f"Cannot write {out}: {exc.strerror or exc}") from exc
        k = scale * dpr
        return {"path": str(out), "bytes": len(raw), "width": round(clip["width"] * k),
                "height": round(clip["height"] * k), "scale": k, "notes": notes}

    def bring_to_front(self) -> None:
        """Make this the visible tab (background tabs run no animation frames)."""
        try:
            self.target.call("Page.bringToFront")
        except (CDPError, CDPTimeout):
            pass

    def _visible_or_gone(self) -> str:
        """``document.visibilityState`` of the main frame, read in verdex's isolated world (a page
        script cannot fake it there); "visible" when it has no document to ask (it is being replaced)."""
        try:
            return self.bridge.visibility(self.frames.main)
        except (CDPError, JSError):
            return "visible"  # nothing is left to wait for: the action will tell

    def ensure_front(self) -> str | None:
        """Before an action: a tab that is not in front (a tab the page opened took the front, or
        another tab was opened) draws no frames and gets no focus, so it is brought to the front and
        waited for (bounded) until its page reports it visible. Returns a note when it was moved."""
        if self._visible_or_gone() == "visible":
            return None
        self.bring_to_front()
        deadline = time.monotonic() + min(self.timeout, 2.0)
        while self._visible_or_gone() != "visible":
            if time.monotonic() >= deadline:
                return f"Brought tab {self.index} to the front, but its page still reports it is hidden."
            time.sleep(0.02)
        return f"Brought tab {self.index} to the front."

    def close(self) -> None:
        self.frames.close()
        self.target.close()
