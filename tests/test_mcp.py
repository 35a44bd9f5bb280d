"""`verdex mcp`: the commands as MCP tools over stdio, driven by the official SDK's own client (and by
raw JSON-RPC lines where the test needs the wire itself), against real Chromium and the demo site on
two origins. Each test has its own session directory and TMPDIR (Env of test_sessions), so its
session and its browser are private and easy to find."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import anyio  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from test_sessions import ROOT, SHOP, Env, env, poll  # noqa: E402,F401 (env: the fixture)
from conftest import ref_of, refs_named  # noqa: E402

VALUES = (Path(__file__).resolve().parent / "fixtures" / "truth" / "values.html").as_uri()
CONTRACT_TOOLS = {"open", "snapshot", "click", "dblclick", "hover", "fill", "type", "select", "check", "uncheck",
                  "press", "focus", "scroll", "upload", "find", "text", "inspect", "container", "siblings",
                  "anchors", "refs", "diff", "reset-refs", "frames", "tabs", "tab", "contexts", "context", "back",
                  "forward", "reload", "wait", "dialog", "eval", "screenshot", "export"}


def run_mcp(env: Env, body, *args: str):
    """Start `verdex mcp ARGS` with the SDK's stdio client, initialise, and run ``body(session)``."""

    async def main():
        params = StdioServerParameters(command=sys.executable, args=["-m", "verdex_cli", "mcp", *args],
                                       env=env.env, cwd=str(ROOT))
        with open(env.base / "mcp.err", "a") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await body(session)

    return anyio.run(main)


def ok(result) -> dict:
    assert not result.is_error, result.content[0].text
    return result.structured_content


def failed(result, kind: str) -> str:
    assert result.is_error and result.structured_content["error"]["kind"] == kind, result
    text = result.content[0].text
    assert text == f"{kind}: {result.structured_content['error']['message']}"
    return text


class Raw:
    """`verdex mcp` on pipes, spoken to in JSON-RPC lines (what any client sends)."""

    def __init__(self, env: Env, *args: str):
        self.proc = subprocess.Popen(env.argv("mcp", *args), env=env.env, cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: list[bytes] = []
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "raw", "version": "0"}}})
        assert self.recv(0)["result"]["serverInfo"]["name"] == "verdex"
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, obj: dict) -> None:
        self.proc.stdin.write(json.dumps(obj).encode() + b"\n")
        self.proc.stdin.flush()

    def recv(self, msg_id: int, timeout: float = 90.0) -> dict:
        """The answer to ``msg_id``; every line on stdout must be a JSON-RPC message."""
        deadline = time.monotonic() + timeout
        buf = b""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.5)
            if not ready:
                continue
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
            assert chunk, "the server closed stdout"
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                self.lines.append(line)
                msg = json.loads(line)
                assert msg["jsonrpc"] == "2.0"
                if msg.get("id") == msg_id:
                    return msg
        raise AssertionError(f"no answer to {msg_id}")


def test_tools_come_from_the_commands_and_the_list_is_small(env):
    raw = Raw(env)
    try:
        raw.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        answer = raw.recv(1)
        wire = raw.lines[-1]
    finally:
        raw.proc.stdin.close()
        raw.proc.wait(timeout=60)
    tools = {t["name"]: t for t in answer["result"]["tools"]}
    print(f"tools/list: {len(tools)} tools, {len(wire):,} characters")
    assert len(wire) < 16_000
    assert CONTRACT_TOOLS <= set(tools) and not {"help", "quit", "relaunch", "timings", "highlight"} & set(tools)
    for tool in tools.values():
        for name, spec in tool["inputSchema"]["properties"].items():
            assert spec.get("description"), (tool["name"], name)
    assert tools["snapshot"]["annotations"]["readOnlyHint"] is True
    assert tools["click"].get("annotations", {}).get("readOnlyHint") is not True
    assert tools["click"]["inputSchema"]["required"] == ["ref"]
    assert tools["select"]["inputSchema"]["properties"]["values"]["type"] == "array"
    assert tools["tab"]["inputSchema"]["properties"]["action"]["enum"] == ["new", "close"]
    assert tools["tab"]["inputSchema"]["properties"]["n"]["type"] == "integer"
    assert {"fresh", "max_chars", "interactive", "depth", "within", "frame"} <= set(
        tools["snapshot"]["inputSchema"]["properties"])
    assert tools["eval"]["inputSchema"]["required"] == ["js"]


