"""`verdex mcp [--session NAME]`: the commands as tools for an agent, over MCP on stdio.

One more client of a session. Without --session it starts and owns a session of its own (`mcp`,
`mcp-2` ... : listed, attachable), which ends with this connection however it ends. Each tool call runs
as the command line it stands for (commands/tools.py), queued with every other client's, shown in the
attach feed as `[mcp]`; it answers the REPL's text with the `--json` result as structuredContent, a
failure as a tool error. stdout carries only protocol messages."""

from __future__ import annotations

import io
import socket
import sys
import threading
from contextlib import suppress
from typing import Optional

import typer

from . import names, wire
from ..app.options import CHROME, CONNECT, CONNECT_HEADER, DEBUG, DOWNLOADS, HEADED, NO_CHANGES, TIMEOUT
from ..app.wiring import AppOptions
from ..base.errors import ExitStatus, UsageError, VerdexError, exit_status
from ..base.sanitize import clean
from ..commands.runner import Outcome
from ..commands.tools import line_for, tool_list
from .control import STOP_WAIT, spawn_server, stop_session
from .outcomes import Link, from_wire, render_for

MISSING = "verdex mcp needs the MCP SDK: pip install 'verdex-cli[mcp]'"
PLAIN = {"json": False, "color": False, "err_color": False, "width": 120}
OWN_NAMES = ["mcp"] + [f"mcp-{i}" for i in range(2, 100)]

mcp_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False,
                      context_settings={"help_option_names": ["-h", "--help"]})


class SessionLink:
    """The connection to the session, made by ``connect`` in the background (the agent is answered while a
    session starts); calls run through its :class:`Link` (outcomes.py), any number at once."""

    def __init__(self, connect):
        self.ready = threading.Event()
        self.link: Link | None = None
        self.name, self.proc, self.failed = "mcp", None, None
        threading.Thread(target=self._start, args=(connect,), daemon=True, name="session start").start()

    def _start(self, connect) -> None:
        try:
            channel, self.name, self.proc = connect()
            self.link = Link(channel, self.name)
            print(f"verdex mcp: serving session '{self.name}'", file=sys.stderr)
        except VerdexError as exc:
            self.failed = exc
            print(f"verdex mcp: {clean(exc.message)}", file=sys.stderr)
        self.ready.set()

    def run(self, line: str) -> Outcome:
        self.ready.wait()
        if self.failed is not None:
            return Outcome(line, False, kind=self.failed.kind, message=self.failed.message)
        return self.link.run(line)

    def let_go(self) -> None:
        """Leave the session at once (stdin closed): the command running for us is cancelled and
        every call still waiting gets its answer; our own session ends with its owner's connection."""
        self.ready.wait()  # a session still starting is bounded by spawn_server's own deadline
        if self.link is not None:
            with suppress(OSError):
                self.link.channel.sock.shutdown(socket.SHUT_RDWR)
            self.link.channel.close()

    def close(self) -> None:
        """Let go, then wait until our own session has ended (its browser closed); stop it if not."""
        self.let_go()
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout=STOP_WAIT)
        except Exception:
            with suppress(VerdexError):
                stop_session(self.name)
            self.proc.kill()


class EndAware:
    """stdin, which calls ``at_end`` when it ends: calls still running are not waited for."""

    def __init__(self, stream, at_end):
        self.stream, self.at_end = stream, at_end

    def readline(self, *args) -> str:
        line = self.stream.readline(*args)
        if not line:
            self.at_end()
        return line

    def __getattr__(self, name):
        return getattr(self.stream, name)


def tool_result(outcome: Outcome):
    """What the REPL prints (plain) and the `--json` result; a failure as a tool error."""
    import mcp_types as types

    if outcome.ok:
        out, err = render_for(PLAIN, outcome)
        text = (out + err).rstrip("\n")
        return types.CallToolResult(content=[types.TextContent(text=text)],
                                    structured_content=outcome.as_json()["result"])
    error = {"kind": str(outcome.kind), "message": outcome.message}
    return types.CallToolResult(content=[types.TextContent(text=clean(f"{outcome.kind}: {outcome.message}"))],
                                structured_content={"error": error}, is_error=True)


