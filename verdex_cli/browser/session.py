"""The browser session: one Chrome, its contexts, pages and the current page."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from . import endpoint, launch as launcher
from ..base.errors import CDPError, ConnectionLost, ErrorKind, LaunchError, UsageError, VerdexError
from .cdp import Target
from .contexts import BrowserContexts
from .dialogs import DialogAnswers, dialog_note
from .downloads import Downloads
from .page import Page
from .popups import PopupWatch

STATUS_TIMEOUT = 2.0  # at most this long for a tab's title and URL (the toolbar, `tabs`)


@dataclass
class Options:
    headless: bool = True
    chrome: str | None = None
    connect: str | None = None
    timeout: float = 10.0
    new_tab: bool = True  # with --connect: open a tab of our own (the browser's tabs stay as they are)
    downloads: str | None = None  # download directory (default: a private temp dir removed on close)
    headers: tuple = ()  # --connect-header "Name: value": sent with the WebSocket upgrade


@dataclass
class Session(BrowserContexts):
    options: Options
    chrome: launcher.ChromeProcess
    pages: dict[tuple[int, int], Page] = field(default_factory=dict)
    current: tuple[int, int] = (0, 0)
    _page_counters: dict[int, int] = field(default_factory=dict)
    _own_targets: list[str] = field(default_factory=list)
    _closed: set = field(default_factory=set)  # (context, page) of tabs that were closed
    dialogs: DialogAnswers = field(default_factory=DialogAnswers)
    downloads: Downloads | None = None
    _tab_notes: list = field(default_factory=list)  # tabs opened/closed by pages, not yet reported
    contexts: dict = field(default_factory=lambda: {0: None})  # index -> browserContextId (0: the default)
    _next_context: int = 1
    _last_tab: dict = field(default_factory=dict)  # context -> the tab that was current in it last
    _closed_contexts: set = field(default_factory=set)
    _reserved: dict = field(default_factory=dict)  # target id -> tab index of a browser tab not adopted yet
    _watched: Page | None = None  # the tab whose document answers the running command hears
    _command_started: float = 0.0
    _targets_asked: object = None  # Target.getTargets sent ahead this command (ask_targets)
    popups: PopupWatch | None = None  # tabs our pages opened, as the browser announced them

    @classmethod
    def start(cls, options: Options) -> "Session":
        if options.connect:
            chrome = endpoint.connect(options.connect, options.timeout, options.headers)
        else:
            chrome = launcher.launch(options.chrome, headless=options.headless,
                                     timeout=max(options.timeout, 20.0))
        session = cls(options, chrome)
        try:
            # its connection is open already (chrome.link): a launched browser's pipe, or --connect's socket
            chrome.link.timeout = options.timeout  # the launch's own wait was longer
            session.downloads = Downloads(options.downloads)
            session._attach_first_page()
            session.popups = PopupWatch(session.browser())
            session.downloads.attach(session.browser())  # routes downloads to the session's directory
        except BaseException:
            if session.downloads is not None:
                session.downloads.close()
            chrome.link.close()
            chrome.stop()
            raise
        return session

    def _targets(self) -> list[dict]:
        """The browser's targets (``Target.getTargets`` infos: pages, frames, workers)."""
        return self.browser().call("Target.getTargets")["targetInfos"]

    def _attach_first_page(self) -> None:
        pages = [t for t in self._targets() if t.get("type") == "page"]
        if not pages or (self.options.new_tab and not self.chrome.owned):  # never take over the user's tab
            try:
                created = self.browser().call("Target.createTarget", url="about:blank")
            except VerdexError as exc:
                raise LaunchError(f"Cannot open a tab in the browser: {exc.message}") from exc
            self._own_targets.append(created["targetId"])
            pages = [{"targetId": created["targetId"]}]
        self.add_page(pages[0]["targetId"], context=0)

    # -- tabs -------------------------------------------------------------------
    def mark_closed(self, keys) -> None:
        """Tabs ``keys`` ((context, page)) of an earlier browser were closed: their refs say so."""
        self._closed.update(keys)

    def tab_state(self, context: int, index: int) -> str:
        """'open', 'closed' or 'unknown' (for a ref's page check)."""
        return "closed" if (context, index) in self._closed else "open" if (context, index) in self.pages else "unknown"

    def page_status(self, page: Page) -> dict:
        """{"title", "url"} of one tab from the browser's target list (one browser-level call; empty
        strings when the browser cannot say). No page JavaScript runs and nothing may interrupt a page's
        script, so a busy page keeps running while the REPL toolbar or `tabs` looks at it."""
        try:
            infos = self.browser().call("Target.getTargets", timeout=min(self.options.timeout, STATUS_TIMEOUT),
                                        interrupt=False)["targetInfos"]
        except VerdexError:
            infos = []
        info = next((i for i in infos if i["targetId"] == page.target.id), {})
        url = info.get("url", "")
        title = info.get("title", "")
        if title == url or title == url.split("://", 1)[-1]:
            title = ""  # Chrome shows the URL as the title of a page without one
        return {"title": title, "url": url}

    def browser(self) -> Target:
        """The browser-level session (the connection's root). Its socket carries every tab; once it
        is gone, so is everything: ConnectionLost (the runner reports the browser lost)."""
        target = self.chrome.link
        if not target.alive:
            raise ConnectionLost("Browser connection lost (the browser or the connection to it closed).")
        return target

    def new_tab(self, url: str = "about:blank") -> Page:
        context = self.current[0]
        params = {"browserContextId": self.contexts[context]} if self.contexts.get(context) else {}
        created = self.browser().call("Target.createTarget", url="about:blank", **params)
        target_id = created["targetId"]
        self._own_targets.append(target_id)
        page = self.add_page(target_id, context=context)
        page.bring_to_front()
        if url != "about:blank":
            page.navigate(url)
        return page

    def ask_targets(self) -> None:
        """Send the after-command question (Target.getTargets: tabs opened or closed, and the barrier
        for the downloads check) now, without waiting: an action asks it with the last calls of its
        input's effects, so it costs no round trip of its own (:meth:`discover` takes the answer)."""
        if self._targets_asked is None:
            try:
                self._targets_asked = self.browser().start("Target.getTargets")
            except VerdexError:
                self._targets_asked = None

    def drop_targets_asked(self) -> None:
        asked, self._targets_asked = self._targets_asked, None
        if asked is not None:
            asked.drop()

    def discover(self) -> list[Page]:
        """Attach to tabs our pages opened (popups, target=_blank); returns the new ones."""
        asked, self._targets_asked = self._targets_asked, None
        infos = asked.result()["targetInfos"] if asked is not None else self._targets()
        self.browser().drain_events()  # the popups announced before the answer (PopupWatch)
        alive = {i["targetId"] for i in infos}
        gone = []
        for key, page in list(self.pages.items()):
            if page.target.id not in alive and len(self.pages) > 1:  # closed by the page (window.close)
                self._drop_tab(key)
                gone.append(key)
        was_current = self.current
        if self.current not in self.pages:
            self._current_closed(was_current[0])
        for key in gone:
            now = f"; tab {self.current[1]} is now current" if key == was_current else ""
            self._tab_notes.append(f"Tab {key[1]} closed itself{now}.")
        known = {p.target.id: p.context for p in self.pages.values()}
        new = []
        for info in infos:
            if info.get("type") != "page" or info["targetId"] in known or info.get("openerId") not in known:
                continue
            if self.popups is not None:
                self.popups.adopted(info["targetId"])
            try:
                page = self.add_page(info["targetId"], context=known[info["openerId"]], switch=False)
                page.wait_for_load(min(self.options.timeout, 1.0))  # bounded: its URL once it has one
            except (ConnectionLost, CDPError):  # it closed itself at once (a popup whose file became a download)
                self._forget_popup(info["targetId"])
                if self.popups is not None:
                    self.popups.adopted(info["targetId"], kept=False)
                continue
            new.append(page)
            url = info.get("url", "")
            try:  # the browser's view, which no pending navigation holds up
                url = next((i.get("url", url) for i in self._targets() if i["targetId"] == info["targetId"]), url)
            except VerdexError:
                pass
            self._tab_notes.append(f"A new tab opened: tab {page.index} ({url}). Switch with 'tab {page.index}'.")
        for url in self.popups.closed_at_once(set(known)) if self.popups is not None else ():
            if url not in ("", "about:blank"):  # (one that showed no page: a download's, closed by the browser)
                self._tab_notes.append(f"A popup opened ({url}) and closed itself at once.")
        return new

    def _forget_popup(self, target_id: str) -> None:
        for key, page in list(self.pages.items()):
            if page.target.id == target_id:
                self.pages.pop(key).close()
                if self._page_counters.get(key[0]) == key[1] + 1:
                    self._page_counters[key[0]] = key[1]  # its index was never shown

    def scan_frames(self, page: Page) -> list:
        """Every frame of ``page`` from the frame trees (no snapshot): see FrameRegistry.scan; its
        out-of-process frames' targets (any depth), parents first, from one look at the browser's."""
        infos = [i for i in self._targets() if i.get("type") == "iframe"]
        inside, found = {page.target.id}, []
        while more := [i for i in infos if i["targetId"] not in inside and i.get("parentId") in inside]:
            inside.update(i["targetId"] for i in more)
            found += more
        return page.frames.scan(found)

    def after_failure(self, kind: str) -> str:
        """After a timed-out or cancelled command: stop the current tab's navigation if one is under
        way, so the next command runs on a settled page. Returns a sentence for the error message."""
        if kind not in (ErrorKind.TIMEOUT, ErrorKind.CANCELLED) or self.current not in self.pages:
            return ""
        if kind == ErrorKind.CANCELLED:  # Ctrl-C between two calls: the page's script is stopped all the same
            self.page.interrupt_scripts()
        return " The navigation under way was stopped." if self.page.stop_if_loading() else ""

    def before_command(self) -> None:
        """Before a command that may change a page: hear the current tab's document answers, so a
        navigation that becomes a download is known to (see Navigation._on_failed)."""
        self._end_watch()
        self.drop_targets_asked()
        self._command_started = time.monotonic()
        for page in self.pages.values():  # downloads asked for between commands are not this one's to await
            page.take_download_expectations()
        page = self.pages.get(self.current)
        if page is not None and page.target.alive:
            page.watch_responses()
            self._watched = page

    def _end_watch(self) -> None:
        page, self._watched = self._watched, None
        if page is not None and page.target.alive:
            page.unwatch_responses()

    def after_command(self) -> tuple[list[str], dict]:
        """What happened around the command, for its result: tabs the pages opened or closed,
        dialogs shown, downloads (waiting, bounded by the timeout, for those that began)."""
        notes: list[str] = []
        extra: dict = {}
        answered = False  # Target.getTargets answered on the browser session: no other call needed for sync
        try:
            self.discover()
            answered = True
        except VerdexError:
            pass  # the browser's own trouble is reported by the next command
        if self.downloads is not None:
            try:
                self.downloads.sync(self.browser(), list(self.pages.values()), self._command_started, answered)
            except VerdexError:
                pass
        self._end_watch()
        notes += self._tab_notes
        self._tab_notes = []
        dialogs = self.dialogs.drain()
        if dialogs:
            notes += [dialog_note(d) for d in dialogs]
            extra["dialogs"] = dialogs
        if self.downloads is not None and self.downloads.pending():
            more, records = self.downloads.collect(self.options.timeout)
            notes += more
            if records:
                extra["downloads"] = records
        return notes, extra

    def browser_tabs(self) -> list[dict]:
        """Tabs of the browser's default context that verdex did not open or adopt (with --connect):
        each with the index 'tab N' adopts it by."""
        if self.chrome.owned:
            return []
        ours = {p.target.id for p in self.pages.values()}
        contexts = {c for c in self.contexts.values() if c}
        rows = []
        for info in self._targets():
            tid = info["targetId"]
            if info.get("type") != "page" or tid in ours or info.get("browserContextId") in contexts:
                continue
            if info.get("openerId") in ours:
                continue  # a popup of ours: discover() adopts it
            if tid not in self._reserved:
                self._reserved[tid] = self._page_counters.get(0, 0)
                self._page_counters[0] = self._reserved[tid] + 1
            rows.append({"context": 0, "index": self._reserved[tid], "title": info.get("title", ""),
                         "url": info.get("url", ""), "current": False, "adopted": False})
        return sorted(rows, key=lambda r: r["index"])

    def _reserved_id(self, index: int) -> str | None:
        """The browser's own tab numbered ``index`` (numbered now, as 'tabs' would, if it has not run)."""
        if index not in self._reserved.values():
            self.browser_tabs()
        return next((t for t, i in self._reserved.items() if i == index), None)

    def _adopt(self, index: int) -> Page | None:
        target_id = self._reserved_id(index)
        if target_id is None:
            return None
        if not any(t.get("targetId") == target_id and t.get("type") == "page" for t in self._targets()):
            raise UsageError(f"Tab {index} of the browser is gone. 'tabs' lists them.")
        del self._reserved[target_id]
        return self.add_page(target_id, context=0, switch=False, index=index)

    def switch(self, index: int, context: int | None = None) -> Page:
        key = (self.current[0] if context is None else context, index)
        if key not in self.pages and key[0] == 0:
            self._adopt(index)
        if key not in self.pages:
            raise UsageError(f"There is no tab {index}. 'tabs' lists them.")
        self.current = key
        page = self.pages[key]
        page.bring_to_front()
        return page

    def close_tab(self, index: int) -> None:
        key = (self.current[0], index)
        page = self.pages.get(key)
        if page is None and key[0] == 0 and self._reserved_id(index) is not None:
            raise UsageError(f"Tab {index} is the browser's own (verdex did not open it): verdex never closes it.")
        if page is None:
            raise UsageError(f"There is no tab {index}. 'tabs' lists them.")
        if len(self.pages) == 1:
            raise UsageError("That is the last tab; use 'quit' to leave.")
        self._drop_tab(key)
        try:
            self.browser().call("Target.closeTarget", targetId=page.target.id)
        except VerdexError:
            pass
        if self.current == key:
            self._current_closed(key[0])

    def _drop_tab(self, key: tuple[int, int]) -> None:
        """Tab ``key`` is closed: its refs say so."""
        self.pages.pop(key).close()
        self._closed.add(key)

    def _current_closed(self, context: int) -> None:
        """The current tab was closed: the first tab of its context (or the first of all) becomes current."""
        self.current = min((k for k in self.pages if k[0] == context), default=min(self.pages))
        self.page.bring_to_front()

    def add_page(self, target_id: str, context: int = 0, switch: bool = True,
                 index: int | None = None) -> Page:
        target = self.browser().attach(target_id)  # before numbering: it may be gone already
        if index is None:
            index = self._page_counters.get(context, 0)
            self._page_counters[context] = index + 1
        page = Page(context, index, target, self.options.timeout, self.dialogs)
        self.pages[(context, index)] = page
        if switch:
            self.current = (context, index)
        return page

    @property
    def page(self) -> Page:
        page = self.pages[self.current]
        if not page.target.alive and len(self.pages) > 1:  # it closed itself since the last command
            try:
                self.discover()
            except VerdexError:
                pass
            page = self.pages[self.current]
        return page

    def close(self) -> None:
        for page in list(self.pages.values()):
            try:
                page.close()
            except Exception:
                pass
        self.pages.clear()
        browser = self.chrome.link
        if not self.chrome.owned and browser.alive:  # a browser we only attached to: only our own tabs go
            if self.downloads is not None:
                self.downloads.detach(browser)
            calls = [("Target.closeTarget", {"targetId": t}) for t in self._own_targets] + \
                [("Target.disposeBrowserContext", {"browserContextId": c}) for c in self.contexts.values() if c]
            for method, params in calls:
                try:
                    browser.call(method, timeout=2, interrupt=False, **params)
                except VerdexError:
                    pass
        browser.close()
        self.chrome.stop()
        if self.downloads is not None:
            self.downloads.close()
