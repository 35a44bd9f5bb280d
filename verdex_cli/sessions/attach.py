"""`verdex attach [NAME]`: the REPL on a running session, with a live feed of the commands other clients
run there, marked with who ran them. Ctrl-D detaches (the session keeps running); `quit` asks whether
to stop the session too."""

from __future__ import annotations

import sys
import threading
from contextlib import suppress

from prompt_toolkit import PromptSession
from rich.text import Text

from . import names, wire
from ..app.wiring import AppOptions, make_renderer
from ..base.errors import ErrorKind, VerdexError, exit_status
from ..base.sanitize import clean
from ..commands.registry import Result
from ..commands.runner import Outcome, failure
from ..base.script_input import live_lines
from ..ui.repl.app import Repl, fit
from .outcomes import Link, from_wire


FEED_LINES = 12  # another client's output longer than this shows as one summary line


def feed_summary(outcome: Outcome) -> str | None:
    """One line for another client's long output (a snapshot of a big page is hundreds of lines): what
    it was and how much; None when it is short enough to show whole."""
    data = outcome.result.data if outcome.ok and outcome.result is not None else {}
    text = data.get("text") if isinstance(data.get("text"), str) else ""
    lines = text.count("\n") + 1 if text else 0
    if lines <= FEED_LINES:
        return None
    refs = len(data.get("refs") or ())
    return (f"({outcome.result.kind}: {lines} lines" + (f", {refs} refs" if refs else "")
            + "; run it here to see them)")


class RemoteWorkspace:
    """What the REPL needs of a workspace when the workspace lives in the session server."""

    def __init__(self):
        self.quit_requested = False
        self.progress = None


class AttachRepl(Repl):
    def __init__(self, channel: wire.Channel, name: str, renderer, pager: bool = False, input=None, output=None):
        self.name = name
        self.remote = {"toolbar": "", "refs": [], "elements": []}
        self.print_lock = threading.RLock()
        super().__init__(RemoteWorkspace(), renderer, input=input, output=output, pager=pager)
        self.greeting = (f"Attached to session '{name}'. Type 'help' for commands, Tab to complete; Ctrl-D "
                         "detaches, 'quit' asks whether to stop the session.")
        self.link = Link(channel, name, self._heard)

    # -- what the prompt shows --------------------------------------------------------------------
    def _ref_choices(self):
        return [tuple(r) for r in self.remote.get("refs") or ()]

    def _elements(self):
        return [tuple(e) for e in self.remote.get("elements") or ()]

    def _toolbar(self):
        return fit(clean(f" [{self.name}]{self.remote.get('toolbar') or ''}"), self._width())

    def _refresh_status(self) -> None:
        pass  # the server sends the status after every command

    def show(self, outcome) -> None:
        with self.print_lock:
            super().show(outcome)

    # -- the session's messages -------------------------------------------------------------------
    def _heard(self, msg: dict | None) -> None:
        if msg is None:
            with self.print_lock:
                self.renderer.warn(f"Session '{self.name}' ended.")
            self._leave_prompt()
            return
        op = msg.get("op")
        if op == "feed":
            self._feed(msg)
        elif op == "status":
            self.remote = msg
            self.prompt.app.invalidate()  # (thread-safe; nothing to redraw while no prompt runs)
        elif op == "notice":
            with self.print_lock:
                self.renderer.warn(str(msg.get("text", "")))
        elif op == "progress":
            self.renderer.info(str(msg.get("text", "")))
        elif op == "queued":
            with self.print_lock:
                self.renderer.info(f"queued behind {msg.get('behind')}")

    def _feed(self, msg: dict) -> None:
        outcome = from_wire(msg["outcome"])
        with self.print_lock:
            self.renderer.out.print(Text.assemble((f"[{clean(str(msg.get('who')))}] ", "bold magenta"),
                                                  (clean(outcome.line), "bold")))
            summary = feed_summary(outcome)
            if summary:
                self.renderer.info(summary)
            else:
                self.renderer.show(outcome)
            self.renderer.flush()

    def _leave_prompt(self) -> None:
        app = self.prompt.app
        loop = getattr(app, "loop", None)
        if app.is_running and loop is not None:
            loop.call_soon_threadsafe(lambda: app.is_running and app.exit(exception=EOFError()))

    # -- running a line ---------------------------------------------------------------------------
    def run_line(self, line: str) -> Outcome:
        if line.split()[0] in ("quit", "exit"):
            return self._quit(line)
        return self.link.run(line, env=True)

    def _quit(self, line: str) -> Outcome:
        self.ctx.quit_requested = True
        try:
            answer = PromptSession(input=self.prompt.input, output=self.prompt.output).prompt(
                f"Stop session '{self.name}' too (its browser closes)? [y/N] ")
        except (EOFError, KeyboardInterrupt):
            answer = ""
        if answer.strip().lower() in ("y", "yes"):
            with suppress(OSError):
                self.link.channel.send({"op": "stop"})
            self.link.ended.wait(30)  # until the session has ended (its browser closed)
        else:
            self.renderer.info(f"Detached; session '{self.name}' keeps running.")
        return Outcome(line, True, Result("quit", {}))


def run_attach(opts: AppOptions, given: str | None) -> int:
    renderer = make_renderer(opts)
    try:
        name = names.default_name(given)
        channel = wire.join(name, "attach")[0]
    except VerdexError as exc:
        if exc.kind == ErrorKind.NO_SESSION:
            names.blame_env(exc, given)
        renderer.show(failure("attach", exc))
        return int(exit_status(exc.kind))
    repl = AttachRepl(channel, name, renderer, pager=opts.pager and sys.stdout.isatty())
    try:
        if not sys.stdin.isatty():  # piped lines: run them one by one, as a piped REPL does
            for line in live_lines():  # (no blank line, no comment)
                outcome = repl.run_line(line)
                repl.show(outcome)
                if not outcome.ok:
                    return int(outcome.exit_status)
                if repl.ctx.quit_requested:
                    break
            return 0
        code = repl.loop()
        if not repl.ctx.quit_requested and not repl.link.ended.is_set():
            renderer.info(f"Detached; session '{name}' keeps running.")
        return code
    finally:
        channel.close()
