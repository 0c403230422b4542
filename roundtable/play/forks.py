"""Forking a game: continue it from one of its checkpoints on a new branch, with edited prompts or context, or with
other players at some seats.

`fork_game` copies the game's checkpoints up to the chosen one (that checkpoint and its ancestors,
without the writes of the step after it, so that step runs again) to a new game id, records the new
game as a fork of the original at that checkpoint (``fork_of`` in its record) with its context
overrides (``context``), and continues it. With ``seats`` the fork is played on by other agents at the seats
that change (a rule bot's game taken over by model agents from its late position: "what would they have done
from here"): each changed seat's agent starts with an empty memory and is told the whole game so far, as a
human who sits down at a table reads its record. The same works from the command line (``roundtable fork``)
and from a notebook::

    from roundtable.play.forks import fork_game
    from roundtable.play.compare import compare_games
    b = fork_game("avalon-1a2b", at=12, prompts={"plan_prompt": open("plan.j2").read()}, until_decision=True)
    compare_games("avalon-1a2b", b)
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from langchain_core.runnables import RunnableConfig
from pydantic import ValidationError

from roundtable.games.errors import ConfigurationError
from roundtable.graphs.setup import check_seat
from roundtable.play.runner import GameRunner, game_of, new_game_id, open_runner, thread_config
from roundtable.store import paths
from roundtable.store.locks import game_lock
from roundtable.store.records import build_record, list_records, read_record, write_record


class ForkError(ValueError):
    """A fork cannot be made (unknown game or checkpoint, an id in use, a bad override); the message says which."""


def find_checkpoint(runner: GameRunner, game_id: str, at: str | int) -> dict[str, Any]:
    """The history entry (`GameRunner.history`) of ``game_id`` at ``at``: a checkpoint id, or a step number.

    Raises:
        ForkError: no such checkpoint or step (the message gives the steps there are).
    """
    entries = list(runner.history(game_id))
    text = str(at).strip()
    hits = [e for e in entries if e["checkpoint_id"] == text or (text.lstrip("-").isdigit() and e["step"] == int(text))]
    if not hits:
        steps = [e["step"] for e in entries if e["step"] is not None]
        span = f"steps {min(steps)} to {max(steps)}" if steps else "no checkpoints"
        raise ForkError(f"game {game_id} has no checkpoint or step {text!r} ({span}; "
                        f"see: roundtable history {game_id})")
    return hits[-1]


def copy_branch(runner: GameRunner, source: str, checkpoint_id: str, target: str) -> None:
    """Copy checkpoint ``checkpoint_id`` of thread ``source`` and all its ancestors (with the writes that
    led from each to the next) to thread ``target``, whose latest checkpoint it then is."""
    saver = runner.saver
    chain = []
    first: RunnableConfig = {"configurable": {"thread_id": source, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}}
    current = saver.get_tuple(first)
    while current is not None:
        chain.append(current)
        current = saver.get_tuple(current.parent_config) if current.parent_config else None
    parent: str | None = None
    for position, item in enumerate(reversed(chain)):
        config: RunnableConfig = {"configurable": {"thread_id": target, "checkpoint_ns": "", "checkpoint_id": parent}}
        saved = saver.put(config, item.checkpoint, item.metadata, item.checkpoint.get("channel_versions", {}))
        if position < len(chain) - 1:  # the chosen checkpoint's own writes are not copied: its step runs again
            by_task: dict[tuple[str, str], list[tuple[str, Any]]] = defaultdict(list)
            for task_id, channel, value in item.pending_writes or []:
                by_task[(task_id, "")].append((channel, value))
            for (task_id, path), writes in by_task.items():
                saver.put_writes(saved, writes, task_id, path)
        parent = item.checkpoint["id"]


def checked_seats(runner: GameRunner, values: dict[str, Any], seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``seats`` checked for the game of ``values`` as a new game's seats are (`roundtable.graphs.setup.check_seat`:
    a seat that names no model gets the embedded model where it plays one).

    Raises:
        ForkError: another number of seats than the game's players, or a seat the game refuses (named).
    """
    players = len(values.get("seats") or [])
    if len(seats) != players:
        raise ForkError(f"{len(seats)} seats given for a game of {players} players")
    rules = runner.graph.rules
    try:
        return [check_seat(seat, player, rules, runner.graph.known, None)
                for player, seat in enumerate(seats, start=1)]
    except ConfigurationError as error:
        raise ForkError(str(error)) from None


def reseat(runner: GameRunner, game_id: str, seats: list[dict[str, Any]]) -> list[int]:
    """Give the game ``game_id``'s latest checkpoint ``seats`` (checked, `checked_seats`) as a state edit (as
    Studio's), so its next step runs on them; each player whose seat changes gets an empty memory, none of its
    events delivered and no round start told, so its new agent reads the whole game so far.

    Returns:
        The players whose seat changed, in seat order.
    """
    old = runner.values(game_id).get("seats") or []
    changed = [p for p, (a, b) in enumerate(zip(old, seats, strict=True), start=1) if a != b]
    if changed:
        runner.graph.update_state(thread_config(game_id), {
            "seats": seats, "memory": {str(p): {} for p in changed}, "delivered": {str(p): 0 for p in changed},
            "prepared": {str(p): 0 for p in changed}})
    return changed


