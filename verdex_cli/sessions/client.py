"""`verdex run --session NAME [COMMAND]... [--script FILE|-]`: the light client.

It imports neither Typer, Rich, prompt_toolkit nor the browser layer: the server parses the lines,
runs them and prepares this client's output (JSON Lines, or text with colour only when our stdout is
a colour terminal); the client writes it. Same output, same exit codes as one-shot `verdex run`.
Ctrl-C asks the server to cancel this client's running command only.
"""

from __future__ import annotations

import os
import sys
from itertools import chain

from . import names, wire
from ..base.errors import ErrorKind, ExitStatus, UsageError, VerdexError, error_json, exit_status

# sanitize and script_input are imported only when needed: every millisecond of start-up counts here

FLAGS = {"--json": "json", "--keep-going": "keep_going", "--no-color": "no_color", "--debug": "debug",
         "--trace": "trace", "--no-changes": "no_changes", "--no-pager": "no_pager"}
SESSION_ONLY = {"--headed": False, "--chrome": True, "--connect": True, "--timeout": True, "--downloads": True,
                "--idle-timeout": True, "--connect-header": True, "--connect-header-env": True}


class Args:
    def __init__(self):
        self.session: str | None = None
        self.script: str | None = None
        self.commands: list[str] = []
        self.json = self.keep_going = self.no_color = self.debug = self.trace = self.no_changes = False
        self.no_pager = False


def parse(argv: list[str]) -> Args:
    args = Args()
    it = iter(argv)
    for word in it:
        if word == "--":
            args.commands.extend(it)
            break
        if not word.startswith("-") or word == "-":
            args.commands.append(word)
            continue
        key, eq, value = word.partition("=")
        if key in ("--session", "--script"):
            if not eq:
                value = next(it, None)
                if value is None:
                    raise UsageError(f"Option '{key}' requires an argument.")
            setattr(args, key[2:], value)
        elif key in FLAGS and not eq:
            setattr(args, FLAGS[key], True)
        elif key in SESSION_ONLY:
            raise UsageError(f"{key} is a session option: give it to 'verdex session start'.")
        else:
            raise UsageError(f"No such option: {key}")
    return args


class Output:
    """Where this client writes: the server's prepared text, or a line of its own (its errors)."""

    def __init__(self, json_mode: bool, no_color: bool):
        self.json_mode = json_mode
        self.err_color = not no_color and "NO_COLOR" not in os.environ and _isatty(sys.stderr)

    def write(self, out: str, err: str) -> None:
        if err:
            sys.stderr.write(err)
            sys.stderr.flush()
        if out:
            sys.stdout.write(out)
            sys.stdout.flush()

    def failure(self, line: str, kind: str, message: str) -> None:
        from ..base.sanitize import clean, json_line

        if self.json_mode:
            obj = error_json(line, kind, message)
            self.write(json_line(obj) + "\n", "")
        else:
            text = clean(message)
            self.write("", f"\x1b[1;31m{text}\x1b[0m\n" if self.err_color else text + "\n")


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _color_system() -> str | None:
    if os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return "truecolor"
    term = os.environ.get("TERM", "").lower()
    if term in ("dumb", "unknown"):
        return None
    return "256" if "256" in term else "standard"


def settings(args: Args) -> dict:
    """What the server needs to prepare this client's output as a one-shot run would print it."""
    tty = _isatty(sys.stdout)
    width = None
    if tty:
        try:
            width = os.get_terminal_size(sys.stdout.fileno()).columns
        except OSError:
            width = None
    if width is None:
        try:
            width = int(os.environ.get("COLUMNS", "80"))
        except ValueError:
            width = 80
    system = _color_system()
    plain = args.no_color or "NO_COLOR" in os.environ or system is None
    return {"json": args.json, "debug": args.debug, "trace": args.trace, "no_changes": args.no_changes,
            "color": tty and not plain, "err_color": _isatty(sys.stderr) and not plain, "color_system": system,
            "width": width}


