"""Reading replies written in labelled parts (merged refresh calls)."""

from __future__ import annotations

from roundtable.agents.common.text import split_sections

LABELS = ("summary", "analysis", "plan")


def test_labelled_parts_are_split_in_any_case_and_with_markdown():
    text = "**Summary:** Quest 1 failed.\n## ANALYSIS: Player 3 lied.\n- plan: Keep 3 off."
    assert split_sections(text, LABELS) == {"summary": "Quest 1 failed.", "analysis": "Player 3 lied.",
                                            "plan": "Keep 3 off."}


def test_unlabelled_text_goes_to_the_first_part_and_missing_parts_are_empty():
    assert split_sections("Quest 1 failed.", LABELS) == {"summary": "Quest 1 failed.", "analysis": "", "plan": ""}
    assert split_sections("Quest 1 failed.\nPlan: Trust 2.", LABELS) == {
        "summary": "Quest 1 failed.", "analysis": "", "plan": "Trust 2."}


def test_a_label_counts_only_at_the_start_of_a_line():
    parts = split_sections("Analysis: my plan: wait.\nPlan: vote no.", ("analysis", "plan"))
    assert parts == {"analysis": "my plan: wait.", "plan": "vote no."}


def test_parts_out_of_order_and_empty_reply():
    assert split_sections("Plan: go.\nSummary: done.", LABELS) == {"summary": "done.", "analysis": "", "plan": "go."}
    assert split_sections("", LABELS) == {"summary": "", "analysis": "", "plan": ""}
