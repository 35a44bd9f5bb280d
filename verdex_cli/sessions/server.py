"""The session server (``python -m verdex_cli.sessions.server``, started by `session start`): one
process per name, holding the browser and the workspace; settings on stdin, one ready line on stdout.
Every client's commands run one at a time, in arrival order, in the main thread (runner.execute). A
client's ``cancel`` interrupts only its own command (SIGINT while it runs), then stops a page script
still running. A launched browser's watchdog has this process as parent: a SIGKILL takes it along."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import sys
import threading
import time
from contextlib import suppress

from . import names
from ..app.wiring import AppOptions, make_workspace, open_first
from ..base.errors import BROWSER_LOST_MESSAGE, ErrorKind, VerdexError
from ..commands.runner import Outcome, execute, failure, parse_all
from ..browser.busy import stop_busy_scripts
from ..ui.repl.app import status_of
from .clients import Client, Job, same_user_peer
from .outcomes import masked_endpoint, render_for, to_wire
from .tabs import ClientTabs


class SessionServer:
    def __init__(self, name: str, directory: str, opts: AppOptions, idle_minutes: float):
        self.name, self.directory, self.opts = name, directory, opts
        self.idle_s = max(0.0, idle_minutes) * 60.0
        self.ctx = make_workspace(opts)
        self.show_changes = self.ctx.show_changes
        self.jobs: queue.Queue = queue.Queue()
        self.clients: list[Client] = []
        self.clients_lock = threading.Lock()
        self.cancel_lock = threading.Lock()
        self.current: Job | None = None
        self.tabs = ClientTabs()
        self.interruptible = False
        self.stopping = False
        self.last_spoke = time.monotonic()
        self.lost_noticed = False
        self.lock_fd: int | None = None
        self.listener: socket.socket | None = None
        self.sock_path = names.socket_path(name, directory)

    def _file(self, suffix: str) -> str:
        return names.file_path(self.name, self.directory, suffix)

    # -- start-up --------------------------------------------------------------------------------
    def claim(self) -> None:
        """Hold the name (its lock) and listen on its socket (0600); UsageError when it is taken."""
        lock = self._file(".lock")
        deadline = time.monotonic() + 0.5  # `session list` may hold a stale lock for a moment
        while (fd := names.take_lock(lock)) is None:
            if time.monotonic() > deadline:
                raise VerdexError(f"Session '{self.name}' is already running.", ErrorKind.USAGE)
            time.sleep(0.02)
        self.lock_fd = fd
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        # an earlier server's end is history now; a dead server's socket a leftover (we hold the name now)
        names.remove(self._file(".ended"), self.sock_path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)  # the socket is born 0600: no moment in which others could connect
        try:
            listener.bind(self.sock_path)
        finally:
            os.umask(old)
        os.chmod(self.sock_path, 0o600)
        listener.listen(64)
        self.listener = listener

    # -- the main loop -----------------------------------------------------------------------------
    def serve(self) -> str:
        """Run commands until stopped or idle; the reason it ended."""
        self.main_ident = threading.get_ident()
        signal.signal(signal.SIGINT, self._on_sigint)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self._on_terminate)
        threading.Thread(target=self._accept, daemon=True, name="accept").start()
        self.last_spoke = time.monotonic()  # idle from now: the browser's start-up is no idle time
        reason = "stopped"
        while not self.stopping:
            wait = self._until_idle()
            if wait <= 0:
                reason = "idle"
                break
            try:
                job = self.jobs.get(timeout=min(wait, 0.5))
            except queue.Empty:
                self._watch_browser()
                continue
            if callable(job):  # (None: a wake-up)
                job()
            elif job is not None:
                self._run(job)
        return reason

    def _until_idle(self) -> float:
        """Seconds until the idle timeout; never while a client is connected (an attached REPL, a live
        `--script -`): the time counts from when the last one spoke or left."""
        if self.idle_s <= 0 or any(c.introduced for c in self._clients()):
            return 3600.0
        return self.idle_s - (time.monotonic() - self.last_spoke)

    def note_idle_end(self) -> None:
        """Say, for the next client of this name, why the session is gone."""
        minutes = self.idle_s / 60.0
        text = (f"ended at {time.strftime('%H:%M:%S')} after {minutes:g} minutes without a client "
                "(--idle-timeout)")
        with suppress(OSError):
            fd = os.open(self._file(".ended"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)

    def _on_sigint(self, signum, frame):
        if self.interruptible:  # only a client's cancel of the running command (see _cancel)
            raise KeyboardInterrupt

    def _on_terminate(self, signum, frame):
        self.stopping = True
        if self.interruptible:
            raise KeyboardInterrupt

    def _run(self, job: Job) -> None:
        client = job.client
        if client.gone:
            client.pending.pop(job.id, None)
            return
        ctx = self.ctx
        ctx.trace = bool(client.settings.get("trace"))
        ctx.show_changes = self.show_changes and not client.settings.get("no_changes")
        ctx.interactive = client.kind == "attach"
        ctx.environ = {str(k): str(v) for k, v in job.env.items()} if isinstance(job.env, dict) else {}
        ctx.progress = (lambda text: client.send({"op": "progress", "text": text})) if ctx.interactive else None
        outcome = None
        cwd = client.settings.get("cwd")
        try:
            os.chdir(cwd)  # relative paths (open, screenshot, upload) are the client's
        except (OSError, TypeError):  # never another client's folder: the command is refused
            os.chdir("/")
            outcome = Outcome(job.line, False, kind=ErrorKind.USAGE,
                              message=f"This client's working folder ({cwd or 'unknown'}) is gone; run verdex from "
                                      "an existing folder.")
        job.queued_ms = round((time.monotonic() - job.arrived) * 1000.0, 1)
        self.current = job
        client.send({"op": "started", "id": job.id})
        try:
            with self.cancel_lock:
                self.interruptible = True
                cancelled = job.cancel
            if cancelled:
                raise KeyboardInterrupt
            if outcome is None:
                moved = self.tabs.enter(ctx.session, client)
                try:
                    outcome = execute(ctx, job.line)
                finally:
                    self.tabs.leave(ctx.session, client)
                _tell(outcome, moved)
        except KeyboardInterrupt:
            pass
        finally:
            self.interruptible = False
            self.current = None
        if outcome is None:
            outcome = Outcome(job.line, False, kind=ErrorKind.CANCELLED, message="Cancelled.")
        if self.stopping and outcome.kind == ErrorKind.CANCELLED:  # not this client's Ctrl-C: say whose stop
            outcome.message = f"Cancelled: session '{self.name}' is stopping ('verdex session stop')."
        quit_asked, ctx.quit_requested = ctx.quit_requested, False  # a client's quit ends that client only
        client.pending.pop(job.id, None)
        self.last_spoke = time.monotonic()
        self._reply(job, outcome, quit_asked)

    def _reply(self, job: Job, outcome: Outcome, quit_asked: bool) -> None:
        wired = to_wire(outcome)
        msg = {"op": "result", "id": job.id, "ok": outcome.ok, "exit": int(outcome.exit_status), "quit": quit_asked,
               "queued_ms": job.queued_ms}
        if job.client.kind in ("attach", "mcp"):  # each paints it itself
            msg["outcome"] = wired
        else:
            msg["out"], msg["err"] = render_for(job.client.settings, outcome, {"queued_ms": job.queued_ms})
        job.client.send(msg)
        watchers = [c for c in self._clients() if c.kind == "attach"]
        for c in watchers:
            if c is not job.client:
                c.send({"op": "feed", "who": job.client.who, "outcome": wired})
        if watchers:
            self._send_status(watchers)

    def _send_status(self, clients: list[Client]) -> None:
        for c in clients:  # each sees its own tab
            with self.tabs.viewing(self.ctx.session, c):
                c.send({"op": "status", **status_of(self.ctx)})

    def _stop_page_script(self) -> None:
        """On a cancel: a document of the current tab whose script still runs has it stopped, as a
        time-out does (browser/busy.py); a tab that answers at once is left alone."""
        session = self.ctx.session
        if session is not None and session.current in session.pages:
            stop_busy_scripts(session.pages[session.current].target)

    def _watch_browser(self) -> None:
        """Between commands: tell attached clients at once when the browser died."""
        session = self.ctx.session
        alive = session is None or session.chrome.alive()
        if not alive and not self.lost_noticed:
            for c in self._clients():
                if c.kind == "attach":
                    c.send({"op": "notice", "text": BROWSER_LOST_MESSAGE})
        self.lost_noticed = not alive

    # -- clients ---------------------------------------------------------------------------------------
    def _clients(self) -> list[Client]:
        with self.clients_lock:
            return [c for c in self.clients if not c.gone]

    def _accept(self) -> None:
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            pid = same_user_peer(sock)
            if pid is None:
                sock.close()
                continue
            client = Client(sock, pid)
            with self.clients_lock:
                self.clients.append(client)
            threading.Thread(target=self._serve_client, args=(client,), daemon=True, name=f"client {pid}").start()

    def _serve_client(self, client: Client) -> None:
        try:
            while (msg := client.channel.recv()) is not None:
                if msg.get("op") != "info":  # `session list` looking in does not keep a session alive
                    self.last_spoke = time.monotonic()
                self._handle(client, msg)
        finally:
            client.gone = True
            if client.introduced:
                self.last_spoke = time.monotonic()  # the idle time counts from its leaving
            with self.clients_lock:
                if client in self.clients:
                    self.clients.remove(client)
            for job in list(client.pending.values()):  # a client that left cancels what it asked for
                self._cancel(job)
            client.channel.close()
            if client.owner:
                self.stopping = True
                self.jobs.put(None)

    def _handle(self, client: Client, msg: dict) -> None:
        op = msg.get("op")
        if op == "hello":
            client.introduced = True
            client.kind = msg.get("kind") if msg.get("kind") in ("attach", "mcp") else "run"
            client.owner = bool(msg.get("owner"))  # the session ends when this client goes (verdex mcp's own)
            client.settings = msg
            welcome = {"op": "welcome", "name": self.name, "pid": os.getpid(), "ok": True, "timeout": self.opts.timeout}
            # every line of the invocation is parsed before any runs, as in one-shot mode; the client
            # sends its first `run` right behind its hello (one round trip), dropped if a line is bad
            bad = parse_all([str(x) for x in msg.get("check") or ()])
            if bad is not None:
                client.rejected = True
                welcome.update(ok=False, exit=int(bad.exit_status))
                welcome["out"], welcome["err"] = render_for(client.settings, bad)
            client.send(welcome)
            if client.kind == "attach":
                self.jobs.put(lambda: self._send_status([client]))
        elif op == "run" and not client.rejected:
            job = Job(client, msg.get("id"), str(msg.get("line", "")), msg.get("env") or {})
            client.pending[job.id] = job
            ahead = self.current
            self.jobs.put(job)
            if ahead is not None and ahead.client is not client:  # it waits: say behind what
                client.send({"op": "queued", "id": job.id, "behind": ahead.describe()})
        elif op == "cancel":
            job = client.pending.get(msg.get("id"))
            if job is not None:
                self._cancel(job)
        elif op == "info":
            client.send({"op": "info", **self.info(client)})
        elif op == "stop":
            self.stopping = True
            for c in self._clients():
                for job in list(c.pending.values()):
                    self._cancel(job)
            self.jobs.put(None)
            client.send({"op": "stopping"})

    def _cancel(self, job: Job) -> None:
        with self.cancel_lock:
            job.cancel = True
            if self.current is job and self.interruptible and not job.signalled:
                job.signalled = True
                signal.pthread_kill(self.main_ident, signal.SIGINT)
                # at once, beside the command: a page busy in a script would keep the cancelled command
                # (and the runner's stop-navigation check after it) waiting for the page
                threading.Thread(target=self._stop_page_script, daemon=True, name="cancel").start()

    def info(self, asking: Client | None = None) -> dict:
        session = self.ctx.session
        others = [c for c in self._clients() if c is not asking]
        browser = "launched" if not self.opts.connect else masked_endpoint(self.opts.connect)
        if session is not None and not session.chrome.alive():
            browser += " (gone)"
        return {"name": self.name, "pid": os.getpid(), "browser": browser,
                "tabs": len(session.pages) if session is not None else 0,
                "clients": len(others), "attached": sum(1 for c in others if c.kind == "attach"),
                "idle_s": round(time.monotonic() - self.last_spoke, 1), "busy": self.current is not None,
                "running": self.current.describe() if self.current is not None else None,
                "queued": sum(1 for c in self._clients() for j in list(c.pending.values())
                              if j is not self.current and not j.cancel),
                "idle_timeout_min": self.idle_s / 60.0}

    # -- shutdown ------------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """No new client gets in, the browser closes, then every client sees the end (EOF)."""
        if self.listener is not None:
            names.remove(self.sock_path)
            self.listener.close()
        with suppress(Exception):
            self.ctx.close()
        for c in self._clients():
            c.gone = True
            with suppress(OSError):
                c.channel.sock.shutdown(socket.SHUT_RDWR)
            c.channel.close()
        if self.lock_fd is not None:
            names.remove(self._file(".log"), self._file(".lock"))
            os.close(self.lock_fd)


def _tell(outcome: Outcome, note: str | None) -> None:
    """Put ``note`` (this client's tab was closed meanwhile) in front of what the outcome says."""
    if note is None:
        return
    if outcome.ok and outcome.result is not None:
        outcome.result.notes.insert(0, note)
    else:
        outcome.message = f"{note} {outcome.message}"


def main() -> int:
    """Read the settings from stdin, claim the name, start the browser, say ready, serve."""
    config = json.loads(sys.stdin.readline())
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    ready = sys.stdout
    opts = AppOptions(**config["options"])
    server = SessionServer(config["name"], config["directory"], opts, float(config["idle_minutes"]))

    def say(obj: dict) -> None:
        ready.write(json.dumps(obj) + "\n")
        ready.flush()

    try:
        try:  # hold the name, then launch (or connect to) the browser and open the URL
            server.claim()
            if config.get("url"):
                opened = open_first(server.ctx, config["url"])
            else:
                opened = None
                server.ctx.ensure_session()
        except VerdexError as exc:
            opened = failure(f"session start {server.name}", exc)
        if opened is not None and not opened.ok:
            say({"ok": False, "exit": int(opened.exit_status), "outcome": to_wire(opened)})
            return 1
        say({"ok": True, "pid": os.getpid()})
        ready.close()
        sys.stdout = open(os.devnull, "w")
        reason = server.serve()
        if reason == "idle":
            server.note_idle_end()
        print(f"session {server.name} ended: {reason}", file=sys.stderr)
        return 0
    finally:
        server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
