"""The cga agent's checks before it answers (`roundtable.agents.cga.aids`), in both games, with scripted models:
each check fires when it should and not otherwise, what it found is in the decision's checks, and the decision's
thoughts hold the reflection, the answers and the chains of thought."""

from __future__ import annotations

import dataclasses
from typing import Any

from lga_fakes import Script, ScriptedModels, first, lga_input, play_until
from werewolf_fakes import cga_aids_on, werewolf_request

from roundtable.agents.cga.graph import build_cga_graph
from roundtable.agents.cga.options import CgaOptions
from roundtable.aids.sampling import AGAIN_TEMPERATURE, DRY_SAMPLING
from roundtable.aids.switch import embedded_values
from roundtable.games import werewolf
from roundtable.games.protocol import Decision, Request
from roundtable.games.werewolf.bots import naive

# xu7, seed 1: 1 Seer, 2 Witch, 3 Guard, 4 and 5 Villagers, 6 and 7 Werewolves.
CHEAP = embedded_values(CgaOptions) | {"refresh": "round", "merge_answers": True, "questions": 1, "own_questions": 0}
REFLECTION = ("As the Werewolf, I observed that Player 1 is the Seer, Player 3 is the Witch, and Player 5 is the "
              "Guard. I can also guess that Player 2 is the other werewolf.")
ANSWERS = ("A1: I am a werewolf.\nA2: Nobody suspects me yet.\nA3: Player 1 talks a lot.\nA4: I keep quiet.\n"
           f"Reflection: {REFLECTION}")
SAID = "I observed that Player 1 is the Seer, Player 3 is the Witch, and Player 5 is the Guard."
FRESH = "Player 4 has said little so far; I would like to hear from him before we vote."


def werewolf_input(state: werewolf.WerewolfState, request: Request, options: dict[str, Any] | None = None,
                   model: str = "fake") -> dict[str, Any]:
    return {"view": werewolf.view(state, request.player).model_dump(mode="json"),
            "request": request.model_dump(mode="json"), "pool": {},
            "seat": {"kind": "cga", "model": model, "options": cga_aids_on(model) | CHEAP | dict(options or {})},
            "seed": 1}


def ask_then_overrule(state: werewolf.WerewolfState, request: Request, first: str,
                      second: str) -> tuple[Decision, str, Decision]:
    """The decision whose ``first`` reply is asked again (``second`` kept), the re-ask's prompt, and the decision of
    the same ``first`` reply on the embedded model, overruled with no second call."""
    script = Script(replies={"answer": ANSWERS, "think": [first, second]})
    decision, _ = decide(script, werewolf_input(state, request))
    _, again = think_prompts(script)
    local = Script(replies={"answer": ANSWERS, "think": first})
    overruled, _ = decide(local, werewolf_input(state, request, model="local"))
    assert local.modules().count("think") == 1
    return decision, again, overruled


def decide(script: Script, inp: dict[str, Any],
           context: dict[str, Any] | None = None) -> tuple[Decision, dict[str, Any]]:
    out = build_cga_graph(ScriptedModels(script, json=False)).compile().invoke(inp, context=context)
    request = inp["request"]
    return Decision.model_validate(out["decisions"][request["id"]]), out["memory"][str(request["player"])]


def think_prompts(script: Script) -> list[str]:
    return [c.prompt for c in script.calls if c.module == "think"]


def test_a_reflection_said_aloud_is_asked_again_and_the_second_words_are_kept() -> None:
    state, request = werewolf_request("speak", 6)
    script = Script(replies={"answer": ANSWERS, "think": [f"Thought: I should blend in.\nWords: {SAID}",
                                                           f"Thought: Ask about Player 4.\nWords: {FRESH}"]})
    decision, _ = decide(script, werewolf_input(state, request))
    assert script.modules() == ["answer", "think", "think"]
    first, again = think_prompts(script)
    assert "private thoughts read out" in again and "private thoughts read out" not in first
    assert "not your reflection read out" in first  # the words are asked for as what it chooses to say
    assert decision.utterance == FRESH
    assert decision.checks == ("near copy of own thoughts: asked again",)
    assert decision.thoughts == (REFLECTION, "I am a werewolf.", "Nobody suspects me yet.", "Player 1 talks a lot.",
                                 "I keep quiet.", "I should blend in.", "Ask about Player 4.")


def test_fresh_words_are_said_at_once() -> None:
    state, request = werewolf_request("speak", 6)
    script = Script(replies={"answer": ANSWERS, "think": f"Thought: Ask about Player 4.\nWords: {FRESH}"})
    decision, _ = decide(script, werewolf_input(state, request))
    assert script.modules() == ["answer", "think"]
    assert decision.utterance == FRESH and decision.checks == ()


