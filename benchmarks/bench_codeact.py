"""The CodeAct leader on a model: leader decisions in AvalonPlay games, against the chain-of-thought leader.

Decision points are the first team proposals of AvalonPlay games
(``--setting avalonplay``) played by the rule bots, taken in turn from seeds
1, 2, ... and rounds 1 to 5, so the leaders' roles and facts vary. Each is
answered once by the ``codeact`` graph (``leader=codeact``: write, run in the
sandbox, debug) and once by the ``cot`` graph, on the same model. Reported:

- the share of decisions whose first program ran and printed a legal team,
  the share that had one after self-debug, the mean number of programs;
- sandbox start time (a fresh worker, median of 5) and the time per program run;
- model time per decision (summed call latency), calls and tokens, CodeAct against CoT (the embedded model is
  warmed up first; the two answer each decision in turn, alternating which goes first, since the second may
  reuse the first's prompt cache).

    nice -n 19 python benchmarks/bench_codeact.py --decisions 20             # embedded model
    nice -n 19 python benchmarks/bench_codeact.py --decisions 2 --model local

Figures go to docs/measurements.md#the-codeact-leader with the command that produced them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from roundtable.agents.codeact.graph import build_codeact_graph
from roundtable.games import avalon
from roundtable.testing.policies import rule_policies
from roundtable.tools.sandbox import Sandbox, SandboxLimits


def decision_points(count: int) -> list[tuple[int, avalon.AvalonState, avalon.Request]]:
    """``count`` first proposals of AvalonPlay rounds, from naive-bot games of seeds 1, 2, ..."""
    preset, rules = avalon.setting("avalonplay")
    points: list[tuple[int, avalon.AvalonState, avalon.Request]] = []
    seed = 0
    while len(points) < count:
        seed += 1
        state = avalon.new_game(avalon.AvalonConfig.build(preset=preset, rules=rules), seed)
        while not state.is_over and len(points) < count:
            requests = avalon.pending(state)
            for r in requests:
                if r.kind == "propose_team" and not r.details.get("final") and state.attempt == 1:
                    points.append((seed, state, r))
            naive = rule_policies("avalon")["naive"]
            state = avalon.apply(state, {r.player: naive(avalon.view(state, r.player), r, seed) for r in requests})
    return points


def answer(graph: Any, kind: str, seed: int, state: avalon.AvalonState, request: avalon.Request,
           model: str) -> dict[str, Any]:
    """One decision: the graph's final state values and the wall time."""
    task = {"view": avalon.view(state, request.player).model_dump(mode="json"),
            "request": request.model_dump(mode="json"), "pool": {},
            "seat": {"kind": kind, "model": model, "options": {}}, "seed": seed * 100 + request.round}
    config = {"configurable": {"thread_id": f"{kind}-{seed}-{request.id}"}}
    began = time.perf_counter()
    graph.invoke(task, config)
    values = graph.get_state(config).values
    values["wall"] = time.perf_counter() - began
    return values


def model_seconds(values: dict[str, Any]) -> tuple[float, int]:
    usage = values.get("usage") or []
    return sum(float(u.get("seconds") or 0) for u in usage), len(usage)


def warm_up(model: str) -> None:
    """Start the model (the embedded one loads its weights on the first call), so no decision pays for it."""
    from roundtable.agents.common.model_calls import FactoryModels

    FactoryModels().chat(model, 0.0, 4).invoke("Say OK.")


def sandbox_start(times: int = 5) -> float:
    """Median seconds to start a confined worker and get its first answer."""
    starts = []
    for _ in range(times):
        with Sandbox(SandboxLimits()) as box:
            began = time.perf_counter()
            box.run("pass")
            starts.append(time.perf_counter() - began)
    return statistics.median(starts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--model", default="local")
    parser.add_argument("--out", type=Path, default=Path("bench_codeact.json"))
    args = parser.parse_args()

    from langgraph.checkpoint.memory import InMemorySaver

    graphs = {kind: build_codeact_graph(kind).compile(checkpointer=InMemorySaver()) for kind in ("codeact", "cot")}
    warm_up(args.model)
    rows = []
    for index, (seed, state, request) in enumerate(decision_points(args.decisions)):
        row: dict[str, Any] = {"seed": seed, "round": request.round, "leader": request.player,
                               "role": state.role_of(request.player).value}
        order = ("codeact", "cot") if index % 2 == 0 else ("cot", "codeact")  # the second may reuse the first's cache
        for kind in order:
            graph = graphs[kind]
            values = answer(graph, kind, seed, state, request, args.model)
            seconds, calls = model_seconds(values)
            decision = values["decisions"][request.id]
            usage = values.get("usage") or []
            row[kind] = {"model_s": round(seconds, 2), "calls": calls, "wall_s": round(values["wall"], 2),
                         "prompt_tokens": sum(int(u.get("prompt_tokens") or 0) for u in usage),
                         "cached_tokens": sum(int(u.get("cached_tokens") or 0) for u in usage),
                         "completion_tokens": sum(int(u.get("completion_tokens") or 0) for u in usage),
                         "team": decision["players"], "fallback": decision.get("fallback")}
            if kind == "codeact":
                attempts = values.get("attempts") or []
                row[kind] |= {"programs": len(attempts), "first_ran": bool(attempts and attempts[0].get("team")),
                              "solved": any(a.get("team") for a in attempts),
                              "run_s": [a["seconds"] for a in attempts if a.get("program")],
                              "errors": [str(a.get("error") or "").strip().splitlines()[-1:] for a in attempts],
                              "attempts": [{k: a.get(k) for k in ("program", "output", "error")} for a in attempts]}
        rows.append(row)
        args.out.write_text(json.dumps({"rows": rows}, indent=1))  # as each decision ends: a cut-off run keeps them
        c, t = row["codeact"], row["cot"]
        print(f"seed {seed} round {request.round} leader {request.player} ({row['role']}): codeact "
              f"{c['programs']} program(s), first ran {c['first_ran']}, solved {c['solved']}, "
              f"{c['model_s']} s model / {c['calls']} calls; cot {t['model_s']} s / {t['calls']} calls"
              + (f"; errors {[e for errors in c['errors'] for e in errors]}" if not c["first_ran"] else ""), flush=True)
    n = len(rows)
    runs = [s for r in rows for s in r["codeact"]["run_s"]]
    summary = {
        "decisions": n,
        "first_program_ran": sum(r["codeact"]["first_ran"] for r in rows) / n,
        "solved_after_debug": sum(r["codeact"]["solved"] for r in rows) / n,
        "mean_programs": statistics.mean(r["codeact"]["programs"] for r in rows),
        "sandbox_start_s": round(sandbox_start(), 4),
        "sandbox_run_s_median": round(statistics.median(runs), 4) if runs else None,
        "codeact_model_s_mean": round(statistics.mean(r["codeact"]["model_s"] for r in rows), 2),
        "cot_model_s_mean": round(statistics.mean(r["cot"]["model_s"] for r in rows), 2),
        "codeact_calls_mean": round(statistics.mean(r["codeact"]["calls"] for r in rows), 2),
        "cot_calls_mean": round(statistics.mean(r["cot"]["calls"] for r in rows), 2),
        "codeact_completion_tokens_mean": round(statistics.mean(r["codeact"]["completion_tokens"] for r in rows), 1),
        "cot_completion_tokens_mean": round(statistics.mean(r["cot"]["completion_tokens"] for r in rows), 1),
    }
    args.out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    for key, value in summary.items():
        print(f"{key:<24} {value}")


if __name__ == "__main__":
    main()
