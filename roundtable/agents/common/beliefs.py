"""Reading a player's answer to the belief probe: probabilities of being good, one per player asked.

Every model-driven kind answers the probe (`roundtable.graphs.probe`) in its
own prompt style; an answer that already lists a probability per player asked is read as it stands
(`listed_beliefs`), any other goes to a separate parser call at temperature 0 (template
``extraction/belief`` in the words of the table's probe sides, or a game's own wording of it,
``extraction/<game>/belief``: `parser_template`; schema-constrained where the endpoint takes JSON
schemas) turns the free answer into numbers in [0, 1]
(docs/measures.md#deduction-accuracy). What cannot be read for every player
is left out by the fallback rules (`roundtable.games.fallbacks.choose_beliefs`),
never filled in with 0.5.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field, create_model

from roundtable.agents.common.model_calls import call_structured, call_text
from roundtable.games.protocol import Request
from roundtable.prompts.rendering import PromptContext
from roundtable.tables.protocol import GameTable, game_template

PARSE_MODULE = "parse_beliefs"
"""The module name the parser call carries in its metadata (`roundtable.agents.common.model_calls`)."""

BELIEVE_MODULE = "believe"
"""The module name the player's free answer carries in its metadata."""

LINE_WORDS = 4
"""Room for one ``Player N: P`` line of a free answer, in words."""

REPLY_CHARS = 1600
"""Longest free answer passed to the parser, in characters."""

_NUMBER = r"(\d{1,3}(?:\.\d+)?|\.\d+)\s*(%?)"
_WORDS = {"certainly good": 0.95, "surely good": 0.95, "very likely good": 0.9, "likely good": 0.7,
          "probably good": 0.7, "unsure": 0.5, "unknown": 0.5, "probably evil": 0.3, "likely evil": 0.3,
          "very likely evil": 0.1, "surely evil": 0.05, "certainly evil": 0.05}


PROBABILITY_PATTERN = r"^(0(\.[0-9]{1,2})?|1(\.0{1,2})?)$"
"""A probability in [0, 1] as the parser writes it, with at most two decimals ("0.7", "1", "0.05")."""


def belief_schema(candidates: Sequence[int]) -> type[BaseModel]:
    """The parser's answer schema: a field ``player_<n>`` per player asked, a probability in [0, 1] written as a
    string of `PROBABILITY_PATTERN`. A JSON number has no bound on its digits: on the embedded model a parser
    wrote "0.5000000000000000" and ran out of its budget before the third player (a ``react`` probe in the
    model test of 2026-11-28); the pattern constrains the reply as well as validating it."""
    fields: dict[str, Any] = {f"player_{q}": (str, Field(pattern=PROBABILITY_PATTERN)) for q in candidates}
    return create_model("StatedBeliefs", **fields)


def _probability(number: str, percent: str) -> float | None:
    value = float(number)
    if percent or value > 1.0:
        value /= 100.0
    return value if 0.0 <= value <= 1.0 else None


def beliefs_from_text(text: str | None, candidates: Sequence[int]) -> dict[int, float]:
    """The probabilities a text gives per player: the first number (``0.8``, ``80%``, ``80``) or verdict
    ("probably evil") after each ``Player N``/``PN``/``N:`` mention, for ``N`` among ``candidates``; also the
    parser's JSON keys (``"player_3": "0.7"``), so a reply cut or refused by the schema is read as far as it goes.

    Returns:
        ``{player: probability in [0, 1]}`` for the players read (possibly none, possibly not all).
    """
    out: dict[int, float] = {}
    for line in (text or "").splitlines():
        for match in re.finditer(r"(?:\bplayer[\s_]*|\bp)?(\d{1,2})[\"']?\s*(?:[:=\-–(]|is|\))\s*", line,
                                 re.IGNORECASE):
            player = int(match.group(1))
            if player not in candidates or player in out:
                continue
            rest = line[match.end():]
            rest = rest[:next((m.start() for m in re.finditer(r"\bplayer\s*\d", rest, re.IGNORECASE)), len(rest))]
            number = re.search(_NUMBER, rest)
            value = _probability(number.group(1), number.group(2)) if number else None
            if value is None:
                lowered = rest.lower()
                value = next((v for w, v in sorted(_WORDS.items(), key=lambda i: -len(i[0])) if w in lowered), None)
            if value is not None:
                out[player] = value
    return out


