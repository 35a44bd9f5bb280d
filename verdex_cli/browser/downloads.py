"""Downloads land in the session's own directory, never in ~/Downloads, and are reported.

Chrome saves each download under its GUID (``allowAndName``); once complete the file is renamed
to a safe form of the name the page suggested (unique in the directory).

A browser on another machine (``--connect``) saves into that path on *its* machine. A download counts
as here only when the file the browser reports is found here, at the path it names (the GUID); otherwise
it is reported as on the browser's machine, by its path there and GUID, never as a local file.

A click that asks for a download without navigating (a link with the ``download`` attribute: blob:,
data: or a server's file) is announced by the browser only once the file answers, which may be after
the command that caused it (an ``eval``, a handler that clicks a script-made link) has returned. A
listener (engine/download_watch.js) in an isolated world of every document of the tab tells verdex at
once, through a binding, so the command waits for that download to begin (bounded by --timeout). The
page cannot see the world or the binding.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, UsageError
from . import bridge
from .launch import WATCHDOG, watchdog_env

WORLD = "verdex-downloads"
BINDING = "__verdexDownloadAsked"


@dataclass
class Download:
    guid: str
    url: str
    suggested: str
    state: str = "inProgress"
    received: int = 0
    total: int = 0
    chrome_path: str = ""
    reported_waiting: bool = False
    frame_id: str = ""  # the frame (or popup) that started it
    began_at: float = 0.0  # time.monotonic() when the browser announced it


def hear_clicks(target) -> None:
    """Install the download link listener in the tab's documents, present and future (same-process
    frames included)."""
    try:
        target.call("Runtime.addBinding", name=BINDING, executionContextName=WORLD)
        bridge.ask(target, bridge.document_script("download_watch", BINDING, world=WORLD))
    except (CDPError, CDPTimeout):
        pass  # an older browser: such downloads are reported when they begin within the command


def human_size(n: int) -> str:
    if n < 1024:
        return f"{n} byte{'s' if n != 1 else ''}"
    for unit in ("KB", "MB", "GB"):
        n /= 1024.0
        if n < 1024 or unit == "GB":
            return f"{n:.1f} {unit}"
    return f"{n:.1f} GB"  # pragma: no cover


def safe_name(suggested: str) -> str:
    """A plain file name: no directories, no control characters, no leading dots."""
    name = re.split(r"[/\\]", suggested or "")[-1]
    name = re.sub(r"[\x00-\x1f\x7f-\x9f]", "_", name).strip().lstrip(".")
    return name[:200] or "download"


class Downloads:
    def __init__(self, directory: str | None = None):
        if directory:
            path = Path(directory).expanduser()
            if path.exists() and not path.is_dir():
                raise UsageError(f"--downloads {directory}: not a directory.")
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise UsageError(f"--downloads {directory}: {exc.strerror or exc}.") from exc
            self.directory, self.owned = path.resolve(), False
        else:
            self.directory, self.owned = Path(tempfile.mkdtemp(prefix="verdex-downloads-")), True  # mode 0700
        self._guard = _guard(self.directory) if self.owned else None
        self._items: dict[str, Download] = {}
        self._unreported: list[str] = []
        self._expected: list[tuple[str | None, float]] = []  # (frame id or None for any, since): see expect()
        self._lock = threading.Lock()

    def attach(self, browser_target) -> None:
        """Route the browser's downloads here and listen to their progress."""
        browser_target.on("Browser.downloadWillBegin", self._on_begin)
        browser_target.on("Browser.downloadProgress", self._on_progress)
        self.route(browser_target)

    def route(self, browser_target, context_id: str | None = None) -> None:
        """Send the downloads of one browser context (default: the browser's default one) here."""
        params = {"browserContextId": context_id} if context_id else {}
        try:
            browser_target.call("Browser.setDownloadBehavior", behavior="allowAndName",
                                downloadPath=str(self.directory), eventsEnabled=True, **params)
        except (CDPError, CDPTimeout):
            pass

    def detach(self, browser_target) -> None:
        """Give the browser its own download behaviour back (when verdex only attached to it)."""
        try:
            browser_target.call("Browser.setDownloadBehavior", timeout=2, behavior="default")
        except Exception:  # closing must not fail
            pass

    # -- events (the session's event thread) ----------------------------------------------------
    def _on_begin(self, guid: str = "", url: str = "", suggestedFilename: str = "", frameId: str = "", **_):
        with self._lock:
            if guid not in self._items:
                self._items[guid] = Download(guid, url, suggestedFilename, frame_id=frameId,
                                             began_at=time.monotonic())
                self._unreported.append(guid)

    def _on_progress(self, guid: str = "", totalBytes: float = 0, receivedBytes: float = 0, state: str = "",
                     filePath: str = "", **_):
        with self._lock:
            item = self._items.get(guid)
            if item is None:
                return
            item.state, item.received, item.total = state or item.state, int(receivedBytes), int(totalBytes)
            if filePath:
                item.chrome_path = filePath

    # -- reporting ------------------------------------------------------------------------
    def expect(self, frame_id: str | None, since: float) -> None:
        """A download was asked for (a navigation of ``frame_id`` became one, or a click on a download
        link in any frame: None) during the command that began at ``since``: the browser announces it
        a moment later."""
        with self._lock:
            self._expected.append((frame_id, since))

    def sync(self, browser_target, pages, since: float, answered: bool = False) -> None:
        """Take the tabs' expectations (see Navigation.take_download_expectations) and hear every
        download the browser announced so far: its events come before the answer to a call on its
        session (``answered``: one was just answered, Target.getTargets in Session.discover; else one
        is made)."""
        for page in pages:
            for frame_id in page.take_download_expectations():
                self.expect(frame_id, since)
        try:
            if not answered:
                browser_target.call("Browser.getVersion", timeout=2)
            browser_target.drain_events()
        except (CDPError, CDPTimeout, ConnectionLost):
            pass

    def _unmet(self) -> list[tuple[str | None, float]]:
        """Expectations no download has met yet (each download meets one)."""
        free = list(self._items.values())
        unmet = []
        for frame_id, since in sorted(self._expected, key=lambda e: e[0] is None):  # exact frames first
            match = next((i for i in free if i.began_at >= since and frame_id in (None, i.frame_id)), None)
            if match is None:
                unmet.append((frame_id, since))
            else:
                free.remove(match)
        return unmet

    def pending(self) -> bool:
        with self._lock:
            return bool(self._unreported or self._expected)

    def collect(self, timeout: float) -> tuple[list[str], list[dict]]:
        """Wait (bounded) for expected downloads to begin and for those that began to finish; notes
        and records for the result."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                waiting = self._unmet()
                busy = [g for g in self._unreported if self._items[g].state == "inProgress"]
            if not busy and not waiting:
                break
            time.sleep(0.02)
        notes, records = [], []
        with self._lock:
            missing, self._expected = self._unmet(), []
        if missing:
            notes.append(f"The page asked for {len(missing)} download{'s' if len(missing) > 1 else ''} that did not "
                         f"begin within {timeout:g} s.")
        with self._lock:
            guids, keep = list(self._unreported), []
        for guid in guids:
            item = self._items[guid]
            name, state = safe_name(item.suggested), item.state
            record = {"name": name, "path": None, "size": item.received, "url": item.url, "state": state}
            if state == "completed" and not self._source(item).is_file():  # the file is on the browser's machine
                there = str(self._source(item))
                notes.append(f"{name} ({human_size(item.received)}) was downloaded on the browser's machine, not "
                             f"this one: it is {there} there.")
                records.append(dict(record, remote_path=there, guid=item.guid))
            elif state == "completed":
                path = self._finish(item)
                size = path.stat().st_size if path.exists() else item.received
                notes.append(f"downloaded {path.name} ({human_size(size)}) to {path}")
                records.append(dict(record, name=path.name, path=str(path), size=size))
            elif state == "canceled":
                notes.append(f"The download of {name!r} was cancelled.")
                records.append(record)
            else:
                keep.append(guid)
                if not item.reported_waiting:
                    item.reported_waiting = True
                    total = f" of {human_size(item.total)}" if item.total else ""
                    notes.append(f"{name!r} is still downloading ({human_size(item.received)}"
                                 f"{total} after {timeout:g} s) to {self.directory}; a later command reports it.")
                    records.append(dict(record, state="in_progress"))
        with self._lock:
            self._unreported = keep + [g for g in self._unreported if g not in guids]
        return notes, records

    def _source(self, item: Download) -> Path:
        """Where the browser says it saved the file (on its own machine)."""
        return Path(item.chrome_path) if item.chrome_path else self.directory / item.guid

    def _finish(self, item: Download) -> Path:
        src = self._source(item)
        name = safe_name(item.suggested)
        stem, dot, ext = name.rpartition(".") if "." in name else (name, "", "")
        dest, n = self.directory / name, 1
        while dest.exists():
            dest = self.directory / (f"{stem} ({n}).{ext}" if dot else f"{name} ({n})")
            n += 1
        try:
            os.replace(src, dest)
        except OSError:
            return src
        return dest

    def close(self) -> None:
        if self.owned:
            shutil.rmtree(self.directory, ignore_errors=True)
        guard, self._guard = self._guard, None
        if guard is not None:
            try:
                guard.stdin.close()  # the guard ends (the folder is gone already); not waited for
            except OSError:
                pass


def _guard(directory: Path) -> subprocess.Popen | None:
    """A watchdog that removes our private folder when this process ends, even by SIGKILL (its stdin
    pipe then closes). In a session of its own, so the terminal's Ctrl-C never reaches it."""
    try:
        return subprocess.Popen([*WATCHDOG, "--remove", str(directory)], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=watchdog_env(),
                                start_new_session=True)
    except OSError:  # without it the folder is still removed on every ordinary exit
        return None
