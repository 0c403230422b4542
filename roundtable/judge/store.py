"""Judgements cached beside the record they judge (docs/judge.md#caching).

One JSON file per record, behaviour and judge model: ``<records dir>/<game id>.judge/<behaviour>-<model>.json``
(the model as a file-name slug, `model_slug`). It holds the digest of what the judge read
(`roundtable.judge.transcript.Transcript.digest`) and of the prompt it asked with, and one answer per question,
written after every answer (atomically), so an endpoint that fails mid-run leaves the answers made so far, and
the next run asks only the rest. A file whose digests differ from the record's and the prompt's now is set aside
and the record judged again. ``list`` (``*.json`` in the records directory) never sees these files.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roundtable.judge.answers import Answer
from roundtable.models import parse_model_spec

VERSION = 1
"""The judgement file format written now."""

SUFFIX = ".judge"
"""The folder of a record's judgements: ``<game id>.judge`` beside ``<game id>.json``."""


def model_key(spec: str) -> str:
    """The judge model a judgement is cached under: the spec's endpoint and model name, without its call
    options (retries, timeout), which do not change the answers (``local``, ``gpt-4o-mini``,
    ``http://127.0.0.1:8080/v1#qwen``; ``?json_schema=false`` is kept: it changes how the model answers).

    Raises:
        ValueError: a malformed spec (`roundtable.models.parse_model_spec`).
    """
    parsed = parse_model_spec(spec)
    base = f"{parsed.base_url}#{parsed.model}" if parsed.base_url else parsed.model
    return base + ("?json_schema=false" if parsed.json_schema is False else "")


def model_slug(key: str) -> str:
    """``key`` (`model_key`) as a file-name part: letters, digits, ``.``, ``_``, ``-``; a long or rewritten key
    ends in 8 hex digits of its hash, so two keys never share a slug."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", key).strip("._") or "model"
    if slug != key or len(slug) > 60:
        slug = f"{slug[:60]}-{hashlib.sha256(key.encode()).hexdigest()[:8]}"
    return slug


def judgement_dir(records_dir: Path, game_id: str) -> Path:
    """The folder of ``game_id``'s judgements in ``records_dir``."""
    return records_dir / f"{game_id}{SUFFIX}"


def judgement_path(records_dir: Path, game_id: str, behaviour: str, model: str) -> Path:
    """The file of ``game_id``'s ``behaviour`` judged by ``model`` (a `model_key`)."""
    return judgement_dir(records_dir, game_id) / f"{behaviour}-{model_slug(model)}.json"


def text_digest(*texts: str) -> str:
    """SHA-256 (hex) of ``texts`` (the prompt templates a behaviour asks with)."""
    return hashlib.sha256(json.dumps(list(texts), ensure_ascii=False).encode()).hexdigest()


@dataclass
class Judgements:
    """One record's judgements of one behaviour by one judge model (one file).

    Attributes:
        path: the file.
        game_id, behaviour, model: what it judges, with what (``model``: a `model_key`).
        digest: the record's `Transcript.digest` when judged.
        prompt: the `text_digest` of the templates asked with.
        answers: ``{item key: Answer or None}`` (``None``: the reply could not be read).
        raw: ``{item key: the reply text}``.
        items: how many questions the behaviour asks of the record (``None`` until the run finished).
        usage: summed ``calls``, ``prompt_tokens``, ``completion_tokens``, ``seconds`` of the calls made.
    """

    path: Path
    game_id: str
    behaviour: str
    model: str
    digest: str
    prompt: str
    answers: dict[str, Answer | None] = field(default_factory=dict)
    raw: dict[str, str] = field(default_factory=dict)
    items: int | None = None
    usage: dict[str, float] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """Every question of the behaviour is answered (the run that asked them finished)."""
        return self.items is not None and len(self.answers) >= self.items

    def put(self, key: str, answer: Answer | None, raw: str, usage: Mapping[str, Any]) -> None:
        """Keep one answer and write the file (atomically: a kill leaves the previous file whole)."""
        self.answers[key] = answer
        self.raw[key] = raw
        for name in ("calls", "prompt_tokens", "completion_tokens", "seconds"):
            self.usage[name] = round(self.usage.get(name, 0) + float(usage.get(name) or 0), 3)
        self.write()

    def finish(self, items: int) -> None:
        """Mark the behaviour's ``items`` questions all answered, and write the file."""
        self.items = items
        self.write()

    def write(self) -> None:
        """Write the file (creating its folder)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {"version": VERSION, "game_id": self.game_id, "behaviour": self.behaviour, "model": self.model,
                "digest": self.digest, "prompt": self.prompt, "items": self.items, "usage": self.usage,
                "answers": self.answers, "raw": self.raw}
        tmp = self.path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, self.path)


def _read(path: Path) -> dict[str, Any] | None:
    """A judgement file's content, or ``None`` when it is missing or unreadable (then it is judged again)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("version") == VERSION else None


def open_judgements(records_dir: Path, game_id: str, behaviour: str, model: str, digest: str,
                    prompt: str) -> Judgements:
    """The cached judgements to continue: the file's, when it judged the same words with the same prompt;
    else empty (the old file is replaced at the first answer).

    Args:
        records_dir: the records directory.
        game_id: the record.
        behaviour: the behaviour.
        model: the judge model (a `model_key`).
        digest: the record's `Transcript.digest` now.
        prompt: the `text_digest` of the templates asked with now.
    """
    path = judgement_path(records_dir, game_id, behaviour, model)
    fresh = Judgements(path, game_id, behaviour, model, digest, prompt)
    data = _read(path)
    if data is None or data.get("digest") != digest or data.get("prompt") != prompt:
        return fresh
    fresh.answers = dict(data.get("answers") or {})
    fresh.raw = dict(data.get("raw") or {})
    fresh.items = data.get("items")
    fresh.usage = dict(data.get("usage") or {})
    return fresh


def read_judgements(records_dir: Path, game_id: str, behaviour: str, model: str,
                    digest: str) -> dict[str, Answer | None] | None:
    """The complete judgements of ``game_id``'s ``behaviour`` by ``model`` of the words whose digest is
    ``digest`` (with whatever prompt), or ``None`` when there are none, they are unfinished or the words have
    changed since."""
    data = _read(judgement_path(records_dir, game_id, behaviour, model))
    if data is None or data.get("digest") != digest or data.get("items") is None:
        return None
    answers = dict(data.get("answers") or {})
    return answers if len(answers) >= int(data["items"]) else None


def judge_models(records_dir: Path, game_id: str) -> list[str]:
    """The judge models (`model_key`) with any judgement file of ``game_id``, sorted."""
    folder = judgement_dir(records_dir, game_id)
    if not folder.is_dir():
        return []
    return sorted({str(data["model"]) for path in folder.glob("*.json")
                   if (data := _read(path)) is not None and data.get("model")})