_LISTED = re.compile(r"^\W*(?:player\s*|p)(\d{1,2})\W*?\s*[:=\-–]\s*(?:p(?:\(good\))?\s*=\s*)?"
                     r"(\d{1,3}(?:\.\d+)?|\.\d+)\s*(%?)(?![\d.]\d)", re.IGNORECASE)


def listed_beliefs(text: str | None, candidates: Sequence[int]) -> dict[int, float] | None:
    """The probabilities of a free answer written as the parser would write them, one ``Player N: P`` line per
    player asked (``0.7``, ``70%``, ``P = 0.7``; a list mark or bold around the name allowed, any text after the
    number), or None when a player asked has no such line, has two that disagree, or a number is no probability
    (``1.7``; ``70`` is read as 70%).

    Such an answer needs no parser call (`state_beliefs`): on the embedded model most answers to the probe are
    these lines, and the parser wrote the same numbers back.

    Returns:
        ``{player: probability in [0, 1]}`` for every player in ``candidates``, or None.
    """
    out: dict[int, float] = {}
    for line in (text or "").splitlines():
        match = _LISTED.match(line.strip())
        if match is None or int(match.group(1)) not in candidates:
            continue
        number, percent = match.group(2), match.group(3)
        value = None if not percent and "." in number and float(number) > 1.0 else _probability(number, percent)
        player = int(match.group(1))
        if value is None or out.get(player, value) != value:
            return None
        out[player] = value
    return out if candidates and set(out) == set(candidates) else None


def _parser_piece(piece: str) -> str:
    return f"extraction/{piece}"


def parser_template(context: PromptContext, table: GameTable) -> str:
    """The parser's template at ``table``: a game's own wording of it where there is one
    (``extraction/<game>/belief``, Avalon's ``extraction/avalon/belief``: `roundtable.tables.protocol.game_template`,
    a lookup by template, not a comparison of the game's name), else ``extraction/belief``, in the words of the
    table's probe sides (``sides``)."""
    return game_template(context, _parser_piece, table.view.game, "belief")


def parse_beliefs(extractor: BaseChatModel, context: PromptContext, request: Request, players: int, reply: str,
                  structured: bool, table: GameTable) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
    """The parser call: map a free answer to the probe to ``{"beliefs": {player: P(first side)}}``.

    Args:
        extractor: the chat model of the parser (temperature 0, a short cap).
        context: the kind's prompt context (its override of the parser's template, `parser_template`, and of
            ``extraction/system``).
        request: the probe's `roundtable.games.protocol.belief_request` (its ``candidates``).
        players: how many players the game has.
        reply: the player's free answer.
        structured: ask for schema-constrained output (`belief_schema`) instead of lines of text.
        table: the decision's table (its game's wording of the parser, its probe sides:
            `roundtable.tables.protocol.GameTable.probe_sides`).

    Returns:
        ``(answer, [parser's raw answer], [usage record])``: ``answer`` is ``{"beliefs": {...}}`` with the
        players read (the fallback rules leave out an incomplete one), ``{}`` when nothing was read; no call
        (empty lists) for an empty reply.
    """
    if not reply.strip():
        return {}, [], []
    prompt = context.render(parser_template(context, table),
                            reply=" ".join(reply.split())[:REPLY_CHARS].replace('"', "'"), players=players,
                            candidates=list(request.candidates), sides=list(table.probe_sides))
    messages = [SystemMessage(context.render("extraction/system")), HumanMessage(prompt)]
    if structured:
        parsed, raw, usage = call_structured(extractor, messages, belief_schema(request.candidates), PARSE_MODULE)
        read = ({q: float(parsed[f"player_{q}"]) for q in request.candidates} if parsed is not None
                else beliefs_from_text(raw, request.candidates))
    else:
        raw, usage = call_text(extractor, messages, PARSE_MODULE)
        first = request.candidates[0] if request.candidates else 0
        read = beliefs_from_text(f"Player {first}: {raw}" if not re.match(r"\W*player", raw, re.IGNORECASE)
                                 else raw, request.candidates)
    return ({"beliefs": read} if read else {}), [f"(parser) {raw}"], [usage]


