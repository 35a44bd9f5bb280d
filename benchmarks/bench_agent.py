"""Scripted agent flows through three MCP servers: `verdex mcp`, `@playwright/mcp` 0.0.83 and
`chrome-devtools-mcp` 1.11, each started over stdio with the official SDK's client, each on the
system Chromium (headless, its own browser; hosts other than loopback fail at once, as in bench_real).
All servers run at once and take turns, flow by flow (and page by page on the real pages), the one
that goes first changing each time: the ratios compare runs under the same machine load.

    python benchmarks/bench_agent.py [--runs 1] [--no-real] [--real-limit N] [--only verdex,playwright,devtools]
                                     [--flows shop,form,frames,list,real]

No model: each flow is a fixed sequence of intents ("click the button "Add to cart" after the heading
"Notebook""); the ref for each is read from that server's own text (its latest answers first, then
its last snapshot; when the element is in none of them, the agent takes a snapshot). Counted per flow:
tool calls, wall time, and the characters the agent must read to know what happened: the text of
every answer, plus, for Playwright MCP (which answers with a link to a snapshot file), that file.
chrome-devtools-mcp's actions ask for `includeSnapshot` (else it answers "Successfully clicked").
Each intent is judged by the page's own state (cart, order status, the form's echo, a click log the
page keeps), read by the server's evaluate tool outside the counted time and characters; for the
cross-origin leaf frame, Playwright and chrome-devtools evaluate on the leaf button's own document,
verdex (whose `eval` runs in the top frame) waits for the page's "Leaf clicked" text. A wrong element
is an effect on something else; a false success is an ok answer with no effect.

Flows: shop (add two products, checkout, confirm), form (two text fields, a select, a checkbox,
submit), frames (the button two cross-origin frames deep), list (items re-rendered with innerHTML and
rotated on every click, clicked by name) and real (open + snapshot of each saved page in
/tmp/realpages/real-pages, when present). npm packages are installed into ~/.cache/verdex-bench-npm
(PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD, PUPPETEER_SKIP_DOWNLOAD); a server that cannot be installed or
started is reported in one line and the others are measured. Targets (issue 34): verdex <= 0.4x the
characters and <= 0.5x the wall time of Playwright MCP on every flow, 0 wrong, 0 false success,
tools/list <= 16,000 characters.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

import harness as h

CHROMIUM = "/usr/bin/chromium"
RESOLVER = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"  # as bench_real
NPM_DIR = Path.home() / ".cache" / "verdex-bench-npm"
PACKAGES = {"playwright": ("@playwright/mcp@0.0.83", "playwright-mcp"),
            "devtools": ("chrome-devtools-mcp@1.11", "chrome-devtools-mcp")}
REAL = Path("/tmp/realpages/real-pages")
TRACE = False  # --trace: each counted call on stderr (tool, arguments, ms, characters)
LIST_PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Fruit list</title></head>
<body><main><h1>Fruit</h1><p id="picked" role="status">Picked: none</p><ul id="list"></ul></main><script>
var names = ["Apple", "Banana", "Cherry", "Date", "Elderberry", "Fig", "Grape", "Honeydew"], turn = 0;
window.__log = [];
function render() {  // the whole list anew, rotated: every item moves on every click
  var k = turn % names.length, order = names.slice(k).concat(names.slice(0, k));
  document.getElementById("list").innerHTML = order.map(function (n) {
    return '<li><button type="button" data-name="' + n + '">' + n + '</button></li>'; }).join("");
}
document.getElementById("list").addEventListener("click", function (ev) {
  var b = ev.target.closest("button"); if (!b) return;
  window.__log.push(b.dataset.name);
  document.getElementById("picked").textContent = "Picked: " + b.dataset.name;
  turn += 3; setTimeout(render, 30);
});
render();
</script></body></html>
"""
LINE = re.compile(r'(?:uid=(?P<uid>\S+) )?(?P<role>[a-z]+) "(?P<name>[^"]*)"(?P<rest>[^\n]*)')
REF = re.compile(r"\[ref=([^\]]+)\]")
REDRAWN = re.compile(r"^\s*~ \d+ re-rendered \(old refs gone\): ")  # verdex: one line, the role said once a run
REDRAWN_ITEM = re.compile(r'(?:(?P<role>[a-z]+) )?"(?P<name>[^"]*)"[^,]*? (?P<ref>c\d+p\d+f\d+e\d+)')