def merged_context(base: dict[str, Any] | None, overrides: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``overrides`` merged in, nested dicts key by key."""
    out = json.loads(json.dumps(base or {}))
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged_context(out[key], value)
        else:
            out[key] = value
    return out


def prompt_overrides(runner: GameRunner, prompts: dict[str, str]) -> dict[str, Any]:
    """``{prompt field: template text}`` as context overrides: ``act_prompt`` (the field of whichever agent
    kind has it) or ``KIND.FIELD``.

    Raises:
        ForkError: a name no agent kind's context has (the message lists the prompt fields).
    """
    fields = {f"{name}.{field}": (name, field) for name, kind in runner.graph.kinds.items() if kind.context
              for field in kind.context.model_fields if field.endswith("_prompt")}
    out: dict[str, Any] = {}
    for name, text in prompts.items():
        hits = [v for k, v in fields.items() if k == name or k.split(".", 1)[1] == name]
        if len(hits) != 1:
            known = ", ".join(sorted({k.split(".", 1)[1] for k in fields}))
            raise ForkError(f"no prompt {name!r}" + (" (ambiguous; write KIND.FIELD)" if hits else "")
                            + f"; prompts: {known}")
        kind, field = hits[0]
        out.setdefault(kind, {})[field] = text
    return out


def check_context(runner: GameRunner, context: dict[str, Any]) -> None:
    """Check ``context`` against the game graph's context schema.

    Raises:
        ForkError: an unknown key or a bad value, named.
    """
    try:
        runner.graph.context_model.model_validate(context)
    except ValidationError as error:
        raise ForkError(f"bad context override: {error}") from None


def forks_of(game_id: str) -> list[dict[str, Any]]:
    """The games recorded as forks of ``game_id``: ``[{"game_id", "checkpoint_id", "step"}]``."""
    out = []
    for summary in list_records():
        record = read_record(summary["game_id"]) if summary["status"] != "unreadable" else None
        fork = (record or {}).get("fork_of") or {}
        if fork.get("game_id") == game_id:
            out.append({"game_id": summary["game_id"], "checkpoint_id": fork.get("checkpoint_id"),
                        "step": fork.get("step")})
    return out


def fork_game(game_id: str, at: str | int, *, prompts: dict[str, str] | None = None,
              context: dict[str, Any] | None = None, until_decision: bool = False, new_id: str | None = None,
              seats: list[dict[str, Any]] | None = None, run: bool = True, **drive: Any) -> str:
    """Fork ``game_id`` at a checkpoint and continue the fork.

    Args:
        game_id: the game to fork.
        at: a checkpoint id or a step number (``roundtable history``).
        prompts: ``{prompt field or KIND.FIELD: template text}`` for the fork's run.
        context: other overrides of the game graph's context, nested (``{"seeded_calls": False}``,
            ``{"lga": {"temperature": 0.0}}``); merged over the original game's own overrides.
        until_decision: stop once the next decision point's answers are applied (rerun one decision).
        new_id: the fork's game id (default: a fresh one).
        seats: one seat per player (``{"kind", "model", "options"}``, as `roundtable.play.seating.resolve_seats`
            gives them) for the fork to be played on by; the seats that differ from the game's are taken over
            (`reseat`). ``None``: the game's own.
        run: continue the fork now (else only create it; ``roundtable resume`` continues it).
        **drive: passed to `GameRunner.drive` (``person``, ``on_events``).

    Returns:
        The fork's game id.

    Raises:
        ForkError: unknown game or checkpoint, a fork id in use, a bad prompt name or context, seats of another
            number than the game's players or a seat the game refuses (an agent kind that does not play it, a bad
            model or options), checked before anything is copied.
        GameBusyError: the fork is driven by another process.
    """
    try:
        paths.check_game_id(game_id)
        if new_id is not None:
            paths.check_game_id(new_id)
    except paths.GameIdError as error:
        raise ForkError(str(error)) from None
    game = game_of(game_id)
    with open_runner(game) as runner:
        if not runner.exists(game_id):
            raise ForkError(f"no game {game_id!r} in {paths.checkpoint_db()}")
        entry = find_checkpoint(runner, game_id, at)
        new_id = new_id or new_game_id(game)
        if runner.exists(new_id) or read_record(new_id) is not None:
            raise ForkError(f"game {new_id} already exists")
        original = read_record(game_id) or {}
        overrides = merged_context(prompt_overrides(runner, prompts or {}), context or {})
        run_context = merged_context(original.get("context"), overrides)
        check_context(runner, run_context)
        taken = checked_seats(runner, runner.values(game_id), seats) if seats is not None else None
        with game_lock(new_id):
            copy_branch(runner, game_id, entry["checkpoint_id"], new_id)
            if taken is not None:
                reseat(runner, new_id, taken)
            values = runner.values(new_id)
            record = build_record(new_id, values, "interrupted", game) | {
                "fork_of": {"game_id": game_id, "checkpoint_id": entry["checkpoint_id"], "step": entry["step"]}}
            write_record(record | ({"context": run_context} if run_context else {}))
            if run:
                runner.drive(new_id, None, until_decision=until_decision, **drive)
    return new_id


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` strings (``KEY`` dotted for nested fields, ``VALUE`` JSON or else text) as a nested dict.

    Raises:
        ConfigurationError: an item that is not ``KEY=VALUE``.
    """
    out: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise ConfigurationError(f"context override {item!r} is not of the form KEY=VALUE")
        try:
            value = json.loads(text)
        except ValueError:
            value = text
        *parents, leaf = key.strip().split(".")
        node = out
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return out
