"""Navigation of one tab: HTTP status, load waiting, and stopping what was cancelled or timed out.

A mixin of :class:`verdex_cli.browser.page.Page` (it uses the page's target, frames and timeout).
"""

from __future__ import annotations

import http
import time
from contextlib import contextmanager
from typing import Callable
from urllib.parse import urlparse

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, NavigationFailed, VerdexError
from ..base.timing import phase
from ..base.words import counted
from . import bridge

# Chrome shows its own error page for an empty 4xx/5xx answer; the server did answer, so it is a page.
HTTP_ERROR_PAGE = "net::ERR_HTTP_RESPONSE_CODE_FAILURE"
ABORTED = "net::ERR_ABORTED"  # also what a navigation that became a download ends with
# once the document is ready (DOMContentLoaded), 'load' is waited for at most this long, as Playwright's
# navigate does: the rest of what a page fetches (far hosts that do not answer) goes on loading
LOAD_AFTER_CONTENT = 5.0


class Navigation:
    unload_refused: int = -1  # the navigation count when this tab's leave-page dialog was last dismissed
    content_at: float = 0.0  # monotonic time the main document was ready (DOMContentLoaded); 0: not yet
    # -- events (the session's event thread) ---------------------------------------------------
    def _on_load(self, **_):
        self._load_event.set()

    def _on_content(self, **_):
        self.content_at = time.monotonic()

    def _on_requested(self, frameId: str = "", disposition: str = "currentTab", **_):
        if frameId == self.frames.main_id and disposition == "currentTab":
            self._began(time.monotonic())  # loading starts a moment later (or never: cancelled)

    def _on_started(self, frameId: str = "", **_):
        if frameId == self.frames.main_id:
            self._doc_failed = ""
            self._began(0.0)
            self._loading = True

    def _began(self, requested_at: float) -> None:
        if not self._loading:
            self._commits_at_start = self._commits  # (a navigation a dismissed dialog cancels never starts)
        self.nav_count += 1
        self._requested_at = requested_at
        self._load_event.clear()
        self.content_at = 0.0

    def _on_navigating(self, frameId: str = "", navigationType: str = "", **_):
        """Page.frameStartedNavigating (newer Chrome; any initiator): a navigation to another document began."""
        if frameId == self.frames.main_id and navigationType not in ("sameDocument", "historySameDocument"):
            self.nav_count += 1

    def _on_stopped(self, frameId: str = "", **_):
        if frameId == self.frames.main_id:
            self._loading = False
            self._requested_at = 0.0

    def on_dialog_answered(self, record: dict) -> None:
        """A dialog of this tab is being answered: a dismissed leave-page dialog cancels the navigation."""
        if record["type"] == "beforeunload" and not record["accepted"]:
            self.unload_refused = self.nav_count

    def _refused_since(self, nav_before: int) -> bool:
        """Was a navigation begun after ``nav_before`` cancelled by a dismissed leave-page dialog?"""
        self.target.drain_events()
        return self.unload_refused > nav_before

    def _requested_recently(self) -> bool:
        """A navigation was requested under a second ago, and the page's leave-page dialog was not
        dismissed since (it may start loading a moment later)."""
        at = self._requested_at
        return at > 0 and time.monotonic() - at < 1.0 and self.unload_refused < self.nav_count

    def _busy(self) -> bool:
        """Loading, or a navigation was requested and has not started yet."""
        return self._loading or self._requested_recently()

    def _on_committed(self, frame: dict | None = None, **_):
        if frame and not frame.get("parentId"):
            self._commits += 1

    def _on_response(self, type: str = "", frameId: str = "", loaderId: str = "", response: dict | None = None, **_):
        if type == "Document" and response:
            self._answered[loaderId] = (frameId, int(response.get("status") or 0))
            if frameId == self.frames.main_id:
                self._doc_status[loaderId] = int(response.get("status") or 0)
                self._last_doc_loader = loaderId

    def _on_doc_request(self, requestId: str = "", type: str = "", frameId: str = "", **_):
        if type == "Document" and frameId:
            self._doc_request[frameId] = requestId

    def _on_failed(self, requestId: str = "", type: str = "", errorText: str = "", **_):
        """A document that was answered (with content: not 204/205) and then aborted instead of
        shown: Chrome turned it into a download, which begins a moment later -- unless a newer
        navigation of the same frame replaced it (a second click on the same link). The main
        frame's document that failed to load (an unreachable host): its error, for the note."""
        if type == "Document" and errorText != ABORTED and self._doc_request.get(self.frames.main_id) == requestId:
            self._doc_failed = errorText
        answered = self._answered.pop(requestId, None) if type == "Document" else None
        if answered and self._doc_request.get(answered[0], requestId) != requestId:
            return  # superseded, not saved
        if answered and errorText == ABORTED and answered[1] not in (204, 205):
            self.downloads_expected.append((answered[0], requestId))

    def take_download_expectations(self) -> list[str | None]:
        """Frames whose navigation became a download since the last call, None for a click on a
        download link in any frame (see downloads.py)."""
        out, self.downloads_expected = self.downloads_expected, []
        return [frame for frame, _ in out]

    # -- status -------------------------------------------------------------------------
    @contextmanager
    def _watching_responses(self):
        self._doc_status.clear()
        self._last_doc_loader = None
        self._load_event.clear()
        self.watch_responses()
        try:
            yield
        finally:
            self.unwatch_responses()

    def watch_responses(self) -> None:
        """Hear the answers to documents (HTTP status; a navigation that became a download) until
        the matching :meth:`unwatch_responses`; nests."""
        self._watchers += 1
        if self._watchers == 1 and not self.target.crashed:  # a crashed tab answers only its revival
            try:  # not waited for: a page busy with its own script must not hold the command up
                self.target.hold_network()
                self._network_on = True
            except VerdexError:  # a closed tab: nothing to hear
                pass

    def unwatch_responses(self) -> None:
        self._watchers = max(0, self._watchers - 1)
        if self._watchers == 0 and self._network_on:
            self._network_on = False
            try:
                self.target.drain_events()  # an abort heard before the domain goes quiet
            except VerdexError:
                pass
            self.target.release_network()
            self._answered.clear()

    def _status(self, url: str, loader: str | None) -> int | None:
        if urlparse(url).scheme not in ("http", "https"):
            return None
        self.target.drain_events()
        code = self._doc_status.get(loader or self._last_doc_loader or "")
        if code:
            return code
        try:  # restored from the back/forward cache, or the event was missed: ask the document
            code = self.bridge.nav_status(self.frames.main, timeout=min(self.timeout, 2.0))
        except Exception:
            code = None
        return int(code) if code else None

    # -- commands ------------------------------------------------------------------------
    def stop_loading(self) -> None:
        try:
            self.target.call("Page.stopLoading", timeout=2)
            self._loading = False
        except (CDPError, CDPTimeout, ConnectionLost):
            pass

    @property
    def navigation_pending(self) -> bool:
        """A main-frame navigation started and has not committed yet (Chrome holds script calls)."""
        return self._requested_recently() or (self._loading and self._commits == self._commits_at_start)

    def stop_if_loading(self) -> bool:
        """Stop a navigation still under way (Chrome holds every script call until it commits)."""
        try:
            self.target.drain_events(0.1)
        except Exception:
            return False
        if not self._loading:
            return False
        self.stop_loading()
        return True

    def navigate(self, url: str) -> dict:
        asked = self.nav_count
        with self._watching_responses():
            try:  # stopped when it fails or times out (Ctrl-C too: it must not land later)
                res = self._guarded(lambda: self.target.call("Page.navigate", url=url))
            except CDPTimeout:
                raise CDPTimeout(f"{url} did not answer within {self.timeout:g} s; the navigation was stopped "
                                 "and the tab stays where it was.", method="Page.navigate") from None
            error = res.get("errorText")
            if error == ABORTED and self._refused_since(asked):
                return self._stayed(self.cancelled_note)
            if error == ABORTED and self._became_download(res.get("loaderId")):
                self._doc_status.pop(res.get("loaderId") or "", None)
                self._last_doc_loader = None  # the status is the page's that stays
                return self._stayed(lambda here: f"{url} is a file to save, not a page: the tab stays on {here}.")
            if error and not (error == HTTP_ERROR_PAGE and res.get("loaderId")):
                raise NavigationFailed(f"Could not open {url}: {error}")
            if res.get("loaderId") is None:  # a fragment of the same document
                return self._same_document()
            return self._after_navigation(res.get("loaderId"), asked)

    def reload(self) -> dict:
        before = None if self.target.crashed else self.frames.current_loader(self.frames.main)
        info = self._go("Page.reload", ignoreCache=False)
        after = self.frames.current_loader(self.frames.main)
        if before and after and after[0] != before[0]:
            self._reloads[after[0]] = before[0]
        return info

    def history_step(self, delta: int) -> dict:
        hist = self.target.call("Page.getNavigationHistory")
        index = hist["currentIndex"] + delta
        entries = hist["entries"]
        if not 0 <= index < len(entries):
            word = "previous" if delta < 0 else "next"
            raise NavigationFailed(f"There is no {word} page in this tab's history.")
        commits = self._commits
        info = self._go("Page.navigateToHistoryEntry", entryId=entries[index]["id"])
        if self._commits == commits and not info.get("stayed"):  # a step between entries of one document
            return self._same_document()
        return info

    def _go(self, method: str, **params) -> dict:
        """A navigation that ``method`` asks for, waited for: as :meth:`_after_navigation`."""
        asked = self.nav_count
        with self._watching_responses():
            self._guarded(lambda: self.target.call(method, **params))
            return self._after_navigation(None, asked)

    def _became_download(self, loader: str | None) -> bool:
        self.target.drain_events()
        return any(frame == self.frames.main_id and (loader is None or req == loader)
                   for frame, req in self.downloads_expected)

    @staticmethod
    def cancelled_note(here: str) -> str:
        return (f"The page asked to confirm leaving and the dialog was dismissed: the navigation was cancelled "
                f"and the tab stays on {here}.")

    def _stayed(self, note: Callable[[str], str]) -> dict:
        """A navigation that did not happen: ``open`` of a file the browser saves instead of showing
        (the session reports the download with this command), or one the page's leave-page dialog
        cancelled. ``note(url)``: what happened, given the URL the tab stays on."""
        info = self.info(refresh=True)
        info["status"] = self._status(info["url"], "")
        info["notes"] = [note(info["url"])]
        info["stayed"] = True
        return info

    def _same_document(self) -> dict:
        """A step within the same document (a fragment, a pushState history entry): nothing was loaded,
        so there is no HTTP status."""
        self.target.drain_events()  # the document's new URL (Page.navigatedWithinDocument)
        info = self.info(refresh=True)
        info.update(status=None, same_document=True, notes=[])
        return info

    def _guarded(self, fn):
        try:
            return fn()
        except BaseException:
            self.stop_loading()
            raise

    def _after_navigation(self, loader: str | None, asked: int) -> dict:
        """A navigation asked for when the navigation count was ``asked`` (its document's ``loader``
        when known): wait for it to load; the tab's URL, title and HTTP status."""
        notes = []
        if not self._guarded(lambda: self.wait_for_load(self.timeout)):
            notes.append(self._unloaded())
        if self._refused_since(asked) and self._commits == self._commits_at_start:
            return self._stayed(self.cancelled_note)
        info = self.info(refresh=True)
        status = self._status(info["url"], loader)
        info["status"] = status
        notes += _status_note(status)
        info["notes"] = notes
        return info

    def reloaded_since(self, old_loader: str | None, new_loader: str | None) -> bool:
        """Did the main document ``new_loader`` come from reloading ``old_loader`` (with 'reload')?"""
        seen = 0
        while new_loader in self._reloads and seen < 100:
            new_loader = self._reloads[new_loader]
            if new_loader == old_loader:
                return True
            seen += 1
        return False

    def _unloaded(self, stopped: str = "") -> str:
        """A navigation's note when its page had not loaded: still loading once LOAD_AFTER_CONTENT went
        by after its document was ready (it goes on: how many requests are still out), or stopped at the
        timeout (``stopped``: the note then)."""
        if self.content_at and time.monotonic() - self.content_at >= LOAD_AFTER_CONTENT:
            doc = len(self.netlog.docs) - 1
            with self.netlog.lock:
                out = sum(1 for r in self.netlog.requests if r.doc == doc and not r.answered)
            return (f"The page was still loading {LOAD_AFTER_CONTENT:g} s after its document was ready "
                    f"({counted(out, 'request')} still out); it goes on loading ('requests' lists them).")
        self.stop_loading()
        return stopped or f"The page did not finish loading within {self.timeout:g} s; loading was stopped."

    def wait_for_load(self, timeout: float) -> bool:
        """Wait for the load event, at most LOAD_AFTER_CONTENT once the document is ready; a page that
        stopped loading and is complete counts too."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < (min(deadline, self.content_at + LOAD_AFTER_CONTENT) if self.content_at else deadline):
            if self._load_event.wait(0.05):
                return True
            if self._busy():
                continue
            try:
                state = bridge.ask(self.target, bridge.page_read("readyState"), max(0.5, deadline - time.monotonic()))
                if state.get("result", {}).get("value") == "complete" and not self._busy():
                    return True
            except CDPTimeout:
                return False
            except CDPError:
                pass
            time.sleep(0.05)
        return False

    def settle_after_action(self, nav_before: int, grace: float = 0.0, until=None, acted: bool = False) -> list[str]:
        """After an input action: if it started a navigation, wait for it to load (or stop it).

        The protocol says whether one started (``Page.frameRequestedNavigation``, ``frameStartedLoading``
        and ``frameStartedNavigating``, queued before the reply of the call that caused them). A
        navigation the page starts a moment later (a timer, a form submitted from a task) is waited for
        with a ``grace`` (seconds) and ``until(limit, stop)`` (the page settling, changes.settle: the
        timers the input set have run, so one that navigates is seen) only until the page has settled.
        ``acted``: ``settle.acted_at`` was set when the input was sent."""
        if not acted:
            self.settle.acted()  # the input is sent: settling (changes.py) counts from here
        started = lambda: self.nav_count != nav_before  # noqa: E731
        with phase("navigation check"):
            self.target.drain_events()
            if not started() and grace > 0:
                until(grace, started)
                self.target.drain_events()
        notes = []
        if started():
            if not self._guarded(lambda: self.wait_for_load(self.timeout)):
                notes.append(self._unloaded(f"The navigation did not finish within {self.timeout:g} s; it was stopped."))
            self.frames.refresh()
            if self._commits != self._commits_at_start:
                url = self.info()["url"]
                notes.append(f"Navigated to {url}")
                failed = self._doc_failed
                notes += [f"The browser could not load it: {failed}."] if failed else _status_note(self._status(url, None))
            elif self._refused_since(nav_before):
                notes.append(self.cancelled_note(self.info()["url"]))
        return notes


def _status_note(status: int | None) -> list[str]:
    """The note for a document answered with an error status (4xx/5xx)."""
    if not status or status < 400:
        return []
    try:
        phrase = " " + http.HTTPStatus(status).phrase
    except ValueError:
        phrase = ""
    return [f"The server answered {status}{phrase}."]