def install(which: str) -> Path | None:
    """The server's binary in the npm cache, installed there on first use; None (said in one line) when
    npm cannot install it."""
    pkg, binary = PACKAGES[which]
    path = NPM_DIR / "node_modules" / ".bin" / binary
    if not path.exists():
        env = dict(os.environ, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD="1", PUPPETEER_SKIP_DOWNLOAD="1")
        done = subprocess.run(["npm", "install", "--prefix", str(NPM_DIR), pkg], env=env, capture_output=True)
        if done.returncode or not path.exists():
            print(f"{which}: cannot install {pkg} with npm ({done.stderr.decode()[-200:].strip()!r}); not measured")
            return None
    return path


def chromium(base: str) -> str:
    """The system Chromium behind a wrapper that adds RESOLVER: the real pages' far-away hosts fail at
    once for all three servers (as in bench_real) instead of each waiting out a connection nobody answers."""
    path = os.path.join(base, "chromium")
    Path(path).write_text(f'#!/bin/sh\nexec {CHROMIUM} "{RESOLVER}" "$@"\n')
    os.chmod(path, 0o755)
    return path


def server_params(which: str, base: str) -> StdioServerParameters | None:
    browser = chromium(base)
    env = dict(os.environ, XDG_RUNTIME_DIR=os.path.join(base, "rt"), TMPDIR=base,
               CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS="1")
    if which == "verdex":
        return StdioServerParameters(command=sys.executable, args=["-m", "verdex_cli", "mcp", "--chrome", browser],
                                     env=env, cwd=str(h.ROOT))
    binary = install(which)
    if binary is None:
        return None
    if which == "playwright":
        args = ["--executable-path", browser, "--headless", "--isolated", "--no-sandbox",
                "--output-dir", os.path.join(base, "pw-out"), "--file-paths", "absolute"]
    else:
        args = ["--executablePath", browser, "--headless", "--isolated", "--chromeArg=--no-sandbox",
                "--no-usage-statistics", "--no-performance-crux"]
    return StdioServerParameters(command=str(binary), args=args, env=env, cwd=base)


