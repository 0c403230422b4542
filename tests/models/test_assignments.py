"""Per-seat/side/role assignments (``--agents``, ``--models``): parsing, resolution, errors."""

from __future__ import annotations

import pytest

from roundtable.games.assignments import SEAT_BASE, Assignment, parse_assignments, resolve_assignments
from roundtable.models.spec import ModelSpec, parse_model_assignments, parse_model_spec

# play7: seats 1..7
ROLES = ["merlin", "percival", "servant", "servant", "morgana", "assassin", "minion"]
SIDES = ["good", "good", "good", "good", "evil", "evil", "evil"]
AVALON_ROLES = ["merlin", "percival", "servant", "morgana", "assassin", "minion", "mordred", "oberon"]


def resolve(text: str, default: str = "lga", **kwargs: object) -> list[str]:
    return resolve_assignments(parse_assignments(text, str), ROLES, SIDES, default, **kwargs)


def test_seats_are_one_based_for_users() -> None:
    assert SEAT_BASE == 1
    assert resolve("1=human") == ["human"] + ["lga"] * 6
    assert resolve("7=human")[-1] == "human"


def test_every_seat_side_role_and_order() -> None:
    assert resolve("cga") == ["cga"] * 7
    assert resolve("good=cga,evil=bot") == ["cga"] * 4 + ["bot"] * 3
    assert resolve("servant=bot") == ["lga", "lga", "bot", "bot", "lga", "lga", "lga"]
    # later assignments override earlier ones
    assert resolve("cga, evil=bot, assassin=lga, 1=human") == [
        "human", "cga", "cga", "cga", "bot", "lga", "bot",
    ]  # fmt: skip


def test_names_are_case_and_separator_insensitive() -> None:
    roles = ["Loyal Servant", "Merlin", "Assassin"]
    sides = ["Good", "Good", "Evil"]
    assignments = parse_assignments("loyal-servant=a, EVIL=b, merlin = c", str)
    assert resolve_assignments(assignments, roles, sides, "-") == ["a", "c", "b"]


def test_parsed_form() -> None:
    assert parse_assignments("x, good=y, 3=z", str) == [
        Assignment("x", None, "x"),
        Assignment("y", "good", "good=y"),
        Assignment("z", 3, "3=z"),
    ]


def test_values_may_contain_equals_signs() -> None:
    specs = parse_model_assignments("gpt-4o?json_schema=false, evil=http://h:1/v1#m?timeout=5")
    assert specs[0].target is None and specs[0].value.json_schema is False
    assert specs[1].target == "evil" and specs[1].value.timeout == 5.0


def test_model_assignments_resolve_to_specs() -> None:
    seats = resolve_assignments(
        parse_model_assignments("local,evil=gpt-4o-mini,3=http://127.0.0.1:8000/v1#qwen"),
        ROLES,
        SIDES,
        parse_model_spec("local"),
    )
    assert [s.kind for s in seats] == ["local", "local", "server", "local", "openai", "openai", "openai"]
    assert all(isinstance(s, ModelSpec) for s in seats)


def test_default_when_nothing_applies() -> None:
    assert resolve("oberon=x", known_roles=AVALON_ROLES) == ["lga"] * 7


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("8=human", "seat 8 in assignment '8=human' is out of range: this game has seats 1..7"),
        ("merlln=bot", "unknown side or role 'merlln' in assignment 'merlln=bot'"),
        ("merlln=bot", "roles: assassin, merlin, minion, morgana, percival, servant"),
        ("villagers=bot", "sides: evil, good"),
        ("oberon=bot", "unknown side or role 'oberon'"),  # not in this game and no known_roles
    ],
)
def test_invalid_targets_are_named(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        resolve(text)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty assignment list"),
        ("lga,,cga", "empty assignment at position 2"),
        ("good=", "assignment 'good=' has no value"),
        ("0=human", "seat 0 in assignment '0=human' does not exist: seats are numbered from 1"),
    ],
)
def test_malformed_lists_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_assignments(text, str)
    assert message in str(info.value)


def test_value_errors_quote_the_assignment() -> None:
    with pytest.raises(ValueError, match=r"unsupported URL scheme 'ftp'.*\(in assignment 'evil=ftp://h/v1#m'\)"):
        parse_model_assignments("local,evil=ftp://h/v1#m")


def test_roles_and_sides_must_match() -> None:
    with pytest.raises(ValueError, match="3 roles but 2 sides"):
        resolve_assignments([], ["a", "b", "c"], ["good", "evil"], None)


def test_the_kth_seat_of_a_role_or_side_gets_its_value_alone():
    """``servant#1=react``: AvalonBench's one LLM Servant among naive bots (docs/experiments.md#avalonbench)."""
    roles, sides = ["merlin", "servant", "assassin", "servant", "minion"], ["good", "good", "evil", "good", "evil"]
    assert resolve_assignments(parse_assignments("naive,servant#1=react", str), roles, sides, "x") == [
        "naive", "react", "naive", "naive", "naive"]
    assert resolve_assignments(parse_assignments("naive, Servant # 2=react", str), roles, sides, "x") == [
        "naive", "naive", "naive", "react", "naive"]
    assert resolve_assignments(parse_assignments("a,evil#2=b", str), roles, sides, "x") == ["a", "a", "a", "a", "b"]
    with pytest.raises(ValueError, match=r"this game has 2 servant seats \(#1..#2\)"):
        resolve_assignments(parse_assignments("servant#3=react", str), roles, sides, "x")
    with pytest.raises(ValueError, match="unknown side or role 'percival#1'"):
        resolve_assignments(parse_assignments("percival#1=react", str), roles, sides, "x")
