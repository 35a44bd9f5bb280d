"""Outcomes across the socket: the server sends the whole Outcome to an attached REPL or `verdex mcp`
(:class:`Link`), which renders it with the one renderer (render.py), and renders it in advance for a
light client (:func:`render_for`), exactly as if the command had run in the client's own process."""

from __future__ import annotations

import io
import queue
import threading
import urllib.parse

from ..base.sanitize import clean, json_line
from ..commands.registry import Result
from ..commands.runner import Outcome, failure
from ..ui.render import Renderer, SafeConsole
from .names import NoSession
from .wire import Channel, cancel, run_message


def to_wire(o: Outcome) -> dict:
    """Every field of the Outcome and of its Result (the server and its clients are the same code)."""
    return {**vars(o), "result": vars(o.result) if o.result is not None else None}


def from_wire(d: dict) -> Outcome:
    return Outcome(**{**d, "result": Result(**d["result"]) if d["result"] else None})


class Link:
    """A session's channel read by a thread of its own (attach, mcp): :meth:`run` sends a line and waits for
    its outcome, however many wait at once; every other message goes to ``heard`` (None: the session ended)."""

    def __init__(self, channel: Channel, name: str, heard=None):
        self.channel, self.name, self.heard = channel, name, heard
        self.lock = threading.Lock()
        self.waiting: dict[int, queue.Queue] = {}
        self.next_id = 0
        self.ended = threading.Event()
        threading.Thread(target=self._read, daemon=True, name="session feed").start()

    def run(self, line: str, env: bool = False) -> Outcome:
        """``line``'s outcome (``env``: with the values its `--env VAR` names, ours). Ctrl-C while it runs
        cancels it in the session, and only it."""
        box: queue.Queue = queue.Queue(1)
        with self.lock:
            self.next_id += 1
            job_id = self.next_id
            self.waiting[job_id] = box
            try:
                if self.ended.is_set():
                    raise OSError
                self.channel.send(run_message(job_id, line) if env else {"op": "run", "id": job_id, "line": line})
            except OSError:
                del self.waiting[job_id]
                return failure(line, NoSession(self.name, f"Session '{self.name}' ended."))
        cancelled = False
        while True:
            try:
                msg = box.get(timeout=0.2)
            except queue.Empty:
                continue
            except KeyboardInterrupt:
                if not cancelled:
                    cancelled = True
                    cancel(self.channel, job_id)
                continue
            if msg is None:
                return failure(line, NoSession(self.name, f"Session '{self.name}' ended before '{clean(line)}' "
                                                          "finished."))
            return from_wire(msg["outcome"])

    def _read(self) -> None:
        while (msg := self.channel.recv()) is not None:
            box = self.waiting.pop(msg.get("id"), None) if msg.get("op") == "result" else None
            if box is not None:
                box.put(msg)
            elif self.heard is not None:
                self.heard(msg)
        with self.lock:
            self.ended.set()
            for box in self.waiting.values():
                box.put(None)
            self.waiting.clear()
        if self.heard is not None:
            self.heard(None)


def render_for(settings: dict, outcome: Outcome, extra: dict | None = None) -> tuple[str, str]:
    """The outcome as a one-shot run would print it for this client: (stdout, stderr) texts, JSON Lines (with
    ``extra`` keys such as ``queued_ms``) or text, coloured only for a colour terminal."""
    if settings.get("json"):  # what Renderer._json writes, without building two consoles per command
        return json_line({**outcome.as_json(), **(extra or {})}) + "\n", ""
    out, err = io.StringIO(), io.StringIO()
    width = int(settings.get("width") or 80)
    system = settings.get("color_system") or "standard"

    def console(buf, color: bool):
        return SafeConsole(file=buf, width=width, color_system=system if color else None,
                           force_terminal=color, no_color=not color, markup=False, emoji=False,
                           highlight=False, soft_wrap=True)

    Renderer(json_mode=bool(settings.get("json")), debug=bool(settings.get("debug")),
             console=console(out, bool(settings.get("color"))),
             err_console=console(err, bool(settings.get("err_color")))).show(outcome)
    return out.getvalue(), err.getvalue()


def masked_endpoint(url: str) -> str:
    """A --connect URL for `session list`: query values (and a password) shown as ***."""
    parts = urllib.parse.urlsplit(url if "://" in url else "http://" + url)
    query = "&".join(f"{k}=***" for k, _ in urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
    netloc = parts.netloc
    if parts.password is not None:
        netloc = netloc.replace(":" + parts.password + "@", ":***@", 1)
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, query, ""))
