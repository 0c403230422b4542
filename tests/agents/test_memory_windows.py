"""The memory windows of the kinds that keep one: the CodeAct global memory (Shi et al.'s last k messages, the oldest
leaving ``memory_step`` at a time) and its layout, each line shown once (docs/agents/codeact.md#memory), and
`cga`'s recent and informative messages (Xu et al.'s last K, the oldest leaving ``freshness_step`` at a time;
docs/agents/cga.md#the-modules): between drops a prompt's memory grows only by appending, so that a server's
prompt cache serves it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from roundtable.agents.cga.memory import freshness, informative
from roundtable.agents.cga.options import CgaOptions
from roundtable.agents.codeact.context import CodeActContext
from roundtable.agents.codeact.memory import earlier_key, remember
from roundtable.agents.codeact.options import CotOptions
from roundtable.agents.common.memory import window
from roundtable.games import avalon
from roundtable.games.avalon.bots import naive as naive_bot
from roundtable.prompts.narrator import narrate
from roundtable.testing.scripted import FAKE_MODEL

PRESET, RULES = avalon.setting("avalonplay")


@given(st.integers(0, 80), st.integers(0, 20), st.integers(1, 20), st.lists(st.integers(0, 5), max_size=30))
def test_the_window_shows_k_to_k_plus_step_minus_one_lines_and_a_window_of_a_window_is_the_same(n, keep, step, adds):
    lines = [f"m{i}" for i in range(n)]
    shown = window(lines, keep, step)
    assert shown == lines[len(lines) - len(shown):], "the newest lines, in order"
    if keep == 0:
        assert shown == []
    elif n <= keep:
        assert shown == lines
    else:
        assert keep <= len(shown) <= keep + step - 1
    stored, everything = shown, list(lines)
    for count in adds:  # the pool stores each window and appends to it: as if the whole history were windowed
        new = [f"m{len(everything) + i}" for i in range(count)]
        everything += new
        stored = window(stored + new, keep, step)
        assert stored == window(everything, keep, step)


def test_a_step_of_one_is_the_papers_sliding_window_of_the_last_k():
    lines = [f"m{i}" for i in range(40)]
    for n in range(40):
        assert window(lines[:n], 15, 1) == lines[:n][-15:]


def test_the_key_lines_among_the_recent_messages_are_not_shown_twice():
    key = ["Host: quest 1 failed", "P2: I am Merlin", "Host: quest 2 succeeded", "P4: 3 is evil"]
    recent = ["P1: hello", "Host: quest 2 succeeded", "P3: I approve", "P4: 3 is evil", "P5: fine"]
    assert earlier_key(key, recent) == ["Host: quest 1 failed", "P2: I am Merlin"]
    assert earlier_key(key, []) == key
    assert earlier_key([], recent) == []
    assert earlier_key(key, key) == []


def memory_text(pool: dict) -> str:
    recent = list(pool.get("recent") or [])
    return CodeActContext().render("codeact/memory", me=1, role_card="", knowledge="",
                                   key=earlier_key(list(pool.get("key") or []), recent), recent=recent)


def pools(step: int, player: int = 3, seed: int = 4) -> list[dict]:
    """The player's pool after each decision round of a whole AvalonPlay game of naive bots (k = 15, 20 key
    lines, the oldest leaving ``step`` at a time)."""
    state = avalon.new_game(avalon.AvalonConfig.build(PRESET, rules=RULES), seed)
    pool: dict = {}
    out = []
    while not state.is_over:
        requests = avalon.pending(state)
        view = avalon.view(state, player)
        rules = view.rules
        new = remember(pool, view, lambda e, rules=rules: narrate("avalon", e, player, rules), 15, 20, step)
        if new is not None:
            pool = new
            out.append(pool)
        state = avalon.apply(state, {r.player: naive_bot.decide(avalon.view(state, r.player), r, seed)
                                     for r in requests})
    return out


def test_between_drops_the_memory_prompt_grows_only_by_appending():
    texts = [memory_text(pool) for pool in pools(step=15)]
    appended = sum(new.startswith(old) for old, new in zip(texts, texts[1:], strict=False))
    sliding = [memory_text(pool) for pool in pools(step=1)]
    appended_sliding = sum(new.startswith(old) for old, new in zip(sliding, sliding[1:], strict=False))
    assert len(texts) > 30
    assert appended >= 0.7 * (len(texts) - 1), (appended, len(texts))
    assert appended > appended_sliding + 10, "the paper's sliding window changes the memory's start"


def test_the_embedded_model_drops_fifteen_at_a_time_and_another_model_slides_as_the_paper():
    assert CotOptions.parse({}, None).memory_step == 15
    assert CotOptions.parse({}, FAKE_MODEL).memory_step == 1
    assert CotOptions.parse({"memory_step": 5}, FAKE_MODEL).memory_step == 5


def test_cga_informative_messages_are_chosen_among_those_older_than_the_recent_ones():
    scores = [5, 1, 4, 1, 1, 3, 1, 1, 1, 1, 1, 1]
    pool = {"messages": [{"text": f"m{i}", "score": score} for i, score in enumerate(scores)]}
    assert freshness(pool, 4) == ["m8", "m9", "m10", "m11"]
    assert informative(pool, 4, 2) == ["m0", "m2"]
    assert freshness(pool, 4, step=3) == ["m6", "m7", "m8", "m9", "m10", "m11"]  # 12 - 4 = 8, 8 % 3 = 2 more
    assert informative(pool, 4, 2, step=3) == ["m0", "m2"]
    assert informative(pool, 4, 3, step=3) == ["m0", "m2", "m5"]
    assert informative(pool, 4, 3, step=1) == ["m0", "m2", "m5"]
    assert informative(pool, 7, 3, step=3) == ["m0", "m1", "m2"], "m5, among the 9 recent, is not chosen"


def test_between_drops_cga_history_grows_only_by_appending():
    pool: dict = {"messages": []}
    shown = []
    for i in range(60):
        pool["messages"].append({"text": f"m{i}", "score": i % 5})
        shown.append(informative(pool, 15, 5, step=15) + ["|"] + freshness(pool, 15, step=15))
    appended = sum(new[:len(old)] == old for old, new in zip(shown, shown[1:], strict=False))
    assert appended == 59 - 3, "all but the three drops at 30, 45 and 60 messages"


def test_cga_on_the_embedded_model_drops_fifteen_at_a_time_and_another_model_slides_as_the_paper():
    assert CgaOptions.parse({}, None).freshness_step == 15
    assert CgaOptions.parse({}, FAKE_MODEL).freshness_step == 1
