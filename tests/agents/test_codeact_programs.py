"""What a failed CodeAct program did wrong, stated for the debug prompt (`roundtable.agents.codeact.programs`)."""

from __future__ import annotations

from roundtable.agents.codeact.programs import debug_hints

TRACEBACK = 'Traceback (most recent call last):\n  File "<program 1>", line 3, in <module>\nKeyError: 8\n'


def test_a_key_error_on_a_missing_player_names_the_players():
    program = "s = {p: 0 for p in range(1, 8)}\ns[8] -= 10\nprint(sorted(s)[:3])\n"
    assert debug_hints(program, TRACEBACK, [], 7) == ["There is no player 8: the players are 1 to 7."]
    assert debug_hints(program, TRACEBACK, [], 8) == []  # player 8 exists at a table of 8: the hint would lie


def test_a_line_written_over_and_over_is_named_with_its_count():
    program = "s = {}\n" + "s[1] += 1\n" * 3
    (loop, no_print) = debug_hints(program, "the program printed no player numbers", [], 7)
    assert loop.startswith("Your program writes the line `s[1] += 1` 3 times")
    assert no_print == "Your program never prints the team: end it with the print line."
    assert debug_hints("s = {}\n" + "s[1] += 1\n" * 2 + "print([1])\n", "", [], 7) == []


def test_a_program_written_before_is_named():
    program = "print([1, 2])\n"
    assert debug_hints(program, "x", ["print([3])\n", "print([1, 2])"], 7) == [
        "You wrote this same program before, and it failed the same way: change it."]
    assert debug_hints("", "the reply held no program", ["", ""], 7) == []


def test_a_reply_cut_at_its_token_limit_is_named_unless_a_loop_explains_it():
    program = "s = {p: 0 for p in range(1, 8)}\ns[1] += 10\ns[2] -= 10\nprint(sorted(s, key=lambda p: s[p])[:3\n"
    (hint,) = debug_hints(program, "SyntaxError: '(' was never closed", [], 7, cut=True)
    assert hint.startswith("Your program was cut off at the length limit before it ended")
    assert debug_hints(program, "SyntaxError: '(' was never closed", [], 7) == []
    looping = "s = {}\n" + "s[1] += 1\n" * 5
    assert [h[:30] for h in debug_hints(looping, "", [], 7, cut=True)] == [
        "Your program writes the line `", "Your program never prints the "]
