"""The paper-mode prompt fixtures (issue: the papers' agents as the papers wrote them): what a kind sends with the
aids off for one decision of each answer shape, checked in under ``tests/fixtures/paper_prompts/<kind>/``, and the
source annotation of every template line it rendered (`roundtable.prompts.sources`).

``ROUNDTABLE_UPDATE_FIXTURES=1 pytest tests/agents/test_paper_prompts*.py`` rewrites the fixtures; a reviewer then
reads the diff line by line against the paper.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from roundtable.prompts.registry import registry
from roundtable.prompts.sources import unannotated
from roundtable.testing.scripted import Call

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "paper_prompts"
UPDATE = os.environ.get("ROUNDTABLE_UPDATE_FIXTURES") == "1"


def transcript(calls: Sequence[Call]) -> str:
    """The model calls of a decision as one text: each call's module, then each message with its role."""
    parts = []
    for number, call in enumerate(calls, start=1):
        parts.append(f"=== call {number}: {call.module} ===")
        for message in call.messages:
            parts.append(f"--- {message.type} ---\n{message.content}")
    return "\n".join(parts) + "\n"


def check_fixture(kind: str, name: str, text: str) -> None:
    """Compare ``text`` with fixture ``<kind>/<name>.txt`` (rewritten under ``ROUNDTABLE_UPDATE_FIXTURES=1``)."""
    path = FIXTURES / kind / f"{name}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no fixture {path}: write it with ROUNDTABLE_UPDATE_FIXTURES=1 and read it"
    assert text == path.read_text(encoding="utf-8"), (
        f"{kind}'s paper-mode prompts for {name} changed: read the change against the paper, then rewrite "
        f"{path} with ROUNDTABLE_UPDATE_FIXTURES=1")


def unannotated_lines(names: Iterable[str]) -> list[str]:
    """``"<template>:<line>: <text>"`` for each text line with no source annotation among the templates ``names``
    (each file's text, as the registry has it)."""
    return [f"{name}:{number}: {line}" for name in sorted(set(names))
            for number, line in unannotated(registry.text(name))]


def aids_templates(names: Iterable[str]) -> list[str]:
    """The templates among ``names`` that belong to the aids (none may render with the aids off)."""
    return sorted({name for name in names if name.startswith(("aids/", "checks/"))})
