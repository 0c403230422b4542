"""A person's answer (the ``Command(resume=...)`` payload of a human seat) as a checked `Decision`.

The payload is a small JSON object whose keys follow the request's answer shape:

- ``pick``: ``{"players": [2, 3]}``; a pass, where allowed, ``{"players": null}``;
- ``yes_no``: ``{"choice": "approve"}`` (one of the request's two words; ``true``/``false`` also do);
- ``words`` and any request that wants words: ``{"utterance": "..."}`` as well.

It is checked with the rules the game applies (`roundtable.games.protocol.check_decision`).
"""

from __future__ import annotations

from typing import Any

from roundtable.games.errors import IllegalActionError
from roundtable.games.protocol import Decision, Request, check_decision

MAX_WORDS_CHARS = 2000
"""Longest utterance a person may give, in characters."""


class AnswerError(IllegalActionError):
    """A person's answer does not answer the request; the message says what to send instead."""


def answer_keys(request: Request) -> set[str]:
    """The keys of a legal answer payload to ``request``: ``players`` or ``choice``, and ``utterance`` when words are
    asked."""
    keys = {"pick": {"players"}, "yes_no": {"choice"}, "words": set()}[request.answer]
    return keys | ({"utterance"} if request.wants_words or request.answer == "words" else set())


def example_answer(request: Request) -> dict[str, Any]:
    """A legal answer payload for ``request`` (the first candidates, the first allowed word, a few words)."""
    out: dict[str, Any] = {}
    if request.answer == "pick":
        out["players"] = list(request.candidates[: request.count or 0])
    elif request.answer == "yes_no":
        out["choice"] = request.word(request.allowed[0])
    if "utterance" in answer_keys(request):
        out["utterance"] = "I have nothing to add."
    return out


def _players(value: Any, request: Request) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in value):
        raise AnswerError(f"'players' is a list of player numbers, not {value!r}")
    return tuple(value)


def _choice(value: Any, request: Request) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in request.options:
        return value.strip().lower() == request.options[0]
    raise AnswerError(f"'choice' is {' or '.join(repr(o) for o in request.options)}, not {value!r}")


def decision_from_answer(request: Request, answer: Any) -> Decision:
    """The decision a person's answer payload makes for ``request``.

    Args:
        request: the request asked.
        answer: the resume payload (a dict; see the module docstring).

    Returns:
        A `Decision` that `check_decision` accepts (``raw``: the payload as given).

    Raises:
        AnswerError: not a JSON object, a missing or unknown key, a value of the wrong type, or an
            answer the game's rules refuse (a pick of the wrong size, a player who cannot be named,
            a pass where none is allowed, a word not allowed here, no words where words are asked for).
    """
    keys = answer_keys(request)
    if not isinstance(answer, dict):
        raise AnswerError(f"answer with a JSON object with the keys {sorted(keys)}, not {answer!r}")
    unknown = set(answer) - keys
    if unknown:
        raise AnswerError(f"unknown key(s) {sorted(unknown)} for {request.kind}; the answer takes {sorted(keys)}")
    missing = keys - set(answer) - ({"players"} if request.answer == "pick" and request.may_pass else set())
    if missing:
        raise AnswerError(f"missing key(s) {sorted(missing)} for {request.kind}")
    fields: dict[str, Any] = {}
    if request.answer == "pick":
        fields["players"] = _players(answer.get("players"), request)
    elif request.answer == "yes_no":
        fields["choice"] = _choice(answer["choice"], request)
    if "utterance" in keys:
        words = answer["utterance"]
        if not isinstance(words, str) or not words.strip():
            raise AnswerError("'utterance' is the words you say, a non-empty string")
        if len(words) > MAX_WORDS_CHARS:
            raise AnswerError(f"'utterance' is at most {MAX_WORDS_CHARS} characters, not {len(words)}")
        fields["utterance"] = " ".join(words.split())
    decision = Decision.to(request, **fields)
    try:
        check_decision(request, decision)
    except IllegalActionError as error:
        raise AnswerError(str(error)) from None
    return decision