def test_the_day_talk_asks_about_the_other_players_roles_in_the_speakers_own_voice() -> None:
    state, request = werewolf_request("speak", 6)
    script = Script(replies={"answer": ANSWERS, "think": f"Thought: Ask about Player 4.\nWords: {FRESH}"})
    decide(script, werewolf_input(state, request))
    (prompt,) = think_prompts(script)
    assert ("Talk freely about the other players' roles, from what you observed and your reflection, in a few "
            "sentences: whom you suspect, whom you trust, and why.") in prompt  # Xu et al.'s moderator, made concrete
    assert 'in the first person ("I think Player ..."), not the Host\'s lines' in prompt


def test_a_werewolf_giving_itself_away_is_asked_again_and_a_second_slip_is_kept() -> None:
    state, request = werewolf_request("speak", 6)
    slip = "Thought: Hm.\nWords: As a werewolf I say we vote out Player 1."
    script = Script(replies={"answer": ANSWERS, "think": slip})
    decision, _ = decide(script, werewolf_input(state, request))
    assert "Talk like a villager." in think_prompts(script)[1]
    assert decision.checks == ("words expose the speaker (werewolf side): asked again",
                               "words expose the speaker (werewolf side): kept after asking again")


def test_a_guard_saying_its_night_action_by_day_is_asked_again_and_told_the_werewolves_listen() -> None:
    """The embedded model's Guard on xu7, day 1: "I protect Player 2. I protect Player 5. I protect Player 3."."""
    state, request = werewolf_request("speak", 3)  # xu7, seed 1: Player 3 is the Guard
    script = Script(replies={"answer": ANSWERS, "think": [
        "Thought: Hm.\nWords: I protect Player 2. I protect Player 5. I protect Player 3.",
        f"Thought: Ok.\nWords: {FRESH}"]})
    decision, _ = decide(script, werewolf_input(state, request))
    assert "announce what you do at night, and the werewolves are listening" in think_prompts(script)[1]
    assert decision.utterance == FRESH
    assert decision.checks == ("words expose the speaker (night action): asked again",)


def test_a_witch_repeating_her_night_action_after_the_note_has_that_sentence_dropped_where_the_seat_drops() -> None:
    """The embedded model's Witch on xu7, day 1, twice: "I think Player 5 is a likely werewolf and I poison them"."""
    state, request = werewolf_request("speak", 2)  # xu7, seed 1: Player 2 is the Witch
    slip = "Thought: Hm.\nWords: Player 4 has said little so far. I will poison Player 5 tonight."
    script = Script(replies={"answer": ANSWERS, "think": [slip, slip]})
    decision, _ = decide(script, werewolf_input(state, request, {"drop_sentences": True}))
    assert decision.utterance == "Player 4 has said little so far."
    assert decision.checks == ("words expose the speaker (night action): asked again",
                               "words expose the speaker (night action): sentences dropped")
    assert not decision.fallback
    script = Script(replies={"answer": ANSWERS, "think": "Thought: Hm.\nWords: I will poison Player 5 tonight."})
    decision, _ = decide(script, werewolf_input(state, request, {"drop_sentences": True}))
    assert decision.utterance == ""  # nothing left, and the game's plain words would say nothing: silence
    assert decision.fallback == "no usable words: said nothing"
    script = Script(replies={"answer": ANSWERS, "think": [slip, slip]})
    decision, _ = decide(script, werewolf_input(state, request))  # a model other than the embedded one: kept
    assert decision.utterance == "Player 4 has said little so far. I will poison Player 5 tonight."


def test_a_villager_naming_the_seer_twice_says_it_trusts_that_player_instead_where_the_seat_drops() -> None:
    """The embedded model's Guard on xu7, day 1 (pq-cga-xu7-v6-s1): "I think Player 2 is the Seer and I trust
    Player 3 is the Guard.", then "I think Player 2 is the Seer.", left silent before the trust words."""
    state, request = werewolf_request("speak", 3)
    slips = ["Thought: Hm.\nWords: I think Player 2 is the Seer and I trust Player 3 is the Guard.",
             "Thought: Hm.\nWords: I think Player 2 is the Seer."]
    decision, _ = decide(Script(replies={"answer": ANSWERS, "think": slips}),
                         werewolf_input(state, request, {"drop_sentences": True}))
    assert decision.utterance == "I trust Player 2." and not decision.fallback
    assert decision.checks == ("words expose the speaker (names seer): asked again",
                               "words expose the speaker (names seer): sentences dropped")
    edited, _ = decide(Script(replies={"answer": ANSWERS, "think": slips}),
                       werewolf_input(state, request, {"drop_sentences": True}),
                       context={"trust_words_prompt": "Count on Player {{ players | join(' and ') }}."})
    assert edited.utterance == "Count on Player 2.", "the trust words are a prompt of the context, editable"


