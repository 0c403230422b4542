"""Reading a text action: the answer to a request in the answer format its table states, then the words
(docs/envs.md#actions).

An action is text. Its first line is the answer, by the request's answer shape: ``pick``, the player numbers
(``2, 5`` or ``[2, 5]``; ``0``, ``pass`` or ``nobody`` where passing is allowed); ``yes_no``, one of the game's two
words (``approve`` / ``reject``, ``yes`` / ``no`` also read as the first / second); ``words``, the whole text is
the words. Where the request wants words with its answer, the lines after the first are the words (none: the
game's plain words for the answer). TextArena's brackets (``[approve]``) are read too.

A reading that is not a legal answer raises `IllegalActionError` with the game's message
(`roundtable.games.protocol.check_decision`) or the reader's.
"""

from __future__ import annotations

import re

from roundtable.games.errors import IllegalActionError
from roundtable.games.protocol import Decision, Request, check_decision

PASS_WORDS = frozenset({"0", "pass", "nobody", "none", "no one"})
"""Answers that name nobody, where the request allows a pass."""
YES_WORDS = frozenset({"yes", "y", "true"})
NO_WORDS = frozenset({"no", "n", "false"})


def split_action(action: str) -> tuple[str, str]:
    """``(answer, words)``: the first non-empty line, brackets stripped, and the lines after it."""
    lines = [line for line in str(action).strip().splitlines()]
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        return "", ""
    head = lines[0].strip()
    if head.startswith("[") and head.endswith("]"):
        head = head[1:-1].strip()
    return head, "\n".join(lines[1:]).strip()


def read_players(answer: str, request: Request) -> tuple[int, ...] | None:
    """The players an answer names, in order (``None``: a pass).

    Raises:
        IllegalActionError: no player number (and no pass where one is allowed).
    """
    if answer.strip().lower().strip(".") in PASS_WORDS:
        if request.may_pass:
            return None
        raise IllegalActionError(f"player {request.player} must name {request.count} now ({request.kind})")
    numbers = tuple(int(n) for n in re.findall(r"\d+", answer))
    if not numbers:
        raise IllegalActionError(f"name {request.count} player number{'s' if request.count != 1 else ''} "
                                 f"from {list(request.candidates)}, not {answer[:40]!r}")
    return numbers


def read_choice(answer: str, request: Request) -> bool:
    """The yes/no answer an answer names: the game's first word (or ``yes``) ``True``, its second ``False``.

    Raises:
        IllegalActionError: neither word.
    """
    word = answer.strip().lower().strip(".!")
    first, second = (option.lower() for option in request.options)
    if word in (first, *YES_WORDS):
        return True
    if word in (second, *NO_WORDS):
        return False
    allowed = " or ".join(request.word(c) for c in request.allowed)
    raise IllegalActionError(f"{request.kind} must be answered {allowed}, not {answer[:40]!r}")


def read_action(request: Request, action: str) -> Decision:
    """The decision an action text makes on ``request``, checked (its words ``None`` where the request wants words
    and none were given: the caller says the game's plain words).

    Raises:
        IllegalActionError: the answer is unreadable or illegal, with the game's message.
    """
    if request.answer == "words":
        return Decision.to(request, utterance=str(action).strip())
    answer, words = split_action(action)
    if request.answer == "pick":
        decision = Decision.to(request, players=read_players(answer, request))
    elif request.answer == "yes_no":
        decision = Decision.to(request, choice=read_choice(answer, request))
    else:
        raise IllegalActionError(f"{request.kind} asks for a {request.answer} answer, which no action gives")
    check_decision(request, decision)
    if request.wants_words and words:
        decision = decision.model_copy(update={"utterance": words})
    return decision
