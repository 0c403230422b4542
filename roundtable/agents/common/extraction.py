"""Reading answers from model replies, per answer shape (docs/games/protocol.md#reading-answers-from-replies).

Two paths, both ending in the pure fallback rules of
``roundtable.games.fallbacks``:

1. **Schema-constrained output**, where the endpoint supports it: the agent asks
   for a JSON object whose schema is bounded for the request in hand (`answer_schema`:
   for a ``pick``, a list of exactly ``count`` player numbers 1..N, or one of
   the candidates when one player is asked; for a ``yes_no``, an enum of the
   game's two words; a words string of bounded length), so a small model
   cannot run on until ``max_tokens``.
2. **Prose**: the reply is read with `read_labelled` (``Choice: ...`` /
   ``Words: ...`` lines), and when that fails, an *extractor* call at
   temperature 0 with worked examples (``prompts/extraction/<shape>.j2``) maps
   the prose to the answer: player numbers, or one of the two words or ``none``.

Shapes: an *answer* read from a reply is a dict with ``players`` (list of
ints) and, for a clear pass, ``passed: True`` (``pick``), or ``choice`` (bool,
``yes_no``); ``{}`` when nothing was readable. The schema's field descriptions
are templates too (``prompts/answers/field.j2``), rendered by the caller.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field, create_model

from roundtable.agents.common.model_calls import UNUSABLE_KEY, call_structured, call_text
from roundtable.games.protocol import Request

CHARS_PER_WORD = 6
"""Bound on a words string's length in characters per allowed word (schema ``maxLength``).