class Agent:
    """One server, spoken to through the SDK client; counts what the scripted agent pays."""

    def __init__(self, which: str, session: ClientSession):
        self.which, self.s = which, session
        self.page_id = None
        self.reset()

    def reset(self) -> None:
        self.calls, self.ms, self.chars, self.wrong, self.false_ok, self.errors = 0, 0.0, 0, 0, 0, 0
        self.read: list[str] = []  # what the agent has read since the last navigation, oldest first

    async def raw(self, name: str, args: dict) -> tuple[str, bool]:
        if self.page_id is not None:
            args = dict(args, pageId=self.page_id)
        result = await self.s.call_tool(name, args)
        text = "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")
        for link in re.findall(r"\[Snapshot\]\(([^)]+\.yml)\)", text):  # Playwright MCP: read the file too
            text += "\n" + Path(link).read_text()
        return text, bool(result.is_error)

    async def call(self, name: str, args: dict) -> tuple[str, bool]:
        start = time.perf_counter()
        text, error = await self.raw(name, args)
        self.ms += (time.perf_counter() - start) * 1000
        self.calls += 1
        self.chars += len(text)
        self.errors += error
        self.read.append(text)
        if TRACE:
            print(f"  {self.which} {name} {json.dumps(args)[:80]}: {(time.perf_counter() - start) * 1000:.0f} ms, "
                  f"{len(text)} chars{' (error)' if error else ''}", file=sys.stderr)
        return text, error

    # -- the tools, per server ---------------------------------------------------------------------
    async def open(self, url: str) -> None:
        self.read = []
        tool = {"verdex": ("open", {"url": url}), "playwright": ("browser_navigate", {"url": url}),
                "devtools": ("navigate_page", {"type": "url", "url": url})}[self.which]
        await self.call(*tool)

    async def snapshot(self) -> str:
        tool = {"verdex": "snapshot", "playwright": "browser_snapshot", "devtools": "take_snapshot"}[self.which]
        return (await self.call(tool, {}))[0]

    async def click(self, ref: str, what: str) -> bool:
        tool = {"verdex": ("click", {"ref": ref}), "playwright": ("browser_click", {"target": ref, "element": what}),
                "devtools": ("click", {"uid": ref, "includeSnapshot": True})}[self.which]
        return not (await self.call(*tool))[1]

    async def fill_form(self, fields: list[tuple[str, str, str, str]]) -> bool:
        """``fields``: (kind, ref, value, name); each server's own way (the peers fill a form in one call)."""
        if self.which == "playwright":
            spec = [{"target": r, "name": n, "type": k, "value": v} for k, r, v, n in fields]
            return not (await self.call("browser_fill_form", {"fields": spec}))[1]
        if self.which == "devtools":
            spec = [{"uid": r, "value": v} for _, r, v, _ in fields]
            return not (await self.call("fill_form", {"elements": spec, "includeSnapshot": True}))[1]
        ok = True
        for kind, ref, value, _ in fields:
            tool = {"textbox": ("fill", {"ref": ref, "text": value}),
                    "combobox": ("select", {"ref": ref, "values": [value]}),
                    "checkbox": ("check", {"ref": ref})}[kind]
            ok = not (await self.call(*tool))[1] and ok
        return ok

    async def judge(self, js: str, ref: str | None = None) -> object:
        """The page's state (``js``: an expression; with ``ref``, a function of that element, run in its
        document), outside the counts."""
        wrapped = f"btoa(unescape(encodeURIComponent(JSON.stringify({js}))))"
        if ref is None:
            tool = {"verdex": ("eval", {"js": f"'J<' + {wrapped} + '>J'"}),
                    "playwright": ("browser_evaluate", {"function": f"() => 'J<' + {wrapped} + '>J'"}),
                    "devtools": ("evaluate_script", {"function": f"() => 'J<' + {wrapped} + '>J'"})}[self.which]
        else:
            fn = f"(el) => {{ const doc = el.ownerDocument; return 'J<' + {wrapped} + '>J'; }}"
            tool = {"playwright": ("browser_evaluate", {"function": fn, "target": ref, "element": "judge"}),
                    "devtools": ("evaluate_script", {"function": fn, "args": [ref]})}[self.which]
        text, _ = await self.raw(*tool)
        found = re.search(r"J<([A-Za-z0-9+/=]+)>J", text)
        return json.loads(base64.b64decode(found.group(1)).decode()) if found else None

    # -- reading refs from the server's own text ---------------------------------------------------
    def find(self, role: str, name: str, after: str | None = None) -> str | None:
        """The ref of the first ``role "name"`` (after the heading ``after``), in the newest text that
        has it; removed lines of verdex's changes (``- ...`` under an action's first line) are skipped,
        and its line of re-rendered elements is read item by item."""
        for text in reversed(self.read):
            lines = text.splitlines()
            is_changes = self.which == "verdex" and lines and not lines[0].startswith("- ")
            seen = after is None
            for line in lines:
                if is_changes and line.lstrip().startswith("- "):
                    continue
                if is_changes and seen and REDRAWN.match(line):
                    ref = _redrawn_ref(line, role, name)
                    if ref:
                        return ref
                    continue
                m = LINE.search(line)
                if not m:
                    continue
                if not seen:
                    seen = m["role"] == "heading" and m["name"] == after
                    continue
                ref = m["uid"] or (REF.search(m["rest"]) or [None, None])[1]
                if m["role"] == role and m["name"] == name and ref:
                    return ref
        return None

    async def locate(self, role: str, name: str, after: str | None = None) -> str:
        ref = self.find(role, name, after)
        for _ in range(4):  # not in what it read: the agent takes a snapshot (frames load late)
            if ref:
                return ref
            await self.snapshot()
            ref = self.find(role, name, after)
            if not ref:
                await anyio.sleep(0.3)
        raise RuntimeError(f"{self.which}: no {role} {name!r} in its own snapshot")

    def verdict(self, said_ok: bool, state: str) -> None:
        """``state``: 'ok' (the intended effect), 'wrong' (an effect on something else), 'none'."""
        self.wrong += state == "wrong"
        self.false_ok += said_ok and state != "ok"


def _redrawn_ref(line: str, role: str, name: str) -> str | None:
    current = None
    for m in REDRAWN_ITEM.finditer(line, REDRAWN.match(line).end()):
        current = m["role"] or current
        if current == role and m["name"] == name:
            return m["ref"]
    return None


# -- the flows ---------------------------------------------------------------------------------------
CART = "[...document.querySelectorAll('#cart li')].map(li => li.dataset.product)"


async def flow_shop(a: Agent, urls) -> None:
    await a.open(urls["shop"])
    wanted: list[str] = []
    for product, heading in (("mug", "Coffee mug"), ("notebook", "Notebook")):
        ok = await a.click(await a.locate("button", "Add to cart", after=heading), f"Add {heading} to cart")
        wanted.append(product)
        cart = await a.judge(CART)
        a.verdict(ok, "ok" if cart == wanted else "wrong" if cart and set(cart) - set(wanted) else "none")
    ok = await a.click(await a.locate("button", "Checkout"), "Checkout")
    shown = await a.judge("!document.getElementById('checkout-dialog').hidden")
    a.verdict(ok, "ok" if shown else "none")
    ok = await a.click(await a.locate("button", "Confirm order"), "Confirm order")
    status = await a.judge("document.getElementById('order-status').textContent")
    a.verdict(ok, "ok" if status == "Order confirmed: $20.50. Thank you!" else "wrong" if status else "none")


