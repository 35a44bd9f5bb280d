"""`verdex run --session NAME [COMMAND]... [--script FILE|-]`: the light client.

It imports neither Typer, Rich, prompt_toolkit nor the browser layer: the server parses the lines,
runs them and prepares this client's output (JSON Lines, or text with colour only when our stdout is
a colour terminal); the client writes it. Same output, same exit codes as one-shot `verdex run`.
Ctrl-C asks the server to cancel this client's running command only.
"""

from __future__ import annotations

import os
import sys
import time
from itertools import chain

from . import names, wire
from ..base.errors import ErrorKind, ExitStatus, UsageError, VerdexError, error_json, exit_status

HELLO_WAIT = 40.0  # the session's own timeout is not known before its welcome: 10 s + 30 s, as by default

# sanitize and script_input are imported only when needed: every millisecond of start-up counts here

FLAGS = {"--json": "json", "--keep-going": "keep_going", "--no-color": "no_color", "--debug": "debug",
         "--trace": "trace", "--no-changes": "no_changes", "--no-pager": "no_pager"}
SESSION_ONLY = {"--headed": False, "--chrome": True, "--connect": True, "--downloads": True,
                "--idle-timeout": True, "--connect-header": True, "--connect-header-env": True}


class Args:
    def __init__(self):
        self.session: str | None = None
        self.script: str | None = None
        self.commands: list[str] = []
        self.json = self.keep_going = self.no_color = self.debug = self.trace = self.no_changes = False
        self.no_pager = False
        self.wait: float | None = None  # --wait SECONDS (--timeout SECONDS alike): the bound of each command


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
        elif key in ("--wait", "--timeout"):
            value = value if eq else next(it, None)
            try:
                args.wait = float(value)
            except (TypeError, ValueError):
                raise UsageError(f"{key} wants a number of seconds, not {value!r}.") from None
            if not args.wait > 0:
                raise UsageError(f"{key} wants a number of seconds above 0, not {value}.")
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

    def notice(self, text: str) -> None:
        """A wait worth knowing about (queued behind another client), on a terminal's stderr only: a
        script's stderr stays for errors (its JSON has "queued_ms")."""
        if _isatty(sys.stderr) and not self.json_mode:
            from ..base.sanitize import clean

            self.write("", clean(text) + "\n")

    def failure(self, line: str, kind: str, message: str, elapsed_ms: float = 0.0) -> None:
        from ..base.sanitize import clean, json_line

        if self.json_mode:
            obj = error_json(line, kind, message, elapsed_ms)
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


def ask(channel: wire.Channel, name: str, job_id: int, line: str, sent: bool = False, wait: float = 40.0,
        tell=None) -> dict:
    """Run one line in the session (``sent``: it already went out) and wait for its result, at most
    ``wait`` s (then it is cancelled and fails with kind `timeout`, naming what it waited behind);
    ``tell(text)`` hears that it is queued behind another client's command. Ctrl-C cancels it (a second
    Ctrl-C gives up waiting)."""
    if not sent:
        channel.send(wire.run_message(job_id, line))
    cancelled = False
    behind = None
    started = False
    asked = time.monotonic()
    deadline = asked + wait
    channel.sock.settimeout(0.25)
    while True:
        try:
            msg = channel.recv()
        except TimeoutError:
            if time.monotonic() < deadline:
                continue
            wire.cancel(channel, job_id)
            return {"ok": False, "kind": ErrorKind.TIMEOUT, "message": _gave_up(name, line, wait, behind, started),
                    "elapsed_ms": _ms(asked)}
        except KeyboardInterrupt:
            if cancelled:
                return {"ok": False, "kind": ErrorKind.CANCELLED, "message": "Cancelled.",
                        "exit": ExitStatus.INTERRUPTED, "elapsed_ms": _ms(asked)}
            cancelled = True
            wire.cancel(channel, job_id)
            continue
        if msg is None:
            return {"ok": False, "kind": ErrorKind.NO_SESSION,
                    "message": f"Session '{name}' ended before '{line}' finished.", "elapsed_ms": _ms(asked)}
        if msg.get("id") != job_id:
            continue
        if msg.get("op") == "queued":
            behind = str(msg.get("behind") or "another client's command")
            if tell is not None:
                tell(f"queued behind {behind}")
        elif msg.get("op") == "started":
            started = True
        elif msg.get("op") == "result":
            if cancelled and not msg.get("ok"):
                msg["exit"] = ExitStatus.INTERRUPTED  # stopped by Ctrl-C here: 130, as a shell reports it
            return msg


