"""Where each line of a prompt template comes from (docs/agents/paper-values.md#where-each-prompt-line-comes-from).

A kind's templates, as its seats send them with the aids off, say line by line what the line is: a text line (one
that renders words or a ``{{ variable }}``, not only ``{% tags %}``, comments or blanks) begins with a source
annotation, a Jinja comment of the form ``{#~ KIND: WHERE #}`` that renders as nothing::

    {#~ paper: Lan et al. 2024, Table 4 (Action) #}Your objective is to make decisions based on your role, ...
    {#~ code: 3DAgentWorld/LLM-Game-Agent prompt/avalon_sapar_prompt.py (action_prompt) #}the information of ...
    {#~ protocol: answer format #}Answer in JSON with {{ choice_help }}.

A line that begins with a whitespace-stripping tag (``{%- elif ... %}``) takes ``{#-~ KIND: WHERE #}``, which
strips the same whitespace, so the annotation changes nothing that renders. ``KIND`` is one of `SOURCE_KINDS`:
``paper`` (the paper's text or appendix prompts), ``code`` (the paper's released code, where the paper points to
it) or ``protocol`` (the game's facts and the answer format only, nothing that tells a player how to play).
`unannotated` lists the lines that lack one; `rendering` records which templates a piece of code renders, so a
test checks exactly the templates a kind's paper-mode decision used.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

SOURCE_KINDS = ("paper", "code", "protocol")
"""What a template line may be, with the aids off."""

_ANNOTATION = re.compile(r"^\s*\{#-?~\s*(?P<kind>[a-z]+)\s*:\s*(?P<where>(?:[^#]|#(?!\}))*?)\s*#\}")
_TAG = re.compile(r"\{%.*?%\}|\{#.*?#\}", re.DOTALL)
_RENDERED: ContextVar[list[str] | None] = ContextVar("rendered_templates", default=None)


def annotation(line: str) -> tuple[str, str] | None:
    """``(kind, where)`` of a line's leading source annotation, or None (a kind outside `SOURCE_KINDS` is none)."""
    match = _ANNOTATION.match(line)
    if match is None or match.group("kind") not in SOURCE_KINDS or not match.group("where"):
        return None
    return match.group("kind"), match.group("where")


def text_lines(source: str) -> Iterator[tuple[int, str]]:
    """``(line number from 1, line)`` of each line of template text ``source`` that renders something: words or an
    expression left once its ``{% ... %}`` tags and ``{# ... #}`` comments (a leading ``{#- ... -#}`` docstring
    comment spanning lines included) are taken out."""
    stripped = _TAG.sub(lambda match: "\n" * match.group(0).count("\n"), source)
    for number, (line, bare) in enumerate(zip(source.splitlines(), stripped.splitlines(), strict=False), start=1):
        if bare.strip():
            yield number, line


def unannotated(source: str) -> list[tuple[int, str]]:
    """The text lines of template text ``source`` (`text_lines`) with no source annotation (`annotation`)."""
    return [(number, line) for number, line in text_lines(source) if annotation(line) is None]


def record(name: str) -> None:
    """Note that template ``name`` was rendered, when a `rendering` block is recording (called by the registry)."""
    names = _RENDERED.get()
    if names is not None:
        names.append(name)


@contextmanager
def rendering() -> Iterator[list[str]]:
    """Record the names of the templates rendered inside the block, in order, repeats kept.

    In this context only (this thread or task, and the threads LangGraph copies it into)::

        with rendering() as names:
            graph.invoke(...)
    """
    names: list[str] = []
    token = _RENDERED.set(names)
    try:
        yield names
    finally:
        _RENDERED.reset(token)
