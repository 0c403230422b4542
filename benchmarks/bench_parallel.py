"""Parallel speed-up of an experiment against a model server with a fixed latency and a few slots.

Usage::

    python benchmarks/bench_parallel.py                               # 20 lga games, 1 s a call, 4/8/16 slots
    python benchmarks/bench_parallel.py --games 4 --latency 0.05 --slots 4   # quick check
    python benchmarks/bench_parallel.py --replicas 1,2,4 --slots 2    # the same model on 1, 2 and 4 servers

With ``--replicas``, each row serves the model from that many servers of ``--slots`` slots each, named in one
model spec (``URL|URL...#fake``, `roundtable.models.replicas`) with at most ``--slots`` calls at once to each; the
table gives games per hour and the share of linear scaling from one replica (issue 37's target: 85% from 1 to 4).

A fake OpenAI-compatible server on a loopback port answers every chat
completion after ``--latency`` seconds, serving at most ``--slots`` requests
at once (more wait in its queue, as llama.cpp's slots do). Its answers are
valid for the request: a JSON object fitting the request's JSON schema
(``response_format``), else a short sentence naming players 1 and 2. For each
slot count, ``--games`` games (``bench5``, AvalonBench's rules, every seat
``lga`` on that server) run through ``run_experiment`` with every game in
parallel and at most ``slots`` model calls at once to the endpoint; the table
gives wall time, the process's CPU seconds (every thread: the games, the agents and the fake server), the harness
work per model call (CPU milliseconds over calls: against a 0-second server, ``--latency 0``, what the harness
itself costs a call, issue 59's target at most 20 with the aids off and 30 with them on, ``--aids on``), model
calls, the sequential sum of call latencies, the ideal time with the server's concurrency (sum / slots) and the
share of it reached
(ideal / wall), and the most requests the server saw at once.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from roundtable.experiments.runner import run_experiment


def instance(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A value fitting a JSON schema (the subset structured output uses: objects, enums, bounded arrays)."""
    if "$ref" in schema:
        return instance(defs[schema["$ref"].split("/")[-1]], defs)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            options = [s for s in schema[key] if s.get("type") != "null"] or schema[key]
            return instance(options[0], defs)
    if "enum" in schema:
        enum = schema["enum"]
        return "fail" if "fail" in enum else enum[0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if kind == "object":
        return {name: instance(sub, defs) for name, sub in (schema.get("properties") or {}).items()}
    if kind == "array":
        items = schema.get("items") or {}
        count = schema.get("minItems", 1)
        if "enum" in items:
            return list(items["enum"][:count])
        low = items.get("minimum", 1)
        return [low + i for i in range(count)] if items.get("type") == "integer" else [
            instance(items, defs) for _ in range(count)]
    if kind == "integer":
        return schema.get("minimum", 1)
    if kind == "number":
        return 0.5
    if kind == "boolean":
        return True
    return "I trust players 1 and 2."


class SlowServer:
    """The fake server: ``latency`` seconds per call, ``slots`` calls served at once."""

    def __init__(self, latency: float, slots: int):
        self.calls = 0
        self.active = 0
        self.peak = 0
        lock = threading.Lock()
        gate = threading.BoundedSemaphore(slots)
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with gate:
                    with lock:
                        server.calls += 1
                        server.active += 1
                        server.peak = max(server.peak, server.active)
                    time.sleep(latency)
                    with lock:
                        server.active -= 1
                fmt = body.get("response_format") or {}
                if fmt.get("type") == "json_schema":
                    schema = fmt["json_schema"]["schema"]
                    content = json.dumps(instance(schema, schema.get("$defs") or {}))
                else:
                    content = "Players 1, 2. I agree with this team."
                data = json.dumps({
                    "id": "x", "object": "chat.completion", "created": 0, "model": body.get("model", "fake"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": content}}],
                    "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
                }).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()


SMALL = {"off": "", "on": "?small=true"}
"""The model spec's tail for ``--aids``: the fake model is not small (aids ``auto`` is off) unless declared so."""

CONFIG = """
name = "parallel"
games_per_condition = {games}
parallel_games = {games}
model_calls_per_endpoint = {slots}
retention = "delete"

[defaults]
preset = "{preset}"
agents = "{agents}"
models = "{url}#fake{small}"
rules = {{ fifth_rejection = "auto_approve", discussion = "leader_first_and_last" }}

[[conditions]]
name = "slots{slots}"
"""


def replica_table(args: argparse.Namespace) -> int:
    """Games per hour against 1, 2, 4 ... replicas of the model (``--replicas``), each of ``--slots`` slots."""
    slots, rows = int(args.slots.split(",")[0]), []
    for count in (int(r) for r in args.replicas.split(",")):
        servers = [SlowServer(args.latency, slots) for _ in range(count)]
        try:
            with tempfile.TemporaryDirectory(prefix="bench-replicas-") as tmp:
                config = Path(tmp) / "replicas.toml"
                config.write_text(CONFIG.format(games=args.games, slots=slots, preset=args.preset, agents=args.agents,
                                                url="|".join(s.url for s in servers), small=SMALL[args.aids]))
                start = time.perf_counter()
                summary = run_experiment(config, Path(tmp) / "exp")
                wall = time.perf_counter() - start
                assert not summary.failed, summary.failed
        finally:
            for server in servers:
                server.close()
        rows.append((count, len(summary.finished), wall, [s.calls for s in servers], max(s.peak for s in servers)))
    base = rows[0][1] / rows[0][2] / rows[0][0]
    print(f"\n### Replicas of one model, {slots} slots each, {args.latency:g} s per call: {args.games} `{args.agents}` "
          f"games, {args.preset}\n")
    print("| replicas | games | wall s | games per hour | calls per replica | peak calls on a replica | "
          "share of linear scaling |")
    print("|---:|---:|---:|---:|---|---:|---:|")
    for count, games, wall, calls, peak in rows:
        print(f"| {count} | {games} | {wall:.1f} | {3600 * games / wall:.0f} | {', '.join(map(str, calls))} | "
              f"{peak} | {games / wall / count / base:.0%} |")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--latency", type=float, default=1.0, help="seconds per model call")
    parser.add_argument("--slots", default="4,8,16", help="comma-separated server slot counts")
    parser.add_argument("--preset", default="bench5")
    parser.add_argument("--agents", default="lga")
    parser.add_argument("--aids", choices=sorted(SMALL), default="off",
                        help="the seats' aids: the fake model declared small (on) or not (off, the default)")
    parser.add_argument("--replicas", default="", help="comma-separated replica counts (each of --slots slots)")
    args = parser.parse_args(argv)
    if args.replicas:
        return replica_table(args)
    rows = []
    for slots in (int(s) for s in args.slots.split(",")):
        server = SlowServer(args.latency, slots)
        try:
            with tempfile.TemporaryDirectory(prefix="bench-parallel-") as tmp:
                config = Path(tmp) / "parallel.toml"
                config.write_text(CONFIG.format(games=args.games, slots=slots, preset=args.preset, agents=args.agents,
                                                url=server.url, small=SMALL[args.aids]))
                start, cpu = time.perf_counter(), time.process_time()
                summary = run_experiment(config, Path(tmp) / "exp")
                wall, cpu = time.perf_counter() - start, time.process_time() - cpu
                assert not summary.failed, summary.failed
        finally:
            server.close()
        sequential = server.calls * args.latency
        ideal = sequential / slots
        rows.append((slots, len(summary.finished), wall, cpu, server.calls, sequential, ideal, server.peak))
    print(f"\n### Parallel games against a server with {args.latency:g} s per call: {args.games} `{args.agents}` "
          f"games, {args.preset}, aids {args.aids}\n")
    print("| server slots | games | wall s | CPU s | model calls | harness core-ms per call | sequential sum s | "
          "ideal (sum / slots) s | ideal / wall | peak concurrent calls |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for slots, games, wall, cpu, calls, sequential, ideal, peak in rows:
        print(f"| {slots} | {games} | {wall:.1f} | {cpu:.1f} | {calls} | {1000 * cpu / calls:.1f} | {sequential:.0f} | "
              f"{ideal:.1f} | {ideal / wall:.0%} | {peak} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
