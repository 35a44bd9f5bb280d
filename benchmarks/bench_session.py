"""Sessions: N commands as separate invocations against one session vs N one-shot `verdex run URL`.

    python benchmarks/bench_session.py            # N = 100
    python benchmarks/bench_session.py --quick    # N = 20 (one-shot: 5)

Per-command client overhead = wall time of `verdex run --session S 'eval 1' --json` minus the
command's own `elapsed_ms`, measured interleaved with `python -c pass` (same interpreter, same run),
so machine noise hits both alike. The goal is an overhead of at most 3x `python -c pass`.
The same loop runs with agent-browser's CLI when it is installed (it is never installed here).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import harness as h

ROOT = h.ROOT
PAGE = ROOT / "demo_pages" / "index.html"


def env_for(runtime: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["XDG_RUNTIME_DIR"] = runtime
    env.pop("VERDEX_SESSION", None)
    return env


CPU: list[float] = []  # CPU time (user + sys) of the last child, ms: less at the mercy of machine load


def timed(argv: list[str], env: dict) -> tuple[float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
    wall = (time.perf_counter() - start) * 1000.0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU[:] = [((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000.0]
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(argv)}\n{proc.stdout}{proc.stderr}")
    return wall, proc.stdout


def summary(label: str, values: list[float]) -> str:
    values = h.Samples(sorted(values))
    p90 = values[min(len(values) - 1, int(len(values) * 0.9))]
    return (f"{label:<44} median {values.median:8.1f} ms   mean {statistics.fmean(values):8.1f} ms   "
            f"p90 {p90:8.1f} ms   (n={len(values)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=100, help="commands per loop (default 100)")
    parser.add_argument("--quick", action="store_true", help="20 session commands, 5 one-shot runs")
    parser.add_argument("--oneshot", type=int, default=None, help="one-shot runs (default: n)")
    args = parser.parse_args()
    n = 20 if args.quick else args.n
    n_oneshot = args.oneshot if args.oneshot is not None else (5 if args.quick else n)
    verdex = [sys.executable, "-m", "verdex_cli"]
    runtime = tempfile.mkdtemp(prefix="verdex-bench-")
    os.chmod(runtime, 0o700)
    env = env_for(runtime)
    print(f"python: {sys.executable}  ({sys.version.split()[0]})")
    wall, _ = timed(verdex + ["session", "start", "bench", str(PAGE)], env)
    print(f"session start (browser launch + open): {wall:.0f} ms")
    try:
        session_wall, overhead, passes, client_cpu, pass_cpu = [], [], [], [], []
        for _ in range(n):
            w, out = timed(verdex + ["run", "--session", "bench", "eval 1", "--json"], env)
            client_cpu.append(CPU[0])
            result = json.loads(out)
            assert result["ok"] and result["result"]["value"] == 1, result
            session_wall.append(w)
            overhead.append(w - result["elapsed_ms"])
            passes.append(timed([sys.executable, "-c", "pass"], env)[0])
            pass_cpu.append(CPU[0])
        oneshot = []
        for _ in range(n_oneshot):
            oneshot.append(timed(verdex + ["run", str(PAGE), "eval 1", "--json"], env)[0])
    finally:
        subprocess.run(verdex + ["session", "stop", "bench"], env=env, stdout=subprocess.DEVNULL, check=False)
        shutil.rmtree(runtime, ignore_errors=True)
    print(summary("verdex run --session bench 'eval 1' (wall)", session_wall))
    print(summary("  client overhead (wall - elapsed_ms)", overhead))
    print(summary("python -c pass", passes))
    print(summary(f"verdex run {PAGE.name} 'eval 1' (one-shot)", oneshot))
    ratio = statistics.median(overhead) / statistics.median(passes)
    print(f"overhead / python -c pass (medians): {ratio:.2f}x   (goal <= 3x)")
    print(summary("client CPU time (user + sys)", client_cpu))
    print(summary("python -c pass CPU time", pass_cpu))
    print(f"client CPU / python -c pass CPU (medians): {statistics.median(client_cpu) / statistics.median(pass_cpu):.2f}x"
          f"   load average: {os.getloadavg()[0]:.1f}")
    print(f"{n} commands: session {sum(session_wall) / 1000:.1f} s   vs one-shot "
          f"~{statistics.median(oneshot) * n / 1000:.1f} s (median x {n})")
    agent_browser(n, env)
    return 0


def agent_browser(n: int, env: dict) -> None:
    exe = shutil.which("agent-browser")
    if exe is None:
        print("agent-browser: not installed; its loop was skipped (npm i -g agent-browser to compare).")
        return
    timed([exe, "open", PAGE.as_uri()], env)
    try:
        walls = [timed([exe, "eval", "1"], env)[0] for _ in range(n)]
        print(summary("agent-browser eval 1 (wall)", walls))
    finally:
        subprocess.run([exe, "close"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


if __name__ == "__main__":
    sys.exit(main())