The 1.5B embedded model writes each bounded string up to its bound, so this is
the output budget; 6 leaves room for the word limit, which the agent then
applies (docs/measurements.md#cga-games)."""
REASON_CHARS = 100
"""Longest reason asked before an answer (`answer_schema`), in characters (about 25 tokens)."""
_ENDS_SENTENCE = re.compile(r"[.!?][\"')\]]*$")
_UP_TO_LAST_END = re.compile(r".*[.!?][\"')\]]*", re.DOTALL)


def schema_tokens(words: int, fields: int) -> int:
    """``max_tokens`` for a JSON reply of ``fields`` bounded strings whose bounds total ``words`` words: the bounds
    in characters (`CHARS_PER_WORD` a word) at about 3 characters a token, and 12 tokens a field for its key and the
    JSON around it, so that a reply the schema allows is never cut at the length limit."""
    return words * CHARS_PER_WORD // 3 + 12 * fields


def bounded_words(text: str | None, words: int) -> str | None:
    """The ``words`` of a structured reply (bounded at ``words * CHARS_PER_WORD`` characters by `answer_schema`),
    with a sentence the bound cut short taken out.

    Words that reach their bound (within `CHARS_PER_WORD` of it) and end mid-sentence ("... Based on the vo", a
    1.5B model's words cut by the grammar) keep their whole sentences, or, with none, end with "..."; any other
    words, and ``None``, are returned as they are.
    """
    if not text:
        return text
    said = text.rstrip()
    if len(said) < (words - 1) * CHARS_PER_WORD or _ENDS_SENTENCE.search(said):
        return text
    whole = _UP_TO_LAST_END.match(said)
    return whole.group(0) if whole else f"{said}..."

Describe = Callable[..., str]
"""``describe(field, **facts) -> str``: a schema field's description (rendered from a template)."""


def _plain(field: str, **facts: Any) -> str:
    return field


def notes_schema(limits: dict[str, int], describe: Describe = _plain) -> type[BaseModel]:
    """The schema of a merged refresh answer: one bounded string per note, in the order given.

    Args:
        limits: ``{note name: word limit}``, e.g. ``{"summary": 40, "analysis": 30, "plan": 20}``;
            each string is at most ``words * CHARS_PER_WORD`` characters, so a
            schema-enforcing server stops every note at its bound and writes them all.
        describe: the field descriptions (``describe("note", name=..., words=...)``).
    """
    fields: dict[str, Any] = {
        name: (str, Field(max_length=words * CHARS_PER_WORD, description=describe("note", name=name, words=words)))
        for name, words in limits.items()
    }
    return create_model("RefreshNotes", **fields)


def needs_answer(request: Request) -> bool:
    """Whether a request asks for an answer a model must give: a ``pick``, or a ``yes_no`` with a choice
    (a good player's quest card, with one legal answer, needs no model)."""
    return request.answer == "pick" or (request.answer == "yes_no" and len(request.allowed) > 1)


# ---------------------------------------------------------------- schemas


def answer_schema(request: Request, players: int, words: int | None, *, reason: bool = False,
                  describe: Describe = _plain) -> type[BaseModel]:
    """The bounded JSON schema of the answer to ``request``.

    Args:
        request: the request in hand.
        players: number of players N.
        words: when set, the answer also carries ``words`` (what the player
            says), at most ``words * CHARS_PER_WORD`` characters.
        reason: the answer is preceded by a short ``reason`` (at most
            `REASON_CHARS`; the embedded model approved more teams with one
            before a vote: docs/measurements.md#team-votes).
        describe: the field descriptions, ``describe(field, **request facts)``.

    Returns:
        A pydantic model with ``reason`` first when asked, then the answer
        field, then ``words``: ``players`` (exactly ``count`` ints in 1..N) or
        ``player`` (one of the candidates, 0 for a pass when passing is
        allowed) for a ``pick``; ``answer`` (only the allowed words) for a ``yes_no``.
    """
    facts = {"kind": request.kind, "count": request.count, "may_pass": request.may_pass,
             "options": list(request.options)}
    fields: dict[str, Any] = {}
    if reason and request.answer in ("pick", "yes_no"):
        fields["reason"] = (str, Field(max_length=REASON_CHARS, description=describe("reason", **facts)))
    if request.answer == "pick" and request.count == 1:
        allowed = ((0,) if request.may_pass else ()) + tuple(request.candidates or range(1, players + 1))
        fields["player"] = (Literal[allowed], Field(description=describe("player", **facts)))
    elif request.answer == "pick":
        size = request.count or 1
        player = Annotated[int, Field(ge=1, le=players)]
        fields["players"] = (list[player], Field(min_length=size, max_length=size,
                                                 description=describe("players", **facts)))
    elif request.answer == "yes_no":
        words_allowed = tuple(request.word(c) for c in request.allowed)
        fields["answer"] = (Literal[words_allowed], Field(description=describe("answer", **facts)))
    if words:
        fields["words"] = (str, Field(max_length=words * CHARS_PER_WORD,
                                      description=describe("words", words=words, **facts)))
    name = "".join(part.title() for part in request.kind.split("_")) + "Answer"
    return create_model(name, **fields)


def answer_from_schema(request: Request, parsed: dict[str, Any] | None) -> dict[str, Any]:
    """The answer from a parsed `answer_schema` object (``{}`` when nothing usable)."""
    if not parsed:
        return {}
    if request.answer == "pick":
        if isinstance(parsed.get("players"), list):
            return {"players": list(parsed["players"])}
        if isinstance(parsed.get("player"), int):
            if parsed["player"] == 0:
                return {"passed": True} if request.may_pass else {}
            return {"players": [parsed["player"]]}
    if request.answer == "yes_no" and parsed.get("answer") in request.options:
        return {"choice": parsed["answer"] == request.options[0]}
    return {}


def extractor_schema(request: Request, players: int) -> type[BaseModel]:
    """Schema of the extractor's answer: ``players`` (0..count numbers) for a ``pick``, ``answer``
    (the two words or ``none``) for a ``yes_no``."""
    if request.answer == "pick":
        player = Annotated[int, Field(ge=0, le=players)]
        return create_model("ExtractedPlayers",
                            players=(list[player], Field(max_length=max(request.count or 1, 1) + 2)))
    fields: dict[str, Any] = {"answer": (Literal[(*request.options, "none")], ...)}  # a Literal built at run time
    return create_model("ExtractedAnswer", **fields)


# ------------------------------------------------------------ prose parsing

_NUMBER = re.compile(r"\b(\d{1,2})\b")
_LABEL = re.compile(r"^\W*(choice|team|players?|vote|card|target|action|answer)\s*[:=]\s*(.*)$", re.IGNORECASE)
_WORDS_LABEL = re.compile(r"^\W*(words|say|speech|response)\s*[:=]\s*", re.IGNORECASE)
_TRUE = {"true", "yes", "agree", "accept"}
_FALSE = {"false", "no", "disagree", "refuse"}
_NONE = {"none", "unclear", "unknown", "nothing", "null", "n/a"}


def parse_players(text: str | None) -> list[int] | None:
    """Player numbers in ``text``, in order (``"1, 3"``, ``"[1,3]"``, ``"Players 1 and 3"``).

    Returns:
        The numbers (duplicates and out-of-range kept: the fallback rules judge
        them), or ``None`` when the text names none or says ``none``.
    """
    if not text:
        return None
    if text.strip().lower().strip(".") in _NONE:
        return None
    numbers = [int(n) for n in _NUMBER.findall(text)]
    return numbers or None


def parse_choice(text: str | None, options: tuple[str, str]) -> bool | None:
    """``True`` for the first of ``options`` (or yes/true), ``False`` for the second (or no/false),
    from the first word that is one; ``None`` when unclear."""
    if not text:
        return None
    yes, no = options[0].lower(), options[1].lower()
    for word in re.findall(r"[a-z/]+", text.lower()):
        if word in _NONE:
            return None
        if word == yes or word.startswith(yes) or word in _TRUE:
            return True
        if word == no or word.startswith(no) or word in _FALSE:
            return False
    return None


def answer_from_text(request: Request, text: str | None) -> dict[str, Any]:
    """Read the answer to ``request`` from a short text (an extractor's line or a ``Choice:`` value).

    Returns:
        An answer (see the module docstring); ``{}`` when nothing is readable.
    """
    if request.answer == "pick":
        if text and text.strip().lower().strip(".") in _NONE | {"pass", "0"}:
            return {"passed": True} if request.may_pass else {}
        players = [p for p in parse_players(text) or [] if p != 0]
        return {"players": players} if players else {}
    if request.answer == "yes_no":
        value = parse_choice(text, request.options)
        return {} if value is None else {"choice": value}
    return {}


def read_labelled(text: str) -> tuple[str | None, str | None]:
    """Split a prose reply into its ``Choice:`` value and its ``Words:`` text.

    Returns:
        ``(choice text or None, words or None)``: the first labelled choice
        line, and everything from a ``Words:`` label on (or, with no label, the
        lines that are not the choice line).
    """
    choice: str | None = None
    words: list[str] = []
    in_words = False
    other: list[str] = []
    for line in text.splitlines():
        if not in_words and choice is None and (m := _LABEL.match(line)):
            choice = m.group(2).strip()
            continue
        if m := _WORDS_LABEL.match(line):
            in_words = True
            words.append(line[m.end():])
            continue
        (words if in_words else other).append(line)
    said = "\n".join(words).strip() if in_words else "\n".join(other).strip()
    return choice, (said or None)


# ------------------------------------------------------------ the extractor


def extract(
    model: BaseChatModel,
    request: Request,
    players: int,
    prompt: str,
    *,
    system: str,
    structured: bool,
    module: str = "extract",
) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """Map a prose reply to the answer with an extractor call (temperature 0 model expected).

    Args:
        model: the extractor's chat model (temperature 0).
        request: the request the reply answers.
        players: N, the number of players.
        prompt: the rendered extraction prompt (worked examples and the reply).
        system: the extractor's system prompt (template ``extraction/system``).
        structured: use `extractor_schema` (json_schema endpoints) instead of a text answer.
        module: the agent module the call names in its metadata (``extract``; ``react``'s parser: ``parse``).

    Returns:
        ``(answer or {}, the extractor's raw answer, usage record)``.

    Raises:
        ValueError: the request asks for words only.
    """
    if request.answer == "words":
        raise ValueError(f"request {request.id} asks for words only: nothing to extract")
    messages = [SystemMessage(system), HumanMessage(prompt)]
    if structured:
        parsed, raw, usage = call_structured(model, messages, extractor_schema(request, players), module)
        if parsed is None:  # read as text; a reply read so is no unusable one
            answer = answer_from_text(request, raw)
            return answer, raw, {k: v for k, v in usage.items() if k != UNUSABLE_KEY} if answer else usage
        if request.answer == "pick":
            named = [p for p in parsed["players"] if p != 0]
            if not named:
                return ({"passed": True} if request.may_pass and parsed["players"] == [0] else {}), raw, usage
            return {"players": named}, raw, usage
        return answer_from_text(request, parsed["answer"]), raw, usage
    raw, usage = call_text(model, messages, module)
    first = next((line for line in raw.splitlines() if line.strip()), "")
    first = re.sub(r"^\W*(answer|output|team|players?|vote|card)\s*:\s*", "", first, flags=re.IGNORECASE)
    return answer_from_text(request, first), raw, usage