def test_snapshot_click_and_fill_with_truthful_results_and_tool_errors(env, demo):
    async def body(s):
        opened = await s.call_tool("open", {"url": demo.url("shop.html")})
        assert "Demo Shop" in opened.content[0].text and ok(opened)["url"].endswith("shop.html")
        snap = ok(await s.call_tool("snapshot", {}))
        text = (await s.call_tool("snapshot", {})).content[0].text
        assert text.startswith(snap["text"]) and "[ref=c0p0f0e" in text and "from the cache" in text
        add = refs_named(snap, "Add to cart")[0]  # the mug's, first
        click = await s.call_tool("click", {"ref": add})
        result = ok(click)
        assert result["ref"] == add and result["changes"] and "Coffee mug × 1" in click.content[0].text
        cart = ok(await s.call_tool("eval", {"js": "[...document.querySelectorAll('#cart li')]"
                                                    ".map(li => li.dataset.product).join()"}))
        assert cart["value"] == "mug"
        # what the page changed before an action is not the action's: changes_before, one line of text
        ok(await s.call_tool("eval", {"js": "document.querySelector('h1').textContent = 'Our shop'"}))
        hovered = await s.call_tool("hover", {"ref": add})
        assert [(c["role"], c["name"]) for c in ok(hovered)["changes_before"]["changed"]] == [("heading", "Our shop")]
        assert "Not caused by it: 1 change before it" in hovered.content[0].text
        # fill through a handler that reformats the value: the answer says what the field holds
        ok(await s.call_tool("open", {"url": VALUES}))
        snap = ok(await s.call_tool("snapshot", {}))
        filled = await s.call_tool("fill", {"ref": ref_of(snap, "Formatted"), "text": "1234567"})
        assert ok(filled)["value"] == "1,234,567"
        assert 'The page changed the value to "1,234,567".' in filled.content[0].text
        log = ok(await s.call_tool("eval", {"js": "JSON.stringify(window.__log)"}))["value"]
        assert ["formatted", "1,234,567"] in json.loads(log)
        # failures are tool errors, and the server goes on
        failed(await s.call_tool("click", {"ref": "c0p0f0e999"}), "unknown_ref")
        assert "Usage: click REF" in failed(await s.call_tool("click", {}), "usage")
        assert "Usage: click REF" in failed(await s.call_tool("click", {"ref": 3}), "usage")
        assert "Usage: tab N" in failed(await s.call_tool("tab", {"action": "close"}), "usage")
        failed(await s.call_tool("no-such-tool", {}), "usage")
        return ok(await s.call_tool("tabs", {}))

    assert len(run_mcp(env, body)["tabs"]) == 1


