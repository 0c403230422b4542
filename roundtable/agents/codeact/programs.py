"""Reading programs from model replies and teams from program output, and what a failed one did wrong (no model,
no sandbox).

A program is the first fenced code block of a reply (```python ... ```, or
any fence); a reply without a fence counts as a program when it calls
``print(``. A team is read from the last printed line that names players.
`debug_hints` names the failures a small coder model does not see in a bare
error: a line written over and over until the reply was cut, a program that
never prints, a player number that does not exist, the same program again.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from roundtable.agents.common.extraction import parse_players
from roundtable.games.fallbacks import clean_pick

_FENCE = re.compile(r"```[ \t]*(?:python|py)?[ \t]*\n(.*?)(?:```|$)", re.DOTALL | re.IGNORECASE)
_KEY_ERROR = re.compile(r"KeyError: (-?\d+)\s*$")
REPEATED_LINE = 3
"""A program line written this many times or more is a loop of the model's, not a program's."""
_SPECIAL = re.compile(r"<\|[^|>]{1,40}\|>")


def program_of(reply: str) -> str | None:
    """The program in ``reply``, or ``None`` when it holds none."""
    text = _SPECIAL.sub("", reply or "")
    match = _FENCE.search(text)
    if match and match.group(1).strip():
        return match.group(1).strip() + "\n"
    if "print(" in text:
        return text.strip() + "\n"
    return None


def team_of(output: str, count: int, candidates: Sequence[int],
            advice: bool = True) -> tuple[list[int] | None, str | None]:
    """The team a program printed: ``(players, None)``, or ``(None, problem)`` when the output is unusable.

    The last line naming players must name exactly ``count`` different players among ``candidates``. ``advice``
    (the aids): the problem also says what to print instead (``print([1, 4])``); without it, only what went wrong.
    """
    lines = [line for line in (output or "").splitlines() if parse_players(line)]
    if not lines:
        return None, "the program printed no player numbers" + (
            f"; print a list of {count} players, e.g. print([1, 4])" if advice else "")
    named = parse_players(lines[-1]) or []
    players, problems = clean_pick(named, count, candidates)
    if problems or len(players) != count:
        why = "; ".join(problems) or f"it names {len(players)} players"
        fix = (f"; print exactly {count} different players from {min(candidates)} to {max(candidates)}" if advice
               else f", not {count} different players from {min(candidates)} to {max(candidates)}")
        return None, f"the program printed {lines[-1].strip()[:80]!r}: {why}{fix}"
    return players, None


def debug_hints(program: str, error: str, earlier: Sequence[str], players: int, cut: bool = False) -> list[str]:
    """Plain statements of what went wrong with ``program``, for the debug prompt (``[]`` when none applies).

    Args:
        program: the failed program (``""`` when the reply held none).
        error: its error text.
        earlier: the programs of the decision's earlier attempts.
        players: the table's size.
        cut: the reply that held ``program`` ran into its token limit.

    Returns:
        Sentences, each naming one failure: a line repeated `REPEATED_LINE` times or more, a reply cut at its
        token limit, no ``print`` call, a ``KeyError`` on a number that is not a player, a program
        identical to an earlier one.
    """
    hints = []
    lines = Counter(line.strip() for line in program.splitlines() if line.strip())
    line, times = lines.most_common(1)[0] if lines else ("", 0)
    if times >= REPEATED_LINE:
        hints.append(f"Your program writes the line `{line[:80]}` {times} times and was cut off: "
                     "write each fact once, in at most 15 lines.")
    elif cut:
        hints.append("Your program was cut off at the length limit before it ended: write a shorter one, at most "
                     "15 lines (one line can change several players, e.g. for p in (2, 5): suspicion[p] += 1).")
    if program and "print(" not in program:
        hints.append("Your program never prints the team: end it with the print line.")
    key = _KEY_ERROR.search(error or "")
    if key and not 1 <= int(key.group(1)) <= players:
        hints.append(f"There is no player {key.group(1)}: the players are 1 to {players}.")
    if program and program.strip() in {e.strip() for e in earlier}:
        hints.append("You wrote this same program before, and it failed the same way: change it.")
    return hints