async def flow_form(a: Agent, urls) -> None:
    await a.open(urls["form"])
    values = {"Name": "Ada Lovelace", "Email": "ada@example.com", "Country": "France", "Subscribe": "true"}
    kinds = {"Name": "textbox", "Email": "textbox", "Country": "combobox", "Subscribe": "checkbox"}
    fields = [(kinds[n], await a.locate(kinds[n], n), v, n) for n, v in values.items()]
    ok = await a.fill_form(fields)
    got = await a.judge("((d) => [d('name').value, d('email').value, d('country').selectedOptions[0].text, "
                        "d('subscribe').checked])((id) => document.getElementById(id))")
    expect = ["Ada Lovelace", "ada@example.com", "France", True]
    a.verdict(ok, "ok" if got == expect else "none" if got == ["", "", "Japan", False] else "wrong")
    ok = await a.click(await a.locate("button", "Submit"), "Submit")
    echo = await a.judge("document.getElementById('result').textContent") or ""
    lines = {"Name: Ada Lovelace", "Email: ada@example.com", "Country: France", "Subscribe: yes"}
    a.verdict(ok, "ok" if lines <= set(echo.splitlines()) else "wrong" if echo.startswith("Submitted") else "none")


async def flow_frames(a: Agent, urls) -> None:
    await a.open(urls["frames"])
    leaf = await a.locate("button", "Leaf button")
    ok = await a.click(leaf, "Leaf button")
    if a.which == "verdex":  # verdex's eval runs in the top frame: the page's own text, waited for
        _, error = await a.raw("wait", {"action": "text", "text": "Leaf clicked"})
        state = "none" if error else "ok"
    else:
        state = "ok" if await a.judge("doc.getElementById('leaf-status').textContent", ref=leaf) == "Leaf clicked" \
            else "none"
    count = await a.judge("document.getElementById('same-frame').contentDocument.getElementById('frame-count')"
                          ".textContent")
    a.verdict(ok, "wrong" if count != "Clicked 0 times" else state)


async def flow_list(a: Agent, urls) -> None:
    await a.open(urls["list"])
    picks = ["Cherry", "Apple", "Fig", "Banana", "Cherry"]
    for i, name in enumerate(picks):
        ok = await a.click(await a.locate("button", name), name)
        await anyio.sleep(0.1)  # the page re-renders 30 ms after the click; outside nobody's answer
        log = await a.judge("window.__log")
        a.verdict(ok, "ok" if log == picks[:i + 1] else "wrong" if len(log) > i else "none")
        a.wrong += len(log) > i + 1  # a click that landed twice


async def flow_real(a: Agent, urls) -> None:
    for url in urls["real"]:
        await a.open(url)
        if a.which != "playwright":  # Playwright's navigate answer links its snapshot, already read
            await a.snapshot()


FLOWS = {"shop": flow_shop, "form": flow_form, "frames": flow_frames, "list": flow_list, "real": flow_real}


async def start(stack: AsyncExitStack, which: str, params: StdioServerParameters, urls, errlog) -> tuple[Agent, dict]:
    """The server started and its browser on the blank page (outside every flow): its agent, and the
    start figures (tools/list size, start-up wall time)."""
    begun = time.perf_counter()
    read, write = await stack.enter_async_context(stdio_client(params, errlog=errlog))
    session = await stack.enter_async_context(ClientSession(read, write))
    await session.initialize()
    listed = await session.list_tools()
    agent = Agent(which, session)
    if which == "devtools":  # its tools need the page's id (the default --pageIdRouting)
        pages, _ = await agent.raw("list_pages", {})
        agent.page_id = int(re.search(r"^(\d+):", pages, re.M).group(1))
    await agent.open(urls["blank"])  # the browser starts here
    return agent, {"tools": len(listed.tools), "tools_chars": len(listed.model_dump_json(by_alias=True, exclude_none=True)),
                   "start_ms": (time.perf_counter() - begun) * 1000}