def test_every_word_of_a_choice_is_a_tool_answer_and_a_frame_index_is_typed(env, demo):
    """`scroll REF | scroll up|down`: the schema offers each word of the choice (an agent can say `down`),
    judged by where the page itself is scrolled; `snapshot --frame fN` takes a frame index, and a wrong
    one is a usage error in one line."""
    async def body(s):
        tools = {t.name: t.input_schema for t in (await s.list_tools()).tools}
        ok(await s.call_tool("open", {"url": demo.url("form.html")}))
        down = ok(await s.call_tool("scroll", {"action": "down"}))
        low = ok(await s.call_tool("eval", {"js": "window.scrollY"}))["value"]
        up = ok(await s.call_tool("scroll", {"action": "up"}))
        high = ok(await s.call_tool("eval", {"js": "window.scrollY"}))["value"]
        sideways = failed(await s.call_tool("scroll", {"action": "sideways"}), "usage")
        ok(await s.call_tool("open", {"url": demo.url("frames.html")}))
        framed = ok(await s.call_tool("snapshot", {"frame": "f1"}))
        bad = failed(await s.call_tool("snapshot", {"frame": "1"}), "usage")
        return tools, down, low, up, high, sideways, framed, bad

    tools, down, low, up, high, sideways, framed, bad = run_mcp(env, body)
    assert tools["scroll"]["properties"]["action"]["enum"] == ["up", "down"]
    assert "ref" in tools["scroll"]["properties"] and "required" not in tools["scroll"]
    assert tools["snapshot"]["properties"]["frame"]["pattern"] == "^f[0-9]+$"
    assert down["direction"] == "down" and down["scroll_y"] == low > 0
    assert up["direction"] == "up" and up["scroll_y"] == high < low
    assert sideways == "usage: Parameter 'action' must be one of up, down. Usage: scroll REF | scroll up|down"
    assert framed["text"] and all(f"f1e" in r for r in framed["refs"])
    assert bad == ("usage: --frame must be a frame index like f1 ('frames' lists them) (got '1'). Usage: snapshot "
                   "[--all-refs] [--fresh] [--frame fN] [--no-frames] [--max-chars N] [--within TARGET] "
                   "[--interactive] [--depth N]")


def test_click_two_cross_origin_frames_deep(env, demo):
    async def body(s):
        ok(await s.call_tool("open", {"url": demo.url("frames.html")}))
        ok(await s.call_tool("wait", {"ref": 'button:"Leaf button"'}))
        snap = ok(await s.call_tool("snapshot", {}))
        leaf = ref_of(snap, "Leaf button", "button")
        frame = int(leaf.split("f")[1].split("e")[0])
        assert [f for f in snap["frames"] if f["index"] == frame][0]["cross_origin"]
        ok(await s.call_tool("click", {"ref": leaf}))
        return ok(await s.call_tool("wait", {"action": "text", "text": "Leaf clicked"}))

    assert run_mcp(env, body)["for"] == "text"


def test_own_session_is_watched_joined_and_shares_refs_both_ways(env, demo):
    async def body(s):
        ok(await s.call_tool("open", {"url": demo.url("shop.html")}))
        assert [x["name"] for x in env.sessions()] == ["mcp"]
        snap = ok(await s.call_tool("snapshot", {}))
        home = ref_of(snap, "Home", "link")
        # a ref the agent saw works from the command line in the same session ...
        code, out = env.json_run("mcp", f"inspect {home}", "snapshot")
        assert code == 0 and out[0]["result"]["ref"] == home
        theirs = refs_named(out[1]["result"], "Add to cart")[-1]
        # ... and one the command line saw works for the agent
        clicked = ok(await s.call_tool("click", {"ref": theirs}))
        assert clicked["ref"] == theirs
        # a second server without --session gets a session of its own: mcp-2
        second = Raw(env)
        try:
            second.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                         "params": {"name": "tabs", "arguments": {}}})
            assert second.recv(1)["result"]["isError"] is False
            assert sorted(x["name"] for x in env.sessions()) == ["mcp", "mcp-2"]
        finally:
            second.proc.stdin.close()
            assert second.proc.wait(timeout=60) == 0
        return [x["name"] for x in env.sessions()]

    assert run_mcp(env, body) == ["mcp"]
    poll(lambda: env.sessions() == [], what="the mcp session to end with its server")
    poll(lambda: not env.chrome_pids(), what="its browser to close")