def _ms(since: float) -> float:
    return (time.monotonic() - since) * 1000.0


def _gave_up(name: str, line: str, wait: float, behind: str | None, started: bool) -> str:
    head = f"Gave up after {wait:g} s (--wait) on '{line}' in session '{name}': "
    if started:
        return head + "it was still running; it was cancelled."
    if behind:
        return head + f"it was still queued behind {behind}; it was cancelled."
    return head + (f"the session server did not answer (stopped?); 'verdex session stop --force {name}' "
                   "ends it.")


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
        from ..base.script_input import read_script

        try:
            lines += read_script(args.script)
        except VerdexError as exc:
            out.failure("--script " + args.script, exc.kind, exc.message)
            return ExitStatus.USAGE
    first = wire.run_message(1, lines[0]) if lines else None
    began = time.monotonic()
    try:
        # the server checks every line before any runs (as in one-shot mode); the first line goes out
        # with the hello and runs only if they all parse
        channel, welcome = wire.join(name, "run", args.wait or HELLO_WAIT, first, check=lines, **settings(args))
    except TimeoutError:
        out.failure("run --session " + name, ErrorKind.TIMEOUT,
                    _gave_up(name, lines[0] if lines else "hello", args.wait or HELLO_WAIT, None, False), _ms(began))
        return ExitStatus.FAILED
    except (VerdexError, OSError) as error:  # OSError: the server went away between connect and answer
        exc = names.blame_env(error if isinstance(error, VerdexError) else names.NoSession(name), args.session)
        out.failure("run --session " + name, exc.kind, exc.message, _ms(began))
        return exit_status(exc.kind)
    if not welcome.get("ok", True):
        out.write(welcome.get("out", ""), welcome.get("err", ""))
        return welcome.get("exit", ExitStatus.USAGE)
    if live:
        from ..base.script_input import live_lines

        lines = chain(lines, live_lines())
    try:
        wait = args.wait or float(welcome.get("timeout") or 10.0) + 30.0
        return run_lines(channel, name, out, lines, args.keep_going, sent=first is not None, wait=wait)
    finally:
        channel.close()


def run_lines(channel: wire.Channel, name: str, out: Output, lines, keep_going: bool, sent: bool = False,
              wait: float = 40.0) -> int:
    status = ExitStatus.OK
    job_id = 0
    try:
        for line in lines:
            job_id += 1
            try:
                res = ask(channel, name, job_id, line, sent=sent and job_id == 1, wait=wait, tell=out.notice)
            except OSError:
                res = {"ok": False, "kind": ErrorKind.NO_SESSION, "message": names.NoSession(name).message}
            if "out" in res:
                out.write(res.get("out", ""), res.get("err", ""))
            else:  # said by this client (the server is gone, or it gave up waiting)
                out.failure(line, res["kind"], res["message"], res.get("elapsed_ms", 0.0))
                res.setdefault("exit", int(exit_status(res["kind"])))
            if not res.get("ok"):
                status = status or res.get("exit", ExitStatus.FAILED)
                if not keep_going or "out" not in res or res.get("exit") == ExitStatus.INTERRUPTED:
                    break
            if res.get("quit"):
                break
    except VerdexError as exc:  # stdin could not be read
        out.failure("(stdin)", exc.kind, exc.message)
        return status or exit_status(exc.kind)
    except BrokenPipeError:
        return status or ExitStatus.FAILED
    return status