async def measure(params: dict, urls, flows: list[str], errlog) -> dict:
    """Every server up at once, the flows run on each in turn (the first server changes from flow to
    flow; real pages: from page to page), so that machine load falls on all alike."""
    out: dict = {}
    async with AsyncExitStack() as stack:
        agents = {}
        for which, p in params.items():
            try:
                agents[which], out[which] = await start(stack, which, p, urls, errlog)
            except Exception as exc:
                print(f"{which}: cannot be started ({type(exc).__name__}: {str(exc)[:200]}); not measured")
        turn = 0
        for flow in flows:
            for agent in agents.values():
                agent.reset()
            steps = [{**urls, "real": [u]} for u in urls["real"]] if flow == "real" else [urls]
            failed: dict = {}
            for step in steps:
                names = list(agents)
                turn += 1
                for which in names[turn % len(names):] + names[:turn % len(names)]:
                    if which in failed:
                        continue
                    try:
                        await FLOWS[flow](agents[which], step)
                    except Exception as exc:  # one line: the flow could not be driven on this server
                        failed[which] = f"{type(exc).__name__}: {str(exc)[:160]}"
            for which, agent in agents.items():
                out[which][flow] = {"failed": failed[which]} if which in failed else \
                    {k: getattr(agent, k) for k in ("calls", "ms", "chars", "wrong", "false_ok", "errors")}
    return out


def report(results: dict, flows: list[str]) -> None:
    print(f"{'server':<11}{'flow':<8}{'calls':>6}{'wall ms':>10}{'chars':>10}{'wrong':>6}{'false ok':>9}{'errors':>7}")
    for which, res in results.items():
        print(f"{which:<11}{'start':<8}{res['tools']:>6}{res['start_ms']:>10.0f}{res['tools_chars']:>10,}"
              "   (tools/list: tools, characters; wall: start + first page)")
        for flow in flows:
            r = res[flow]
            if "failed" in r:
                print(f"{which:<11}{flow:<8}  not driven: {r['failed']}")
                continue
            print(f"{which:<11}{flow:<8}{r['calls']:>6}{r['ms']:>10.0f}{r['chars']:>10,}{r['wrong']:>6}"
                  f"{r['false_ok']:>9}{r['errors']:>7}")
    v, p = results.get("verdex"), results.get("playwright")
    if not (v and p):
        return
    print("verdex / Playwright MCP (targets: chars <= 0.4, wall <= 0.5):")
    for flow in flows:
        if "failed" in v[flow] or "failed" in p[flow]:
            continue
        chars, wall = v[flow]["chars"] / p[flow]["chars"], v[flow]["ms"] / p[flow]["ms"]
        print(f"  {flow:<8} chars {chars:.2f}{'' if chars <= 0.4 else ' (over)'}   wall {wall:.2f}"
              f"{'' if wall <= 0.5 else ' (over)'}")
    print(f"  tools/list: {v['tools_chars']:,} chars (bound 16,000) vs {p['tools_chars']:,}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--no-real", action="store_true")
    ap.add_argument("--real-limit", type=int, default=0, help="only the first N real pages (0: all)")
    ap.add_argument("--only", default="verdex,playwright,devtools")
    ap.add_argument("--flows", default=",".join(FLOWS), help="the flows to run, comma-separated")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--trace", action="store_true", help="each counted call on stderr")
    args = ap.parse_args()
    global TRACE
    TRACE = args.trace
    base = tempfile.mkdtemp(prefix="vxa-", dir="/tmp")
    os.mkdir(os.path.join(base, "rt"), 0o700)
    site = Path(base) / "list"
    site.mkdir()
    (site / "list.html").write_text(LIST_PAGE)
    flows = [f for f in args.flows.split(",") if f != "real"]
    args.no_real |= "real" not in args.flows.split(",")
    real = sorted(REAL.glob("*.html")) if REAL.is_dir() and not args.no_real else []
    if not args.no_real and not real:
        print(f"real: {REAL} is missing; the real-pages flow is skipped")
    if args.real_limit:
        real = real[:args.real_limit]
    all_runs = []
    with h.served() as demo, h.served(site) as lists, h.served(REAL if real else site) as pages, \
            open(os.path.join(base, "servers.err"), "w") as errlog:
        urls = {"blank": demo.url("blank.html"), "shop": demo.url("shop.html"), "form": demo.url("form.html"),
                "frames": demo.url("frames.html"),
                "list": lists.url("list.html"), "real": [pages.url(p.name) for p in real]}
        flows += ["real"] if real else []
        for run in range(args.runs):
            params = {w: p for w in args.only.split(",") if (p := server_params(w, base)) is not None}
            results = anyio.run(measure, params, urls, flows, errlog)
            print(f"run {run + 1}/{args.runs} (load {h.load()}, {len(real)} real pages)")
            report(results, flows)
            all_runs.append(results)
    if args.json:
        h.write_json(all_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
