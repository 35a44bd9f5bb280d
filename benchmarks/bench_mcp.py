"""The MCP layer's own cost: a `snapshot` tool call on a cached page through `verdex mcp` against the
same command in `verdex run --json --script -` (one line in, one JSON line out), median of N each.

    python benchmarks/bench_mcp.py [--runs 50] [--page shop.html] [--json]

Both sides run as a client sees them, each with its own browser on the same demo page (served on
loopback): the wall time from writing the request line to reading its answer line. The MCP side
speaks raw JSON-RPC lines to `verdex mcp` (its own session: the call crosses the session socket);
the script side is one-shot mode reading stdin live. The sides take turns call by call, so machine
load hits both alike. The issue's bound: MCP within 5 ms of the script mode.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time

import harness as h

VERDEX = [sys.executable, "-m", "verdex_cli"]


class Lines:
    """A child process spoken to in lines: ``ask`` writes one and returns the first answer line that
    ``wanted`` accepts, with the wall time in ms."""

    def __init__(self, argv: list[str], env: dict):
        self.proc = subprocess.Popen(argv, env=env, cwd=h.ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.buf = b""

    def ask(self, line: str, wanted=lambda obj: True, timeout: float = 120.0) -> tuple[dict, float]:
        start = time.perf_counter()
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while b"\n" in self.buf:
                raw, self.buf = self.buf.split(b"\n", 1)
                obj = json.loads(raw)
                if wanted(obj):
                    return obj, (time.perf_counter() - start) * 1000
            ready, _, _ = select.select([self.proc.stdout], [], [], 1.0)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
                if not chunk:
                    break
                self.buf += chunk
        raise SystemExit(f"no answer to {line[:60]!r}")

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


class Mcp(Lines):
    def __init__(self, env: dict):
        super().__init__(VERDEX + ["mcp"], env)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "0"}})
        self.proc.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')

    def request(self, method: str, params: dict) -> tuple[dict, float]:
        self.next_id += 1
        msg_id = self.next_id
        line = json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return self.ask(line, lambda obj: obj.get("id") == msg_id)

    def call(self, name: str, arguments: dict) -> tuple[dict, float]:
        answer, ms = self.request("tools/call", {"name": name, "arguments": arguments})
        if answer["result"].get("isError"):
            raise SystemExit(f"{name}: {answer['result']['content'][0]['text']}")
        return answer, ms


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--page", default="shop.html")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    base = tempfile.mkdtemp(prefix="vxm-", dir="/tmp")
    runtime = os.path.join(base, "rt")
    os.mkdir(runtime, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, TMPDIR=base,
               PYTHONPATH=str(h.ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("VERDEX_SESSION", None)
    load_before = h.load()
    with h.served() as server:
        url = server.url(args.page)
        mcp = Mcp(env)
        script = Lines(VERDEX + ["run", "--json", "--script", "-", url], env)
        try:
            mcp.call("open", {"url": url})
            sides = {"mcp": lambda: mcp.call("snapshot", {})[1],
                     "script": lambda: script.ask("snapshot")[1]}
            for side in sides.values():  # the first snapshot captures; the rest are cached
                side()
            times: dict[str, list[float]] = {"mcp": [], "script": []}
            for i in range(args.runs):
                for name in (("mcp", "script") if i % 2 == 0 else ("script", "mcp")):
                    times[name].append(sides[name]())
        finally:
            mcp.close()
            script.close()
    medians = {k: round(statistics.median(v), 2) for k, v in times.items()}
    values = {"runs": args.runs, "page": args.page, "mcp_ms": medians["mcp"], "script_ms": medians["script"],
              "overhead_ms": round(medians["mcp"] - medians["script"], 2), "load": [load_before, h.load()]}
    if args.json:
        h.write_json(values)
    else:
        print(f"snapshot on a cached page ({args.page}), median of {args.runs}: verdex mcp {medians['mcp']} ms, "
              f"--script - {medians['script']} ms; MCP overhead {values['overhead_ms']} ms (bound: 5 ms); "
              f"load {values['load']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
