"""How far one lga team vote travels through the code, with the aids on and off (issue 59, part 5).

Usage::

    python benchmarks/trace_decision.py            # a markdown table
    python benchmarks/trace_decision.py --json

One decision: the first team vote of a ``lan6`` game of seed 1 (the naive bots played up to it), asked of an
``lga`` seat on the scripted model (`roundtable.testing.scripted`: no server, no latency), with ``aids=on`` (the
aids' prompts and checks, as on the embedded model) and ``aids=off`` (Lan et al.'s prompts). For each, a profile
hook (``sys.setprofile``) counts the files and functions of ``roundtable/`` that ran, the templates rendered
(`roundtable.prompts.sources.rendering`) and of them the renders done (the rest were done before with the same text
and variables, `roundtable.prompts.registry.RENDER_CACHE`; "again" counts a text rendered more than once, which
differing variables need: one narration per event), how often the seat's options were read (``LgaOptions.parse``)
and validated (once per distinct seat, `roundtable.agents.protocol.validated_options`), from cold caches, and the
wall time of the decision with the hook off, best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "agents")]

from lga_fakes import Script, ScriptedModels, first, play_until  # noqa: E402

from roundtable.agents import protocol  # noqa: E402
from roundtable.agents.lga.graph import build_lga_graph  # noqa: E402
from roundtable.agents.lga.options import LgaOptions  # noqa: E402
from roundtable.games import avalon  # noqa: E402
from roundtable.prompts.sources import rendering  # noqa: E402

registry_module = importlib.import_module("roundtable.prompts.registry")  # the package's `registry` is the instance

PACKAGE = str(ROOT / "roundtable")


def _input(aids: str) -> dict[str, Any]:
    state, requests = play_until(first("vote_team"))
    request = next(r for r in requests if r.kind == "vote_team")
    return {"view": avalon.view(state, request.player).model_dump(mode="json"),
            "request": request.model_dump(mode="json"), "pool": {},
            "seat": {"kind": "lga", "model": "fake", "options": {"aids": aids}}, "seed": 1}


def trace(aids: str, repeat: int = 5) -> dict[str, Any]:
    """The counts of one decision with ``aids`` (``on`` or ``off``)."""
    inp = _input(aids)
    graph = build_lga_graph(ScriptedModels(Script())).compile()
    graph.invoke(inp)  # warm: imports, compiled templates
    files: set[str] = set()
    functions: set[tuple[str, str]] = set()
    parses, done = Counter(), Counter()
    original = LgaOptions.parse.__func__  # type: ignore[attr-defined]
    validate, render = protocol._validated, registry_module.render_text

    def counted(cls: Any, *args: Any, **kwargs: Any) -> Any:
        parses["parse"] += 1
        return original(cls, *args, **kwargs)

    def validated(*args: Any) -> Any:
        parses["validated"] += 1
        return validate(*args)

    def rendered(text: str, variables: dict[str, Any]) -> str:
        done[text] += 1
        return render(text, variables)

    def hook(frame: Any, event: str, _: Any) -> None:
        if event == "call" and frame.f_code.co_filename.startswith(PACKAGE):
            files.add(frame.f_code.co_filename)
            functions.add((frame.f_code.co_filename, frame.f_code.co_name))

    LgaOptions.parse = classmethod(counted)  # type: ignore[method-assign]
    protocol._validated, registry_module.render_text = validated, rendered
    registry_module._RENDERED.clear()  # a decision from cold: what it renders and validates itself
    protocol._OPTIONS.clear()
    try:
        with rendering() as names:
            sys.setprofile(hook)
            try:
                graph.invoke(inp)
            finally:
                sys.setprofile(None)
    finally:
        LgaOptions.parse = classmethod(original)  # type: ignore[method-assign]
        protocol._validated, registry_module.render_text = validate, render
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        graph.invoke(inp)
        seconds.append(time.perf_counter() - start)
    rendered = Counter(names)
    return {"aids": aids, "files": len(files), "functions": len(functions), "renders": len(names),
            "templates": len(rendered), "most_renders": max(rendered.values()), "options_parsed": parses["parse"],
            "options_validated": parses["validated"], "rendered": sum(done.values()),
            "rendered_twice": sum(n - 1 for n in done.values()), "seconds": min(seconds)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    rows = [trace("on", args.repeat), trace("off", args.repeat)]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print("| aids | files | functions | templates asked for (distinct, most asks of one) | renders done (of them "
          "again: same text, same variables) | options read (validated) | wall time (best) |\n"
          "|---|---:|---:|---|---|---|---:|")
    for r in rows:
        print(f"| {r['aids']} | {r['files']} | {r['functions']} | {r['renders']} ({r['templates']}, "
              f"{r['most_renders']}) | {r['rendered']} ({r['rendered_twice']}) | {r['options_parsed']} "
              f"({r['options_validated']}) | {1000 * r['seconds']:.0f} ms |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