def test_serves_a_named_session_and_its_calls_are_marked_mcp_in_the_feed(env, demo):
    env.start("shared", demo.url("shop.html"))

    async def body(s):
        return ok(await s.call_tool("eval", {"js": "'from-' + 'agent'"}))

    from test_sessions import attached

    with attached(env, "shared") as (proc, screen):
        assert run_mcp(env, body, "--session", "shared")["value"] == "from-agent"
        screen.wait_for("[mcp] eval 'from-' + 'agent'")
        screen.wait_for("from-agent")
        screen.type("\x04")
        proc.wait(timeout=30)
    assert [x["name"] for x in env.sessions()] == ["shared"]  # served, not owned: it goes on


def test_stdin_closed_mid_command_ends_the_session_and_its_browser(env):
    raw = Raw(env, "--timeout", "300")
    raw.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "open", "arguments":
                                                                             {"url": SHOP}}})
    assert raw.recv(1)["result"]["isError"] is False
    assert env.chrome_pids()
    raw.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "wait", "arguments":
                                                                             {"ms": 240_000}}})
    assert poll(lambda: [s for s in env.sessions() if s.get("busy")], what="the wait to run")
    raw.proc.stdin.close()
    raw.proc.wait(timeout=120)  # the four-minute wait is cancelled, not waited for
    assert env.sessions() == []
    poll(lambda: not env.chrome_pids(), what="no orphan browser")
    assert all(json.loads(line)["jsonrpc"] == "2.0" for line in raw.lines)


def test_a_named_session_that_is_not_there_and_a_missing_sdk_say_so_in_one_line(env, tmp_path):
    proc = env.run("mcp", "--session", "nobody", timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == "No session 'nobody'. Start one with 'verdex session start nobody'."
    fake = tmp_path / "mcp"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('no mcp here')\n")
    environ = dict(env.env, PYTHONPATH=f"{tmp_path}{os.pathsep}{env.env['PYTHONPATH']}")
    proc = subprocess.run(env.argv("mcp"), env=environ, cwd=ROOT, stdin=subprocess.DEVNULL, text=True,
                          capture_output=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == "verdex mcp needs the MCP SDK: pip install 'verdex-cli[mcp]'"
    assert not env.chrome_pids()


INSPECTOR = "@modelcontextprotocol/inspector@0.15.0"


def inspector(env: Env, *args: str) -> dict:
    """One call by the MCP Inspector's CLI (a client nobody here wrote), fetched by npx; skipped with
    the reason where npm cannot install it."""
    npx = shutil.which("npx")
    if npx is None:
        pytest.skip("npx is not installed")
    argv = [npx, "--yes", INSPECTOR, "--cli", "-e", f"XDG_RUNTIME_DIR={env.env['XDG_RUNTIME_DIR']}",
            "-e", f"PYTHONPATH={env.env['PYTHONPATH']}", sys.executable, "-m", "verdex_cli", "mcp", *args]
    proc = subprocess.run(argv, env=env.env, cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=900)
    if proc.returncode != 0 and "npm" in proc.stderr and "ERR" in proc.stderr:
        pytest.skip(f"npm could not install {INSPECTOR}: {proc.stderr.strip().splitlines()[-1]}")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_mcp_inspector_cli_lists_the_tools_and_clicks_a_ref_the_command_line_saw(env, demo):
    env.start("insp", demo.url("shop.html"))
    tools = inspector(env, "--session", "insp", "--method", "tools/list")["tools"]
    assert CONTRACT_TOOLS <= {t["name"] for t in tools}
    code, out = env.json_run("insp", "snapshot")
    mug = refs_named(out[0]["result"], "Add to cart")[0]
    clicked = inspector(env, "--session", "insp", "--method", "tools/call", "--tool-name", "click",
                        "--tool-arg", f"ref={mug}")
    assert not clicked.get("isError") and clicked["structuredContent"]["ref"] == mug
    code, out = env.json_run("insp", "eval [...document.querySelectorAll('#cart li')].map(li => li.dataset.product).join()")
    assert out[0]["result"]["value"] == "mug"