def test_the_words_checks_can_be_switched_off() -> None:
    state, request = werewolf_request("speak", 6)
    script = Script(replies={"answer": ANSWERS, "think": f"Thought: I should blend in.\nWords: {SAID}"})
    decision, _ = decide(script, werewolf_input(state, request, {"word_checks": "none"}))
    assert script.modules().count("think") == 1 and decision.utterance == SAID and decision.checks == ()


def test_a_werewolf_voting_out_its_teammate_is_asked_again_and_told_why() -> None:
    state, request = werewolf_request("eliminate", 6)
    script = Script(replies={"answer": ANSWERS, "think": ["Thought: 7 is loud.\nChoice: 7",
                                                           "Thought: 4 then.\nChoice: 4"]})
    decision, _ = decide(script, werewolf_input(state, request))
    first, again = think_prompts(script)
    assert "Player 7 is your fellow werewolf. Never name your teammate or yourself." in first
    assert "Host: you chose player 7, but Player 7 is of your side, the werewolves." in again
    assert decision.players == (4,)
    assert decision.checks == ("eliminate player 7 against knowledge (teammate): asked again",)


def test_the_seer_is_told_its_own_checks_and_voting_out_a_player_it_cleared_is_asked_again() -> None:
    state, request = werewolf_request("eliminate", 1)  # the naive Seer checked Player 5 on night 1: not a werewolf
    script = Script(replies={"answer": ANSWERS, "think": "Thought: 5 is odd.\nChoice: 5"})
    decision, pool = decide(script, werewolf_input(state, request))
    assert pool["checked"] == {"5": False}
    assert "You know from your own checks: Player 5 is not a werewolf." in think_prompts(script)[0]
    assert decision.checks == ("eliminate player 5 against knowledge (checked_good): asked again",
                               "eliminate player 5 against knowledge (checked_good): kept after asking again")


def test_a_vote_its_knowledge_does_not_settle_is_cast_at_once_and_the_check_can_be_switched_off() -> None:
    state, request = werewolf_request("eliminate", 4)  # a Villager
    script = Script(replies={"answer": ANSWERS, "think": "Thought: 6 lies.\nChoice: 6"})
    decision, _ = decide(script, werewolf_input(state, request))
    assert script.modules().count("think") == 1 and decision.checks == ()
    state, request = werewolf_request("eliminate", 6)
    script = Script(replies={"answer": ANSWERS, "think": "Thought: 7 is loud.\nChoice: 7"})
    decision, _ = decide(script, werewolf_input(state, request, {"vote_check": "off", "knowledge_note": False}))
    assert script.modules().count("think") == 1 and decision.players == (7,)
    assert "fellow werewolf" not in think_prompts(script)[0].split("Host: Player 6")[1]


def said_today(state: werewolf.WerewolfState, player: int, text: str) -> werewolf.WerewolfState:
    """``state`` with ``player``'s day-1 statement replaced by ``text``."""
    events = tuple(e | {"text": text} if e.get("type") == "utterance" and e.get("speaker") == player
                   and e.get("phase") == "day_talk" else e for e in state.events)
    return dataclasses.replace(state, events=events)


def stated_vote_kept(state: werewolf.WerewolfState, request: Request, first: str, target: int) -> str:
    """Assert that a day vote of ``first`` ("7", "0": a pass) against the voter's statement naming ``target`` is
    asked again (the second answer naming ``target`` kept) and, on the embedded model, overruled to ``target``;
    the re-ask's prompt."""
    decision, again, overruled = ask_then_overrule(state, request, f"Thought: Hm.\nChoice: {first}",
                                                   f"Thought: As I said.\nChoice: {target}")
    reason = f"eliminate {'nobody' if first == '0' else 'player ' + first} against words (own_statement)"
    assert decision.players == (target,) and decision.checks == (f"{reason}: asked again",)
    assert overruled.players == (target,) and overruled.checks == (f"{reason}: overruled",)
    return again


