"""Reading actions from model replies (SPEC.md §3.2).

Two paths, both ending in the pure fallback rules of
``roundtable.games.avalon.fallbacks``:

1. **Schema-constrained output**, where the endpoint supports it: the agent asks
   for a JSON object whose schema is bounded for the request in hand (`answer_schema`:
   a team list of exactly the team size with player numbers 1..N, an enum for
   votes and cards, a player number for the assassination, a words string of
   bounded length), so a small model cannot run on until ``max_tokens``.
2. **Prose**: the reply is read with `read_labelled` (``Choice: ...`` /
   ``Words: ...`` lines), and when that fails, an *extractor* call at
   temperature 0 with worked examples (``prompts/extraction/<kind>.j2``) maps
   the prose to the action: player numbers, or ``true``/``false``/``none``.

Shapes: an action is a dict with one of ``team`` (list of ints), ``approve``
(bool or None), ``success`` (bool or None), ``target`` (int or None) and, for
the assassination, ``passed`` (bool).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field, create_model

from roundtable.games.avalon import Request

from .model_calls import call_structured, call_text

ActionKind = Literal["team", "vote", "quest_card", "target"]

CHARS_PER_WORD = 6
"""Bound on a words string's length in characters per allowed word (schema ``maxLength``).

The 1.5B embedded model writes each bounded string up to its bound, so this is
the output budget: its notes averaged 5 characters a word (space included), so
6 leaves room for the word limit, which the agent then applies (at 7, a merged
refresh wrote about 170 tokens)."""
REASON_CHARS = 100
"""Longest reason asked before a team vote, in characters (about 25 tokens)."""


def notes_schema(limits: dict[str, int]) -> type[BaseModel]:
    """The schema of a merged refresh answer: one bounded string per note, in the order given.

    Args:
        limits: ``{note name: word limit}``, e.g. ``{"summary": 40, "analysis": 30, "plan": 20}``;
            each string is at most ``words * CHARS_PER_WORD`` characters, so a
            schema-enforcing server stops every note at its bound and writes them all.
    """
    fields: dict[str, Any] = {
        name: (str, Field(max_length=words * CHARS_PER_WORD, description=f"at most {words} words"))
        for name, words in limits.items()
    }
    return create_model("RefreshNotes", **fields)


def action_kind(request: Request) -> ActionKind | None:
    """What kind of action a request asks for: ``team``, ``vote``, ``quest_card``, ``target``, or ``None`` (words only)."""
    if request.kind == "propose_team" or (request.kind == "speak" and request.team_size is not None):
        return "team"
    if request.kind == "vote_team":
        return "vote"
    if request.kind == "quest_card":
        return "quest_card"
    if request.kind == "assassinate":
        return "target"
    return None


# ---------------------------------------------------------------- schemas


def answer_schema(request: Request, players: int, words: int | None) -> type[BaseModel]:
    """The bounded JSON schema of the answer to ``request``.

    Args:
        request: the request in hand. players: number of players N.
        words: when set, the answer also carries ``words`` (what the player
            says), at most ``words * CHARS_PER_WORD`` characters.

    Returns:
        A pydantic model with the action field first, then ``words``:
        ``team`` (exactly ``team_size`` ints in 1..N), ``vote``
        (``approve``/``reject``), ``card`` (``success``/``fail``, only the legal
        ones), ``target`` (one of the request's candidates, or 0 for a pass when passing is allowed).
    """
    kind = action_kind(request)
    fields: dict[str, Any] = {}
    player = Annotated[int, Field(ge=1, le=players)]
    if kind == "team":
        size = request.team_size or 1
        fields["team"] = (list[player], Field(min_length=size, max_length=size, description=f"{size} player numbers"))
    elif kind == "vote":
        # A short reason before the vote: the 1.5B embedded model rejected 15 of 18
        # first-round teams when asked for the bare vote and 7 of 18 with a reason
        # first (benchmarks/models/vote_reason.py); the reason stays in the raw reply.
        fields["reason"] = (str, Field(max_length=REASON_CHARS, description="one short sentence weighing the team"))
        fields["vote"] = (Literal["approve", "reject"], Field(description="approve or reject the team"))
    elif kind == "quest_card":
        if request.cards == (True,):
            fields["card"] = (Literal["success"], Field(description="your quest card"))
        else:
            fields["card"] = (Literal["success", "fail"], Field(description="your quest card"))
    elif kind == "target":
        # Only the legal names (the candidates, and 0 for a pass): the 1.5B model's
        # Assassin once named its own teammate, which cost a random fallback.
        allowed = ((0,) if request.may_pass else ()) + tuple(request.candidates or range(1, players + 1))
        fields["target"] = (Literal[allowed], Field(description="player you name as Merlin"  # type: ignore[valid-type]
                                                     + (" (0 to pass)" if request.may_pass else "")))
    if words:
        fields["words"] = (str, Field(max_length=words * CHARS_PER_WORD, description=f"at most {words} words"))
    name = f"{(kind or 'words').title().replace('_', '')}Answer"
    return create_model(name, **fields)  # type: ignore[call-overload]


def action_from_answer(request: Request, answer: dict[str, Any] | None) -> dict[str, Any]:
    """The action fields from a parsed `answer_schema` object (``{}`` when nothing usable)."""
    if not answer:
        return {}
    kind = action_kind(request)
    if kind == "team" and isinstance(answer.get("team"), list):
        return {"team": list(answer["team"])}
    if kind == "vote" and answer.get("vote") in ("approve", "reject"):
        return {"approve": answer["vote"] == "approve"}
    if kind == "quest_card" and answer.get("card") in ("success", "fail"):
        return {"success": answer["card"] == "success"}
    if kind == "target" and isinstance(answer.get("target"), int):
        target = answer["target"]
        if target == 0 and request.may_pass:
            return {"target": None, "passed": True}
        return {"target": target}
    return {}


def extractor_schema(kind: ActionKind, players: int) -> type[BaseModel]:
    """Schema of the extractor's answer: ``players`` (0..N numbers), ``answer`` (true/false/none) or ``player`` (0 = none)."""
    player = Annotated[int, Field(ge=1, le=players)]
    if kind == "team":
        return create_model("ExtractedPlayers", players=(list[player], Field(max_length=players)))
    if kind == "target":
        return create_model("ExtractedPlayer", player=(int, Field(ge=0, le=players, description="0 for none")))
    return create_model("ExtractedAnswer", answer=(Literal["true", "false", "none"], ...))


# ------------------------------------------------------------ prose parsing

_NUMBER = re.compile(r"\b(\d{1,2})\b")
_LABEL = re.compile(r"^\W*(choice|team|players?|vote|card|target|action|answer)\s*[:=]\s*(.*)$", re.IGNORECASE)
_WORDS_LABEL = re.compile(r"^\W*(words|say|speech|response)\s*[:=]\s*", re.IGNORECASE)
_TRUE = {"true", "yes", "approve", "approved", "agree", "accept", "success", "succeed", "pass"}
_FALSE = {"false", "no", "reject", "rejected", "disagree", "fail", "failure", "sabotage"}
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


def parse_truth(text: str | None) -> bool | None:
    """``true``/``false``/``none`` (and synonyms: approve/reject, success/fail, yes/no) from the first word that is one."""
    if not text:
        return None
    for word in re.findall(r"[a-z/]+", text.lower()):
        if word in _NONE:
            return None
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
    return None


def parse_player(text: str | None) -> int | None:
    """The first player number in ``text`` (``None`` for none or no number; 0 means none)."""
    numbers = parse_players(text)
    if not numbers or numbers[0] == 0:
        return None
    return numbers[0]


def action_from_text(request: Request, text: str | None) -> dict[str, Any]:
    """Read the action of ``request`` from a short answer (an extractor's line or a ``Choice:`` value).

    Returns:
        Action fields (see the module docstring); ``{}`` when nothing is readable.
    """
    kind = action_kind(request)
    if kind == "team":
        team = parse_players(text)
        return {"team": team} if team else {}
    if kind == "vote":
        value = parse_truth(text)
        return {} if value is None else {"approve": value}
    if kind == "quest_card":
        value = parse_truth(text)
        return {} if value is None else {"success": value}
    if kind == "target":
        if text and text.strip().lower().strip(".") in _NONE | {"pass", "0"} and request.may_pass:
            return {"target": None, "passed": True}
        target = parse_player(text)
        return {} if target is None else {"target": target}
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
    reply: str,
    prompt: str,
    *,
    structured: bool,
) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """Map a prose reply to the action with an extractor call (temperature 0 model expected).

    Args:
        model: the extractor's chat model (temperature 0).
        request: the request the reply answers. players: N.
        reply: the prose to read.
        prompt: the rendered extraction prompt (worked examples and the reply).
        structured: use `extractor_schema` (json_schema endpoints) instead of a text answer.

    Returns:
        ``(action fields or {}, the extractor's raw answer, usage record)``.

    Raises:
        ValueError: the request asks for no action.
    """
    kind = action_kind(request)
    if kind is None:
        raise ValueError(f"request {request.id} asks for words only: nothing to extract")
    messages = [SystemMessage("You read game answers and reply in the exact format shown."), HumanMessage(prompt)]
    if structured:
        parsed, raw, usage = call_structured(model, messages, extractor_schema(kind, players), "extract")
        if parsed is None:
            return action_from_text(request, raw), raw, usage
        if kind == "team":
            return ({"team": parsed["players"]} if parsed["players"] else {}), raw, usage
        if kind == "target":
            value = parsed["player"]
            if value == 0:
                return ({"target": None, "passed": True} if request.may_pass else {}), raw, usage
            return {"target": value}, raw, usage
        truth = {"true": True, "false": False}.get(parsed["answer"])
        key = "approve" if kind == "vote" else "success"
        return ({} if truth is None else {key: truth}), raw, usage
    raw, usage = call_text(model, messages, "extract")
    first = next((line for line in raw.splitlines() if line.strip()), "")
    first = re.sub(r"^\W*(answer|output)\s*:\s*", "", first, flags=re.IGNORECASE)
    return action_from_text(request, first), raw, usage
