"""`verdex session start|list|stop` and `verdex attach`: the Typer side of sessions."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from contextlib import suppress
from dataclasses import asdict
from typing import List, Optional

import typer

from ..app.wiring import AppOptions, make_renderer, warn_remote_endpoint
from ..app.options import (CHROME, CONNECT, CONNECT_HEADER, CONNECT_HEADER_ENV, DEBUG, DOWNLOADS, HEADED, JSON,
                           NO_CHANGES, NO_COLOR, NO_PAGER, TIMEOUT, TRACE, connect_headers)
from . import names, wire
from ..base.errors import ErrorKind, ExitStatus, UsageError, VerdexError, exit_status, ok_json
from ..base.sanitize import json_line
from ..commands.runner import failure
from ..ui.render import Renderer
from .outcomes import from_wire

SETTINGS = {"help_option_names": ["-h", "--help"]}
session_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                          context_settings=SETTINGS,
                          help="Sessions: one browser kept alive for many 'verdex run --session NAME' invocations "
                               "and 'verdex attach NAME'.")
attach_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, context_settings=SETTINGS)

STOP_WAIT = 20.0
ANSWER_WAIT = 5.0  # a server answers a stop at once, even while a command runs


def _fail(renderer: Renderer, line: str, exc: VerdexError, started: float) -> int:
    renderer.show(failure(line, exc, _ms(started)))
    return int(exit_status(exc.kind))


def _ok(renderer: Renderer, line: str, data: dict, text: str, started: float) -> None:
    if renderer.json_mode:
        sys.stdout.write(json_line(ok_json(line, data, _ms(started))) + "\n")
    else:
        renderer.plain(text)


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0


@session_app.command("start", help="Start session NAME (default: $VERDEX_SESSION, else 'default') in the "
                                   "background, with its browser, opening URL if given; prints NAME.")
def start_cmd(
    name: Optional[str] = typer.Argument(None, metavar="NAME", help="Session name: 1-40 of A-Z a-z 0-9 _ -."),
    url: Optional[str] = typer.Argument(None, metavar="URL", help="URL or local file to open first."),
    idle_timeout: float = typer.Option(30.0, "--idle-timeout", metavar="MINUTES", min=0.0,
                                       help="Stop when no client has spoken for this long (0: never)."),
    headed: bool = HEADED, chrome: Optional[str] = CHROME, connect: Optional[str] = CONNECT,
    timeout: float = TIMEOUT, json_mode: bool = JSON, no_color: bool = NO_COLOR, debug: bool = DEBUG,
    downloads: Optional[str] = DOWNLOADS, trace: bool = TRACE, no_changes: bool = NO_CHANGES,
    connect_header: Optional[List[str]] = CONNECT_HEADER,
    connect_header_env: Optional[List[str]] = CONNECT_HEADER_ENV,
):
    opts = AppOptions(headless=not headed, chrome=chrome, connect=connect, timeout=timeout, json_mode=json_mode,
                      no_color=no_color, debug=debug, pager=False, downloads=downloads,
                      trace=False, changes=not no_changes,
                      headers=connect_headers(connect_header, connect_header_env))
    raise typer.Exit(start_session(opts, name, url, idle_timeout))


def start_session(opts: AppOptions, name: str | None, url: str | None, idle_minutes: float) -> int:
    renderer = make_renderer(opts)
    started = time.perf_counter()
    line = f"session start {name or ''}".strip()
    try:
        if url is None and name is not None and not names.valid_name(name):
            # one word that is no name (`../x`, `x.y`, `localhost:8765/p.html`, ''): never guess which it is
            raise UsageError(f"'{name}' is not a session name (1 to 40 letters, digits, '_' or '-'); to open it "
                             f"in a session give both: verdex session start NAME '{name}'.")
        name = names.default_name(name)
        line = f"session start {name}"
        directory = names.session_dir(create=True)
        names.socket_path(name, directory)
        pid = names.running_pid(name, directory)
        if pid is not None:
            raise UsageError(f"Session '{name}' is already running (pid {pid}). Stop it with "
                             f"'verdex session stop {name}', or choose another name.")
        warn_remote_endpoint(opts, renderer)
        ready, _server = spawn_server(opts, name, directory, url, idle_minutes)
    except VerdexError as exc:
        return _fail(renderer, line, exc, started)
    if not ready.get("ok"):
        failed = from_wire(ready["outcome"])
        failed.elapsed_ms = _ms(started)
        renderer.show(failed)
        return int(ready.get("exit", ExitStatus.FAILED))
    _ok(renderer, line, {"name": name, "pid": ready.get("pid")}, name, started)
    return 0


def spawn_server(opts: AppOptions, name: str, directory: str, url: str | None,
                 idle_minutes: float) -> tuple[dict, subprocess.Popen]:
    """Start session ``name``'s server in the background and wait until it is ready: (its ready line: ``ok``,
    else the failure's ``outcome`` and ``exit``; its process). UsageError when it did not start."""
    if downloads := opts.downloads:
        opts.downloads = os.path.abspath(downloads)
    config = {"name": name, "directory": directory, "idle_minutes": idle_minutes, "url": url,
              "options": asdict(opts)}
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    log_path = names.file_path(name, directory, ".log")
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    try:
        server = subprocess.Popen([sys.executable, "-m", "verdex_cli.sessions.server"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=log, env=env, start_new_session=True)
    except OSError as exc:
        raise UsageError(f"Could not start the session server: {exc}") from None
    finally:
        os.close(log)
    server.stdin.write((json.dumps(config) + "\n").encode())
    server.stdin.close()
    ready = _ready_line(server, deadline=time.monotonic() + max(60.0, 4 * opts.timeout))
    if ready is None:
        server.kill()
        raise UsageError(f"The session server did not start; see {log_path}.")
    if not ready.get("ok"):
        server.wait(timeout=30)
    return ready, server


def _ready_line(proc: subprocess.Popen, deadline: float) -> dict | None:
    fd = proc.stdout.fileno()
    data = b""
    while b"\n" not in data and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            data += chunk
    try:
        return json.loads(data.split(b"\n", 1)[0]) if b"\n" in data else None
    except ValueError:
        return None


@session_app.command("list", help="List the running sessions: name, pid, tabs, clients, busy (whose command "
                                  "runs), queued, idle time, browser.")
def list_cmd(json_mode: bool = JSON, no_color: bool = NO_COLOR, debug: bool = DEBUG):
    from .listing import main as list_sessions

    raise typer.Exit(list_sessions((["--json"] if json_mode else []) + (["--no-color"] if no_color else [])))


@session_app.command("stop", help="Stop session NAME (its browser closes), or every session with --all; --force "
                                  "ends a server that does not answer (SIGKILL; its browser goes with it).")
def stop_cmd(name: Optional[str] = typer.Argument(None, metavar="NAME", help="Default: $VERDEX_SESSION, else "
                                                                              "'default'."),
             all_: bool = typer.Option(False, "--all", help="Stop every running session."),
             force: bool = typer.Option(False, "--force", help="Kill a session server that does not answer."),
             json_mode: bool = JSON, no_color: bool = NO_COLOR, debug: bool = DEBUG):
    renderer = make_renderer(AppOptions(json_mode=json_mode, no_color=no_color, debug=debug))
    started = time.perf_counter()
    try:
        directory = names.session_dir()
        if all_:
            targets = [n for n in names.known_names(directory) if names.running_pid(n, directory) is not None]
        else:
            targets = [names.default_name(name)]
    except VerdexError as exc:
        raise typer.Exit(_fail(renderer, "session stop --all" if all_ else f"session stop {name or ''}".strip(), exc,
                               started))
    status = 0
    for target in targets:
        started = time.perf_counter()
        try:
            stop_session(target, force)
        except VerdexError as exc:
            status = status or _fail(renderer, f"session stop {target}", exc, started)
            continue
        _ok(renderer, f"session stop {target}", {"name": target, "stopped": True}, f"Stopped {target}.", started)
    if all_ and not targets:
        _ok(renderer, "session stop --all", {"stopped": []}, "No sessions.", started)
    raise typer.Exit(status)


def stop_session(name: str, force: bool = False) -> None:
    """Ask the server to stop and wait until it has (its browser closed); NoSession if none runs. A server
    silent for ANSWER_WAIT s is one line naming --force; ``force`` kills it (its browser's watchdog follows)."""
    directory = names.session_dir()
    pid = names.running_pid(name, directory)
    if pid is None:
        raise names.NoSession(name)
    if force:
        _kill_server(name, pid)
    else:
        _ask_to_stop(name, pid)
    deadline = time.monotonic() + STOP_WAIT
    while names.running_pid(name, directory) is not None:
        if time.monotonic() > deadline:
            raise VerdexError(f"Session '{name}' (pid {pid}) did not stop within {STOP_WAIT:g} s; "
                              f"'verdex session stop --force {name}' ends it.", ErrorKind.TIMEOUT)
        time.sleep(0.02)


def _ask_to_stop(name: str, pid: int) -> None:
    channel = wire.connect(name)
    try:
        channel.sock.settimeout(ANSWER_WAIT)
        channel.send({"op": "stop"})
        try:
            if channel.recv() is None:  # the server closes us when it has shut down
                return
        except TimeoutError:
            raise VerdexError(f"Session '{name}' (pid {pid}) does not answer (stopped or stuck); "
                              f"'verdex session stop --force {name}' ends it.", ErrorKind.TIMEOUT) from None
        channel.sock.settimeout(STOP_WAIT)
        while channel.recv() is not None:
            pass
    except OSError:  # the server went while we listened: stopped
        pass
    finally:
        channel.close()


def _kill_server(name: str, pid: int) -> None:
    """SIGKILL the server of ``name`` (after checking that ``pid`` is one: a session server's command line)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            ours = b"verdex_cli.sessions.server" in fh.read()
    except OSError:
        ours = pid > 0
    if not ours:
        raise VerdexError(f"Session '{name}': pid {pid} is not its server; not killed.", ErrorKind.USAGE)
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


@attach_app.command(help="Open the REPL on session NAME (default: $VERDEX_SESSION, else 'default'): commands "
                         "run by other clients appear as they run. Ctrl-D detaches; 'quit' asks whether to stop "
                         "the session.")
def attach_cmd(name: Optional[str] = typer.Argument(None, metavar="NAME", help="Session name."),
               no_color: bool = NO_COLOR, debug: bool = DEBUG, no_pager: bool = NO_PAGER):
    from .attach import run_attach

    opts = AppOptions(no_color=no_color, debug=debug, pager=not no_pager)
    raise typer.Exit(run_attach(opts, name))