def test_a_day_vote_against_the_voters_own_statement_is_asked_again_and_overruled_on_the_embedded_model() -> None:
    state, request = werewolf_request("eliminate", 4)  # a Villager, whose knowledge settles nothing
    state = said_today(state, 4, "Player 6 dodged every question, so I vote for Player 6.")
    again = stated_vote_kept(state, request, "7", 6)
    assert "Host: you chose player 7, but you told everyone today that you would vote out Player 6." in again
    script = Script(replies={"answer": ANSWERS, "think": "Thought: As I said.\nChoice: 6"})
    assert decide(script, werewolf_input(state, request))[0].checks == ()  # as it said: nothing to check


def test_a_seers_statement_settles_its_vote_where_its_checks_only_rule_players_out() -> None:
    """pq-cga-xu7-v6-s1, day 1: the Seer, who had checked one player good, said "I will vote to eliminate Player
    3" and passed; his checks settled only whom not to vote out, so his words went unchecked."""
    state, request = werewolf_request("eliminate", 1)  # the naive Seer checked Player 5 on night 1: not a werewolf
    state = said_today(state, 1, "I reveal my role as the Seer. I will vote to eliminate Player 3.")
    assert "you told everyone today that you would vote out Player 3" in stated_vote_kept(state, request, "0", 3)
    script = Script(replies={"answer": ANSWERS, "think": "Thought: 5 is odd.\nChoice: 5"})
    assert decide(script, werewolf_input(state, request, model="local"))[0].checks == (
        "eliminate player 5 against knowledge (checked_good): overruled",), "its checks still come first"
    cleared = said_today(state, 1, "I will vote to eliminate Player 5.")  # a player it found good: no rule
    script = Script(replies={"answer": ANSWERS, "think": "Thought: 4 then.\nChoice: 4"})
    assert decide(script, werewolf_input(cleared, request))[0].checks == ()


def test_what_the_players_knowledge_settles_comes_before_its_own_statement() -> None:
    state, request = werewolf_request("eliminate", 6)  # a werewolf, who said it would vote out its teammate
    state = said_today(state, 6, "I vote for Player 7.")
    script = Script(replies={"answer": ANSWERS, "think": "Thought: 4 it is.\nChoice: 4"})
    decision, _ = decide(script, werewolf_input(state, request))
    assert script.modules().count("think") == 1 and decision.players == (4,) and decision.checks == ()


def test_a_leaders_words_naming_another_team_are_asked_again_with_the_team_kept_and_stated() -> None:
    state, requests = play_until(first("propose_team"))
    leader = requests[0]
    inp = lga_input(state, leader, options=CHEAP)
    inp["seat"] = {"kind": "cga", "model": "fake", "options": cga_aids_on("fake") | CHEAP}
    script = Script(replies={"think": ["Thought: 1 and 2 look clean.\nChoice: 1, 2\nWords: My team: players 3 and 4.",
                                       "Thought: Say it.\nWords: My team: players 1 and 2."]})
    decision, _ = decide(script, inp)
    _, again = think_prompts(script)
    assert "You have decided to propose players 1, 2." in again and "Choice:" not in again.split("Reply in")[1]
    assert "your words name players 3, 4 but you chose players 1, 2" in again
    assert decision.players == (1, 2) and decision.utterance == "My team: players 1 and 2."
    assert decision.checks == ("words name players 3, 4, team is 1, 2: asked again",)


def test_a_werewolfs_night_words_naming_another_victim_than_its_pass_are_asked_again_with_the_vote_kept() -> None:
    state, request = werewolf_request("kill", 6)
    script = Script(replies={"answer": ANSWERS, "think": [
        "Thought: The Seer is dangerous.\nChoice: pass\nWords: I will choose Player 1 as the next victim.",
        "Thought: Tell my teammate.\nWords: I pass tonight; let us watch Player 1."]})
    # the words check alone (with vote_check on, the pass itself is asked again: kill_village, below)
    decision, _ = decide(script, werewolf_input(state, request, {"vote_check": "off"}))
    _, again = think_prompts(script)
    assert "your words name Player 1 to kill but your vote names nobody" in again
    assert not decision.players and decision.utterance == "I pass tonight; let us watch Player 1."
    assert decision.checks == ("words name player 1 to kill, the vote names nobody: asked again",)


