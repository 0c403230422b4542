"""Judging one record: reading and checking it, asking a behaviour's questions that are not cached yet, and
collecting what is cached for the tables (docs/judge.md#running-the-judge).

The judge reads finished records from the records directory only, never a game's live state or checkpoints.
Everything that can be refused (an unknown game id, an unfinished game, a game or behaviour the judge does not
know) is refused here, before any model call, with a `JudgeInputError` of one line.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from roundtable.agents.common.model_calls import ModelProvider
from roundtable.judge.answers import Item, ask
from roundtable.judge.context import SYSTEM
from roundtable.judge.protocol import Behaviour, GameJudge, Judged, judges
from roundtable.judge.store import judge_models, model_key, open_judgements, read_judgements, text_digest
from roundtable.judge.transcript import Transcript, transcript_of
from roundtable.prompts.rendering import PromptContext
from roundtable.store import paths
from roundtable.store.records import upgrade_record

MAX_TOKENS = 160
"""Cap of one judge reply: a few words per named player, and the JSON around them."""


class JudgeInputError(ValueError):
    """A record the judge refuses, or a request it cannot serve: the one-line message says which and why."""


def records_dir(home: str | Path | None = None) -> Path:
    """The records directory of the data directory ``home`` (``None``: ``$ROUNDTABLE_HOME`` or
    ``./.roundtable``), not created."""
    return (Path(home).expanduser().resolve() if home else paths.home_path()) / "records"


def load_record(directory: Path, game_id: str) -> dict[str, Any]:
    """The record of ``game_id`` in the records directory ``directory``, in the current format.

    Raises:
        JudgeInputError: an invalid game id, no such record, or a file that is not a record.
    """
    try:
        path = paths.inside(directory, f"{paths.check_game_id(game_id)}.json")
    except paths.GameIdError as error:
        raise JudgeInputError(str(error)) from None
    if not path.is_file():
        raise JudgeInputError(f"no game {game_id!r}: no record {path.name} in {directory}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise JudgeInputError(f"{path} is not a readable record: {error}") from None
    if not isinstance(data, dict):
        raise JudgeInputError(f"{path} is not a readable record: a JSON {type(data).__name__}, not an object")
    return upgrade_record(data)


def check_record(record: Mapping[str, Any], behaviours: Iterable[str] | None = None) -> tuple[GameJudge, list[str]]:
    """The game's judge and the behaviours to judge in ``record`` (``behaviours``, default all of its game's).

    Raises:
        JudgeInputError: the game is unfinished, its game has no judge, or a behaviour is not judged in it.
    """
    game_id, game = record.get("game_id"), str(record.get("game") or "")
    if record.get("status") != "finished":
        raise JudgeInputError(f"game {game_id} is not finished (status {record.get('status')}): the judge reads "
                              "finished records only")
    known = judges()
    if game not in known:
        raise JudgeInputError(f"game {game_id} is a {game or 'unknown'} game, and no behaviour is judged in "
                              f"{game or 'it'} (judged games: {', '.join(known)})")
    judge = known[game]
    wanted = list(behaviours or judge.behaviours)
    for name in wanted:
        if name not in judge.behaviours:
            raise JudgeInputError(f"behaviour {name!r} is not judged in {game} games (game {game_id}); its "
                                  f"behaviours: {', '.join(judge.behaviours)}")
    return judge, wanted


def at_the_table(judge: GameJudge, transcript: Transcript) -> list[dict[str, Any]]:
    """The roles dealt in the record, ``[{"name", "title", "side", "count"}]`` in the game's role order (the
    system prompt's ``table``)."""
    dealt = Counter(transcript.roles.values())
    return [{**role, "count": dealt[role["name"]]} for role in judge.terms.get("roles", []) if dealt[role["name"]]]


def question(judge: GameJudge, behaviour: Behaviour, transcript: Transcript, item: Item, context: PromptContext,
             structured: bool) -> list[BaseMessage]:
    """The messages that ask ``item``: the system prompt (the game and the roles dealt), then the behaviour's
    template with the item's variables; ``structured``: the answer is schema-constrained JSON, else prose."""
    terms = {**judge.terms, "table": at_the_table(judge, transcript)}
    variables = {**terms, **item.variables, "json": structured, "fields": list(item.fields),
                 "choices": list(item.choices)}
    return [SystemMessage(context.render(SYSTEM, **terms)),
            HumanMessage(context.render(behaviour.template, **variables))]


def judge_behaviour(judge: GameJudge, behaviour: Behaviour, transcript: Transcript, context: PromptContext,
                    models: ModelProvider, spec: str, temperature: float, directory: Path) -> dict[str, int]:
    """Ask ``behaviour``'s questions of ``transcript`` that are not cached, caching each answer as it comes.

    Args:
        judge: the game's judge (its prompt terms).
        behaviour: the behaviour.
        transcript: the record's words.
        context: the prompts (`roundtable.judge.context.JudgeContext`).
        models: where the chat model comes from.
        spec: the judge model's spec.
        temperature: its sampling temperature.
        directory: the records directory (the cache lives beside the record).

    Returns:
        ``{"items": questions, "asked": calls made now, "unusable": replies that could not be read}``.

    Raises:
        roundtable.models.ModelError and connection errors: the endpoint failed; the answers made before stay
        cached, and the next run asks only the rest.
    """
    items = behaviour.items(transcript)
    store = open_judgements(directory, transcript.game_id, behaviour.name, model_key(spec), transcript.digest,
                            text_digest(context.template(SYSTEM), context.template(behaviour.template)))
    todo = [item for item in items if item.key not in store.answers]
    if todo:
        chat = models.chat(spec, temperature, MAX_TOKENS)
        structured = models.json_schema(spec)
        for item in todo:
            messages = question(judge, behaviour, transcript, item, context, structured)
            answer, raw, usage = ask(chat, messages, item, behaviour.name, structured)
            store.put(item.key, answer, raw, usage)
    store.finish(len(items))
    return {"items": len(items), "asked": len(todo),
            "unusable": sum(1 for item in items if store.answers.get(item.key) is None)}


def judged_record(directory: Path, record: Mapping[str, Any], model: str) -> Judged | None:
    """``record`` with the complete, current judgements of ``model`` (a `model_key`) of each of its game's
    behaviours; ``None`` when its game has no judge or nothing is judged."""
    judge = judges().get(str(record.get("game") or ""))
    if judge is None:
        return None
    transcript = transcript_of(record, judge.round_field, judge.facts)
    answers = {name: found for name in judge.behaviours
               if (found := read_judgements(directory, transcript.game_id, name, model, transcript.digest))
               is not None}
    return Judged(transcript, answers) if answers else None


def judge_summaries(directory: Path, record: Mapping[str, Any]) -> list[str]:
    """One line per judge model that judged ``record`` (what ``roundtable show`` prints), e.g. ``Judge (local):
    round-1 claims 3 self-disclosure, ...``; ``[]`` when it is not judged."""
    judge = judges().get(str(record.get("game") or ""))
    if judge is None:
        return []
    lines = []
    for model in judge_models(directory, str(record.get("game_id") or "")):
        judged = judged_record(directory, record, model)
        if judged is not None:
            lines.append(f"Judge ({model}): {judge.summary(judged)}")
    return lines