def ask(channel: wire.Channel, name: str, job_id: int, line: str, sent: bool = False) -> dict:
    """Run one line in the session (``sent``: it already went out) and wait for its result; Ctrl-C
    cancels it (a second Ctrl-C gives up waiting)."""
    if not sent:
        channel.send(wire.run_message(job_id, line))
    cancelled = False
    while True:
        try:
            msg = channel.recv()
        except KeyboardInterrupt:
            if cancelled:
                return {"ok": False, "kind": ErrorKind.CANCELLED, "message": "Cancelled."}
            cancelled = True
            try:
                channel.send({"op": "cancel", "id": job_id})
            except OSError:
                pass
            continue
        if msg is None:
            return {"ok": False, "kind": ErrorKind.NO_SESSION,
                    "message": f"Session '{name}' ended before '{line}' finished."}
        if msg.get("op") == "result" and msg.get("id") == job_id:
            return msg


def main(argv: list[str]) -> int:
    json_mode = "--json" in argv
    out = Output(json_mode, "--no-color" in argv)
    try:
        args = parse(argv)
        name = names.default_name(args.session)
    except UsageError as exc:
        message = exc.message.rstrip(".") + ". Try 'verdex run --help'."
        out.failure(" ".join(["verdex", "run", *argv]), ErrorKind.USAGE, message)
        return ExitStatus.USAGE
    lines = list(args.commands)
    live = args.script == "-"
    if args.script is not None and not live:
        from ..commands.script_input import read_script

        try:
            lines += read_script(args.script)
        except VerdexError as exc:
            out.failure("--script " + args.script, exc.kind, exc.message)
            return ExitStatus.USAGE
    first = wire.run_message(1, lines[0]) if lines else None
    exc = None
    try:
        channel = wire.connect(name)
        # the server checks every line before any runs (as in one-shot mode); the first line goes out
        # with the hello and runs only if they all parse
        welcome = wire.hello(channel, name, "run", then=first, check=lines, **settings(args))
        if not welcome.get("ok", True):
            out.write(welcome.get("out", ""), welcome.get("err", ""))
            return welcome.get("exit", ExitStatus.USAGE)
    except VerdexError as error:
        exc = error
    except OSError:  # the server went away between connect and answer
        exc = names.NoSession(name)
    if exc is not None:
        if names.from_env(args.session):
            names.blame_env(exc)
        out.failure("--session " + name, exc.kind, exc.message)
        return exit_status(exc.kind)
    if live:
        from ..commands.script_input import live_lines

        lines = chain(lines, live_lines())
    try:
        return run_lines(channel, name, out, lines, args.keep_going, sent=first is not None)
    finally:
        channel.close()


def run_lines(channel: wire.Channel, name: str, out: Output, lines, keep_going: bool, sent: bool = False) -> int:
    status = ExitStatus.OK
    job_id = 0
    try:
        for line in lines:
            job_id += 1
            try:
                res = ask(channel, name, job_id, line, sent=sent and job_id == 1)
            except OSError:
                res = {"ok": False, "kind": ErrorKind.NO_SESSION, "message": names.NoSession(name).message}
            if "out" in res:
                out.write(res.get("out", ""), res.get("err", ""))
            else:  # said by this client (the server is gone, or it gave up waiting)
                out.failure(line, res["kind"], res["message"])
                res["exit"] = int(exit_status(res["kind"]))
            if not res.get("ok"):
                status = status or res.get("exit", ExitStatus.FAILED)
                if not keep_going or "out" not in res:
                    break
            if res.get("quit"):
                break
    except VerdexError as exc:  # stdin could not be read
        out.failure("(stdin)", exc.kind, exc.message)
        return status or exit_status(exc.kind)
    except BrokenPipeError:
        return status or ExitStatus.FAILED
    return status