def test_words_are_sampled_with_dry_on_the_embedded_model_and_warmer_after_a_copy() -> None:
    state, request = werewolf_request("speak", 6)
    script = Script(replies={"answer": ANSWERS, "think": [f"Thought: I should blend in.\nWords: {SAID}",
                                                           f"Thought: Ask.\nWords: {FRESH}"]})
    decide(script, werewolf_input(state, request, model="local"))
    first, again = (c for c in script.calls if c.module == "think")
    assert first.sampling == dict(DRY_SAMPLING) and first.temperature == 0.0
    assert again.sampling == dict(DRY_SAMPLING) and again.temperature == AGAIN_TEMPERATURE
    assert all(not c.sampling for c in script.calls if c.module != "think")
    state, request = werewolf_request("eliminate", 4)
    votes = Script(replies={"answer": ANSWERS, "think": "Thought: 6 lies.\nChoice: 6"})
    decide(votes, werewolf_input(state, request, model="local"))
    assert all(not c.sampling for c in votes.calls)  # no words, no DRY


def test_words_reading_out_a_reflection_of_an_earlier_day_are_caught_too() -> None:
    state, request = werewolf_request("speak", 6)
    old = "As the Werewolf, I observed that Player 4 keeps quiet and Player 1 asks too many questions."
    pool = {"experience": [{"reflection": old, "response": "Speak: ...", "round": 0}]}
    inp = werewolf_input(state, request) | {"pool": pool}
    script = Script(replies={"answer": ANSWERS,
                             "think": ["Thought: Same as before.\nWords: I observed that Player 4 keeps quiet and "
                                       "Player 1 asks too many questions.", f"Thought: Ask.\nWords: {FRESH}"]})
    decision, _ = decide(script, inp)
    assert decision.checks == ("near copy of own thoughts: asked again",) and decision.utterance == FRESH


def test_a_werewolfs_pass_is_asked_again_and_on_the_embedded_model_overruled_with_the_rule_bots_pick() -> None:
    state, request = werewolf_request("kill", 6)
    decision, again, overruled = ask_then_overrule(state, request, "Thought: Wait.\nChoice: pass\nWords: I pass.",
                                                   "Thought: Fine.\nChoice: 3\nWords: Let us kill Player 3.")
    assert "a pass kills no one, and the werewolves win only by killing" in again
    assert decision.players == (3,)
    assert decision.checks == ("kill nobody against knowledge (kill_village): asked again",)
    bot = naive.kill_target(werewolf.view(state, 6), request)
    assert bot is not None and overruled.players == (bot,)
    assert overruled.checks == ("kill nobody against knowledge (kill_village): overruled",)


def test_a_werewolfs_pass_whose_words_name_a_victim_is_overruled_with_that_victim_on_the_embedded_model() -> None:
    state, request = werewolf_request("kill", 6)  # xu7 seed 1: 6 and 7 are the werewolves
    bot = naive.kill_target(werewolf.view(state, 6), request)
    named = next(p for p in (1, 2, 3, 4, 5) if p != bot)
    said = f"Thought: Wait.\nChoice: pass\nWords: Let us kill Player {named}."
    local = Script(replies={"answer": ANSWERS, "think": said})
    overruled, _ = decide(local, werewolf_input(state, request, model="local"))
    assert overruled.players == (named,), "the victim its own words named, not the rule bot's pick"
    assert overruled.checks == ("kill nobody against knowledge (kill_village): overruled",), "words and vote agree"
    mate = Script(replies={"answer": ANSWERS, "think": "Thought: Wait.\nChoice: pass\nWords: Let us kill Player 7."})
    assert decide(mate, werewolf_input(state, request, model="local"))[0].players == (bot,), "a werewolf: the bot's"


def test_a_seers_statement_voting_out_a_player_it_found_good_is_asked_again_and_told_why() -> None:
    """pq-cga-xu7-v7-s1, day 1: the Seer, who had checked the Witch good, said "I will vote to remove Player 2 in
    the next round." and passed, its vote kept off a player it found good: words and action disagreed."""
    state, request = werewolf_request("speak", 1)  # the naive Seer checked Player 5 on night 1: not a werewolf
    script = Script(replies={"answer": ANSWERS, "think": [
        "Thought: 5 is odd.\nWords: Player 5 dodged me, I will vote to remove Player 5 in the next round.",
        "Thought: Someone else.\nWords: Player 3 has said little; I would like to hear him."]})
    decision, pool = decide(script, werewolf_input(state, request))
    assert pool["checked"] == {"5": False}
    assert "your check found Player 5 good, and you will not vote for a good player" in think_prompts(script)[1]
    assert decision.checks == ("words vote out player 5 (checked_good): asked again",)
    assert decision.utterance == "Player 3 has said little; I would like to hear him."
    script = Script(replies={"answer": ANSWERS, "think": "Thought: 3.\nWords: I will vote to remove Player 3."})
    assert decide(script, werewolf_input(state, request))[0].checks == (), "a player it did not check"