def build_server(link: SessionLink):
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel.server import Server

    tools = [types.Tool(name=t["name"], description=t["description"], input_schema=t["inputSchema"],
                        annotations=types.ToolAnnotations(read_only_hint=True) if "annotations" in t else None)
             for t in tool_list()]

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx, params):
        try:
            line = line_for(params.name, params.arguments)
        except UsageError as exc:
            return tool_result(Outcome(params.name, False, kind=exc.kind, message=exc.message))
        outcome = await anyio.to_thread.run_sync(link.run, line, abandon_on_cancel=True)
        return tool_result(outcome)

    return Server("verdex", instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool)


INSTRUCTIONS = ("A browser driven by accessibility snapshots. Call 'snapshot' and act on the refs it shows "
                "(click, fill, select ...); each action's answer says what it changed, so take a new snapshot "
                "only when you need the whole page again.")


def own_session(opts: AppOptions) -> tuple[wire.Channel, str, object]:
    """Start a session of our own under the first free name of mcp, mcp-2, ... and join it as its
    owner: (channel, name, server process)."""
    directory = names.session_dir(create=True)
    for name in OWN_NAMES:
        if names.running_pid(name, directory) is not None:
            continue
        ready, proc = spawn_server(opts, name, directory, None, idle_minutes=0)
        if ready.get("ok"):
            return wire.join(name, "mcp", owner=True)[0], name, proc
        outcome = from_wire(ready["outcome"])
        if "already running" not in outcome.message:  # another server took the name meanwhile: next
            raise VerdexError(outcome.message, outcome.kind)
    raise UsageError("Sessions mcp to mcp-99 are all running; stop some, or give --session NAME.")


def serve(opts: AppOptions, session: str | None) -> int:
    try:
        import anyio
        from mcp.server.stdio import stdio_server
    except ImportError:
        print(MISSING, file=sys.stderr)
        return int(ExitStatus.USAGE)
    if session is not None:  # a session that is not there: said at once
        try:
            channel = wire.join(names.check_name(session), "mcp")[0]
        except VerdexError as exc:
            print(clean(exc.message), file=sys.stderr)
            return int(exit_status(exc.kind))
        link = SessionLink(lambda: (channel, session, None))
    else:
        link = SessionLink(lambda: own_session(opts))
    server = build_server(link)

    async def run() -> None:
        stdin = anyio.wrap_file(EndAware(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"),
                                         link.let_go))
        async with stdio_server(stdin=stdin) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        with suppress(KeyboardInterrupt):
            anyio.run(run)
    finally:
        link.close()
    return 0


@mcp_app.command(help="Serve the commands as tools to an AI agent over MCP (stdio). Without --session, a session "
                      "of its own named 'mcp' (watch it with 'verdex attach mcp'), ended when stdin closes.")
def mcp_cmd(session: Optional[str] = typer.Option(None, "--session", metavar="NAME",
                                                  help="Serve this running session instead of starting one."),
            headed: bool = HEADED, chrome: Optional[str] = CHROME, connect: Optional[str] = CONNECT,
            timeout: float = TIMEOUT, debug: bool = DEBUG, downloads: Optional[str] = DOWNLOADS,
            no_changes: bool = NO_CHANGES, connect_header: Optional[list[str]] = CONNECT_HEADER):
    opts = AppOptions(headless=not headed, chrome=chrome, connect=connect, timeout=timeout, json_mode=False,
                      no_color=True, debug=debug, pager=False, downloads=downloads, trace=False,
                      changes=not no_changes, headers=tuple(connect_header or ()))
    raise typer.Exit(serve(opts, session))
