"""CodeAct's loop (Shi et al. 2023): write a program, run it in the sandbox, debug it from its error.

- ``write``: the model writes a program that encodes the leader's facts and
  prints the team (temperature 0, `CodeActTurn.code_temperature`);
- ``run``: the program runs in the agent's sandboxed ``Python_REPL`` worker
  (`roundtable.tools.sandbox`); an exception, a timeout, or an output that does
  not name a legal team is the attempt's ``error``;
- ``debug``: the model sees its previous program and that error (with the
  traceback) and writes a new program (template ``codeact/debug``, Shi et al.'s self-debug, §3.4); with the aids
  on (``aids/codeact/debug``) also plain statements of what went wrong (`programs.debug_hints`), and it says what
  it fixes first.

Every program, its output and its error are kept in ``attempts``.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.codeact.options import CodeActOptions
from roundtable.agents.codeact.programs import debug_hints, program_of, team_of
from roundtable.agents.codeact.state import CodeActState
from roundtable.agents.codeact.turn import CodeActTurn
from roundtable.agents.common.model_calls import ModelProvider, call_text
from roundtable.tools.sandbox import SandboxLimits, SandboxUnavailable, sandbox_for

NO_PROGRAM = "the reply held no program: reply with the program in one ```python block"


def make_write(models: ModelProvider):
    """The ``write`` node over ``models``: one call at the code temperature."""

    def write(state: CodeActState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CodeActTurn.of(state, runtime)
        raw, usage = call_text(turn.code_model(models), turn.messages(turn.write_task(state.get("facts") or [])),
                               "write")
        return {"program": program_of(raw), "raw": [raw], "usage": [usage]}

    return write


def make_debug(models: ModelProvider):
    """The ``debug`` node over ``models``: the previous program and its error in, a new program out."""

    def debug(state: CodeActState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CodeActTurn.of(state, runtime)
        attempts = state.get("attempts") or [{}]
        last = attempts[-1]
        program, error = (last.get("program") or "").rstrip(), last.get("error") or ""
        calls = state.get("usage") or [{}]
        cut = int(calls[-1].get("completion_tokens") or 0) >= turn.program_tokens
        hints = (debug_hints(program, error, [a.get("program") or "" for a in attempts[:-1]], turn.view.players, cut)
                 if turn.options.aided else [])  # the hints are an aid (Shi et al.: the issue and the outputs)
        prompt = turn.context.render(turn.prompt("debug"), task=turn.write_task(state.get("facts") or []),
                                     program=program, error=error, hints=hints)
        raw, usage = call_text(turn.code_model(models), turn.messages(prompt), "debug")
        return {"program": program_of(raw), "raw": [raw], "usage": [usage]}

    return debug


def run(state: CodeActState, runtime: Runtime[Any]) -> dict[str, Any]:
    """Run the last program in the agent's sandbox; its variables start empty at a decision's first run.

    Returns:
        ``attempts``: one ``{program, output, error, seconds, restarted, team, fatal}`` record
        (``team``: the legal team its output names; ``fatal``: the sandbox is unavailable, no retry helps).
    """
    turn = CodeActTurn.of(state, runtime)
    opts = turn.options
    assert isinstance(opts, CodeActOptions)
    program = state.get("program")
    attempt: dict[str, Any] = {"program": program or "", "output": "", "error": None, "seconds": 0.0,
                               "restarted": False, "team": None, "fatal": False}
    if not program:
        attempt["error"] = NO_PROGRAM
        return {"attempts": [attempt]}
    box = sandbox_for(turn.sandbox_owner, SandboxLimits(timeout=opts.timeout))
    try:
        if not state.get("attempts"):
            box.reset()
        result = box.run(program)
    except SandboxUnavailable as error:
        attempt.update(error=f"SandboxUnavailable: {error}", fatal=True)
        return {"attempts": [attempt]}
    attempt.update(output=result.output, error=result.error, seconds=round(result.seconds, 4),
                   restarted=result.restarted)
    if result.ok:
        request = turn.request
        team, problem = team_of(result.output, request.count or 0, request.candidates, turn.options.aided)
        attempt.update(team=team, error=problem)
    return {"attempts": [attempt]}
