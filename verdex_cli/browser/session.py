"""The browser session: one Chrome, its contexts, pages and the current page."""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass, field

from ..errors import ConnectionLost, LaunchError
from . import launch as launcher
from .cdp import Target
from .page import Page


@dataclass
class Options:
    headless: bool = True
    chrome: str | None = None
    connect: str | None = None
    timeout: float = 10.0


@dataclass
class Session:
    options: Options
    chrome: launcher.ChromeProcess
    pages: dict[tuple[int, int], Page] = field(default_factory=dict)
    current: tuple[int, int] = (0, 0)
    init_script: str = ""
    _page_counters: dict[int, int] = field(default_factory=dict)

    @classmethod
    def start(cls, options: Options, init_script: str = "") -> "Session":
        if options.connect:
            chrome = launcher.connect(options.connect, timeout=options.timeout)
        else:
            chrome = launcher.launch(options.chrome, headless=options.headless,
                                     timeout=max(options.timeout, 20.0))
        session = cls(options, chrome, init_script=init_script)
        try:
            session._attach_first_page()
        except BaseException:
            chrome.stop()
            raise
        return session

    def _targets(self) -> list[dict]:
        try:
            with urllib.request.urlopen(self.chrome.http_endpoint + "/json/list", timeout=self.options.timeout) as r:
                return json.loads(r.read().decode("utf-8"))
        except OSError as exc:
            raise ConnectionLost(f"Cannot list the browser's tabs: {exc}") from exc

    def _attach_first_page(self) -> None:
        pages = [t for t in self._targets() if t.get("type") == "page" and t.get("webSocketDebuggerUrl")]
        if self.chrome.owned or not pages:
            if not pages:
                with urllib.request.urlopen(self.chrome.http_endpoint + "/json/new?about:blank",
                                            timeout=self.options.timeout) as r:  # noqa: S310
                    pass
                pages = [t for t in self._targets() if t.get("type") == "page"]
        if not pages:
            raise LaunchError("The browser has no page to attach to.")
        self.add_page(pages[0]["webSocketDebuggerUrl"], pages[0]["id"], context=0)

    def add_page(self, ws_url: str, target_id: str, context: int = 0) -> Page:
        index = self._page_counters.get(context, 0)
        self._page_counters[context] = index + 1
        target = Target(ws_url, self.options.timeout, target_id, "page")
        page = Page(context, index, target, self.options.timeout)
        page.frames.init_script = self.init_script
        page.frames.http_endpoint = self.chrome.http_endpoint
        self.pages[(context, index)] = page
        self.current = (context, index)
        return page

    @property
    def page(self) -> Page:
        return self.pages[self.current]

    def close(self) -> None:
        for page in list(self.pages.values()):
            try:
                page.close()
            except Exception:
                pass
        self.pages.clear()
        self.chrome.stop()