def parser_tokens(request: Request) -> int:
    """``max_tokens`` of the parser call: a short line per player asked, or a JSON key and its quoted value
    (``"player_3": "0.05", ``: 11 tokens on the embedded model's tokenizer; 8 cut a reply of four at its
    closing brace)."""
    return 16 + 12 * len(request.candidates)


def state_beliefs(model: BaseChatModel, messages: list[BaseMessage], parser: BaseChatModel, context: PromptContext,
                  request: Request, players: int, structured: bool, table: GameTable) -> dict[str, Any]:
    """The probe's calls, as every kind's ``believe`` node makes them: the player's free answer to ``messages``
    (module `BELIEVE_MODULE`, the kind's own prompt, model and temperature), then `parse_beliefs`, unless the
    answer already lists a probability for every player asked as the parser would (`listed_beliefs`).

    Args:
        model: the seat's model for the free answer.
        messages: the kind's prompt (its rules and its probe template).
        parser: the parser's chat model (temperature 0, `parser_tokens`).
        context: the kind's prompt context (its parser template, `parser_template`, and ``extraction/system``).
        request: the probe's `roundtable.games.protocol.belief_request`.
        players: how many players the game has.
        structured: ask the parser for schema-constrained output.
        table: the decision's table (`parse_beliefs`).

    Returns:
        The node's update: ``action`` ``{"beliefs": {player: P(good)}}`` (``{}``: nothing read), ``raw`` (the
        answer, then the parser's) and ``usage`` (a record per call).
    """
    text, usage = call_text(model, messages, BELIEVE_MODULE)
    listed = listed_beliefs(text, request.candidates)
    if listed is not None:
        return {"action": {"beliefs": listed}, "raw": [text], "usage": [usage]}
    action, raw, more_usage = parse_beliefs(parser, context, request, players, text, structured, table)
    return {"action": action, "raw": [text, *raw], "usage": [usage, *more_usage]}


def avalonbench_beliefs(model: BaseChatModel, messages: list[BaseMessage], parser: BaseChatModel,
                        context: PromptContext, request: Request, players: int, template: str,
                        sides: tuple[str, str] = ("good", "evil")) -> dict[str, Any]:
    """AvalonBench's probe as its code asks it (``get_believed_sides``), for a kind whose aids are off: the
    player's answer, then AvalonBench's parser call, one user message (the answer and its
    ``CHECK_BELIEVED_SIDES_PROMPT``, the kind's ``template``), read as ``Answer: {1: 0.9, ...}``
    (`beliefs_from_text`); an answer that lists a probability for every player asked as the parser would
    (`listed_beliefs`) needs no parser call, as for every kind.

    Args:
        model: the player's model.
        messages: the probe's prompt.
        parser: the parser's model (temperature 0).
        context: the kind's prompt context.
        request: the probe.
        players: the game's player count.
        template: the parser's template (``react/parse_beliefs``, ``codeact/parse_beliefs``).
        sides: the probe's sides, the one asked about first (`roundtable.tables.protocol.GameTable.probe_sides`).

    Returns:
        The node's update, as `state_beliefs` gives it: ``action`` ``{"beliefs": {player: P(good)}}`` (``{}``:
        nothing read), ``raw``, ``usage``.
    """
    text, usage = call_text(model, messages, BELIEVE_MODULE)
    listed = listed_beliefs(text, request.candidates)  # already as the parser would write it: no second call
    if not text.strip() or listed is not None:
        return {"action": {"beliefs": listed} if listed else {}, "raw": [text], "usage": [usage]}
    prompt = context.render(template, reply=text.strip(), players=players, sides=sides)
    raw, more = call_text(parser, [HumanMessage(prompt)], PARSE_MODULE)
    read = beliefs_from_text(raw.split("Answer:")[-1], request.candidates)
    return {"action": {"beliefs": read} if read else {}, "raw": [text, f"(parser) {raw}"], "usage": [usage, more]}
