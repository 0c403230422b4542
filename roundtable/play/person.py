"""A person at the terminal answering a human seat's questions (``roundtable play ... --agents 3=human``).

`TerminalPerson` shows the question's payload (`roundtable.agents.human.question`): who is asked,
their role and what they know, what happened since their last turn, and the request with its legal
answers; it reads the answer with Rich prompts, re-asks on an illegal one (checked with the game's own
rules, `roundtable.agents.human.decision_from_answer`) and returns the resume payload. Played hot-seat
(several human seats on one terminal), the screen is cleared before and after each player's turn, and
the next player is named and waited for first.
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.prompt import Prompt

from roundtable.agents.human import AnswerError, decision_from_answer
from roundtable.games.protocol import Request


class NoAnswer(KeyboardInterrupt):
    """The terminal closed (end of input) while a person was asked: the game stops, resumably."""


def typed_answer(request: Request, text: str) -> dict[str, Any]:
    """The answer payload of what a person typed for the choice part of ``request`` (no words).

    ``pick``: player numbers separated by commas or spaces, or ``pass``; ``yes_no``: one of the two
    words, or a prefix of one (``a`` for approve).

    Raises:
        AnswerError: the text is not of that form (the message says what to type).
    """
    text = text.strip().lower()
    if request.answer == "pick":
        if text in ("pass", "none", "-") and request.may_pass:
            return {"players": None}
        if not re.fullmatch(r"\d+([\s,]+\d+)*", text):
            hint = " or 'pass'" if request.may_pass else ""
            raise AnswerError(f"type player numbers separated by commas{hint}, e.g. "
                              f"{','.join(map(str, request.candidates[:request.count or 1]))}")
        return {"players": [int(n) for n in re.split(r"[\s,]+", text)]}
    if request.answer == "yes_no":
        words = [request.word(c) for c in request.allowed]
        hits = [w for w in words if text and w.startswith(text)]
        if len(hits) != 1:
            raise AnswerError(f"type {' or '.join(words)}")
        return {"choice": hits[0]}
    return {}


class TerminalPerson:
    """Answers human seats' questions at a terminal (a `roundtable.play.runner.Person`).

    Args:
        console: where questions are shown. hot_seat: several people share the
            terminal: clear the screen before and after each turn, and wait for the named player.
        prompt: reads a line (``prompt(text) -> str``); default Rich's `Prompt.ask`.

    Raises (from a call):
        NoAnswer: end of input while asking.
    """

    def __init__(self, console: Console, hot_seat: bool = False, prompt: Any = None) -> None:
        self.console, self.hot_seat = console, hot_seat
        self.prompt = prompt or (lambda text: Prompt.ask(text, console=console))
        self.shown: set[int] = set()

    def _clear(self) -> None:
        """Clear the screen (on a terminal that cannot, scroll the last player's lines out of view)."""
        if self.console.is_terminal and not self.console.is_dumb_terminal:
            self.console.clear()
        else:
            self.console.print("\n" * self.console.height)

    def _ask(self, text: str) -> str:
        try:
            return self.prompt(text)
        except EOFError:
            raise NoAnswer() from None

    def _show(self, q: dict[str, Any]) -> None:
        player = q["player"]
        if self.hot_seat:
            self._clear()
            self._ask(f"(Player {player}) your turn: press Enter when only you can see the screen")
        self.console.print(f"[bold]Player {player}[/bold], you are {escape(q['role'])} ({q['side']}).")
        for known in q.get("knowledge") or []:
            self.console.print(f"  You know: player {known.get('player')} is {escape(str(known.get('is')))}")
        if self.hot_seat or player not in self.shown:  # the transcript shows it otherwise
            if q.get("narration"):
                self.console.print("Since your last turn:")
            for line in q.get("narration") or []:
                self.console.print(f"  {escape(line)}")
        self.shown.add(player)
        if q.get("error"):
            self.console.print(f"[red]Not accepted:[/red] {escape(q['error'])}")

    def __call__(self, q: dict[str, Any]) -> dict[str, Any]:
        """Ask the person for ``q`` (an interrupt payload) until the answer is legal; return the resume payload."""
        self._show(q)
        request = Request.model_validate(q["request"])
        while True:
            answer: dict[str, Any] = {}
            words = "utterance" in q["keys"]
            if request.answer != "words":
                try:
                    answer = typed_answer(request, self._ask(f"(Player {q['player']}) ask: {escape(q['question'])}"))
                    decision_from_answer(request, answer | ({"utterance": "-"} if words else {}))
                except AnswerError as error:
                    self.console.print(f"[red]Not accepted: {escape(str(error))}[/red]")
                    continue
            while words:
                answer["utterance"] = self._ask(f"(Player {q['player']}) words to the table")
                try:
                    decision_from_answer(request, answer)
                    break
                except AnswerError as error:
                    self.console.print(f"[red]Not accepted: {escape(str(error))}[/red]")
            if self.hot_seat:
                self._clear()
            return answer
