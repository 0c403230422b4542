"""The play-quality detectors against hand labels: precision and recall per detector, with plain measures beside.

Reads ``benchmarks/labels/utterances.jsonl`` (utterances of real game records, said and pre-filter, each labelled
by reading: ``benchmarks/labels/README.md``), runs every detector of ``roundtable.detectors`` on each utterance
with the arguments the play-quality measures give it (``roundtable/metrics/quality/``), and prints, per detector,
overall and per game: the cases, the labelled positives, the utterances the detector flags, true and false
positives and negatives, and precision and recall with Wilson 95% intervals (`roundtable.metrics.intervals.wilson`).
Beside the copy and named-role-holder detectors it prints a plain, model-independent measure scored the same way:
a word 4-gram share of at least 0.5 with one earlier utterance, and a role word (Merlin or Seer) within four words
of a player's number.

    python benchmarks/detector_agreement.py              # the markdown table
    python benchmarks/detector_agreement.py --json       # the same counts as JSON
    python benchmarks/detector_agreement.py --by source  # rows per source (said, raw) instead of per game
    python benchmarks/detector_agreement.py --by sample  # rows per sampling stratum (random, check, keyword)

What each detector is asked, and of which utterances (its cases):

* ``copy``: ``copied_from(earlier texts + [text], len(earlier))`` is not None (every utterance);
* ``self_exposure``: ``exposes(text, role, known_evil, player=speaker, leader=leader)`` (Avalon) or
  ``werewolf_exposes(text, role, speaker, teammates)`` (Werewolf) is not None (utterances said to the whole table);
* ``named_merlin_or_seer``: ``named_role_holders(text, "merlin", leader)`` (Avalon) or
  ``named_role_holders(text, "seer")`` (Werewolf) names a player (every utterance); the measure keeps only the
  good side's statements about the real holder, the label and this count any statement;
* ``claims_role``: ``claims_role(text, "merlin" | "seer")`` (every utterance);
* ``thought_aloud``: the measure's test, ``repeats_thought(text, thought)`` for one of the speaker's thoughts, or
  ``stated_tactic(text)`` said to the whole table, or ``run_on_fragment(text)``; ``repeats_thought`` alone beside it
  (utterances whose speaker has thoughts recorded);
* ``against_action``: the words against the action they were said before: ``stated_stance(text)`` against the
  team vote, ``named_team(text, len(team))`` against the proposal, ``named_vote_target(text)`` against the day vote,
  ``named_kill_target(text)`` against the kill vote (utterances with such an action).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from roundtable.detectors import exposure as _exposure  # noqa: E402
from roundtable.detectors import words as _words  # noqa: E402
from roundtable.detectors.plain import plain_copy, plain_named, plain_thought  # noqa: E402
from roundtable.games.avalon import Role  # noqa: E402
from roundtable.metrics.intervals import wilson  # noqa: E402

claims_role, exposes = _exposure.claims_role, _exposure.exposes
named_role_holders, werewolf_exposes = _exposure.named_role_holders, _exposure.werewolf_exposes
copied_from, named_team, repeats_thought = _words.copied_from, _words.named_team, _words.repeats_thought
named_vote_target, named_kill_target = _words.named_vote_target, _words.named_kill_target
stated_stance, stated_tactic = _words.stated_stance, _words.stated_tactic
if hasattr(_words, "run_on_fragment"):
    run_on_fragment = _words.run_on_fragment
else:  # its first home
    from roundtable.games.fallbacks import run_on_fragment

LABELS = ROOT / "benchmarks" / "labels" / "utterances.jsonl"
ROLE_WORD = {"avalon": "merlin", "werewolf": "seer"}
"""The role whose holder a game's words should not give away."""

# ------------------------------------------------------------------ plain measures


# ------------------------------------------------------------------ the detectors, as the measures call them


def detected_copy(item: dict[str, Any]) -> bool:
    earlier = [e[2] for e in item["earlier"]]
    return copied_from([*earlier, item["text"]], len(earlier)) is not None


def detected_exposure(item: dict[str, Any]) -> bool:
    if item["game"] == "avalon":
        return exposes(item["text"], Role(item["role"]), item["known_evil"], player=item["speaker"],
                       leader=item.get("leader")) is not None
    return werewolf_exposes(item["text"], item["role"], item["speaker"], item["teammates"]) is not None


def detected_named(item: dict[str, Any]) -> bool:
    if item["game"] == "avalon":
        return bool(named_role_holders(item["text"], "merlin", item.get("leader")))
    return bool(named_role_holders(item["text"], "seer"))


def detected_claim(item: dict[str, Any]) -> bool:
    return claims_role(item["text"], ROLE_WORD[item["game"]])


def detected_thought(item: dict[str, Any]) -> bool:
    """The thoughts-said-aloud measure's test (`roundtable.metrics.quality.talk.count_talk`)."""
    text = item["text"]
    return (any(repeats_thought(text, t) for t in item["thoughts"])
            or (item["public"] and stated_tactic(text) is not None) or run_on_fragment(text) is not None)


def detected_repeat(item: dict[str, Any]) -> bool:
    return any(repeats_thought(item["text"], t) for t in item["thoughts"])


def detected_against(item: dict[str, Any]) -> bool:
    action, text = item["action"], item["text"]
    if action["type"] == "vote_team":
        stance = stated_stance(text)
        return stance is not None and stance != bool(action["approve"])
    if action["type"] == "proposal":
        named = named_team(text, len(action["team"]))
        return named is not None and set(named) != set(action["team"])
    target = named_vote_target(text) if action["type"] == "eliminate" else named_kill_target(text)
    return target is not None and target != action.get("target")


@dataclass(frozen=True)
class Check:
    """One detector (or plain measure) scored against one label over the utterances ``applies`` keeps."""

    name: str
    label: Callable[[dict[str, Any]], bool]
    applies: Callable[[dict[str, Any]], bool]
    detect: Callable[[dict[str, Any]], bool]
    plain: bool = False


def _label(key: str) -> Callable[[dict[str, Any]], bool]:
    return lambda item: bool(item["labels"][key])


def _everyone(item: dict[str, Any]) -> bool:
    return True


CHECKS: tuple[Check, ...] = (
    Check("copy: copied_from", _label("copy"), _everyone, detected_copy),
    Check("copy: plain 4-gram share >= 0.5", _label("copy"), _everyone,
          lambda item: plain_copy(item["text"], (e[2] for e in item["earlier"])), plain=True),
    Check("self_exposure: exposes / werewolf_exposes", _label("self_exposure"), lambda item: item["public"],
          detected_exposure),
    Check("named_merlin_or_seer: named_role_holders", _label("named_merlin_or_seer"), _everyone, detected_named),
    Check("named_merlin_or_seer: plain role word near a number", _label("named_merlin_or_seer"), _everyone,
          lambda item: plain_named(item["text"], ROLE_WORD[item["game"]]), plain=True),
    Check("claims_role: claims_role", _label("claims_role"), _everyone, detected_claim),
    Check("thought_aloud: the measure (repeats_thought, stated_tactic, run_on_fragment)", _label("thought_aloud"),
          lambda item: item["labels"]["thought_aloud"] is not None, detected_thought),
    Check("thought_aloud: repeats_thought alone", _label("thought_aloud"),
          lambda item: item["labels"]["thought_aloud"] is not None, detected_repeat),
    Check("thought_aloud: plain 4-gram share >= 0.5 with a thought", _label("thought_aloud"),
          lambda item: item["labels"]["thought_aloud"] is not None,
          lambda item: plain_thought(item["text"], item["thoughts"]), plain=True),
    Check("against_action: stated_stance / named_team / named_vote_target / named_kill_target",
          _label("against_action"), lambda item: item["labels"]["against_action"] is not None, detected_against),
)
"""Every detector, and the plain measure beside it where there is one, in the table's order."""


# ------------------------------------------------------------------ scoring


@dataclass
class Score:
    """A confusion count of one check over one scope, with precision and recall and their Wilson 95% intervals."""

    check: str
    scope: str
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    plain: bool = False
    precision: float | None = field(default=None)
    precision_ci: tuple[float, float] | None = field(default=None)
    recall: float | None = field(default=None)
    recall_ci: tuple[float, float] | None = field(default=None)

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    @property
    def positives(self) -> int:
        return self.tp + self.fn

    @property
    def flagged(self) -> int:
        return self.tp + self.fp

    def add(self, label: bool, detected: bool) -> None:
        if label and detected:
            self.tp += 1
        elif detected:
            self.fp += 1
        elif label:
            self.fn += 1
        else:
            self.tn += 1

    def finish(self) -> Score:
        """Fill in precision and recall (None with no flagged or no positive utterance)."""
        if self.flagged:
            self.precision, self.precision_ci = self.tp / self.flagged, wilson(self.tp, self.flagged)
        if self.positives:
            self.recall, self.recall_ci = self.tp / self.positives, wilson(self.tp, self.positives)
        return self

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "n": self.n, "positives": self.positives, "flagged": self.flagged}


def score(items: list[dict[str, Any]], checks: Iterable[Check] = CHECKS, by: str | None = "game") -> list[Score]:
    """Every check's score over all ``items`` and, with ``by`` (an item field: ``game``, ``source``, ``kind``),
    over each of its values, in the order of ``checks``."""
    scopes = ["all"] + (sorted({str(item[by]) for item in items}) if by else [])
    out = []
    for check in checks:
        rows = {scope: Score(check.name, scope, plain=check.plain) for scope in scopes}
        for item in items:
            if not check.applies(item):
                continue
            label, detected = check.label(item), check.detect(item)
            rows["all"].add(label, detected)
            if by:
                rows[str(item[by])].add(label, detected)
        out.extend(row.finish() for row in rows.values())
    return out


def load(path: Path = LABELS) -> list[dict[str, Any]]:
    """The labelled utterances, one JSON object a line."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _share(value: float | None, ci: tuple[float, float] | None) -> str:
    return "n/a" if value is None or ci is None else f"{value:.2f} ({ci[0]:.2f}-{ci[1]:.2f})"


def markdown(scores: Iterable[Score]) -> str:
    """The scores as a markdown table; plain measures in italics."""
    lines = ["| detector | scope | n | positives | flagged | TP | FP | FN | TN | precision (95% CI) | "
             "recall (95% CI) |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for s in scores:
        name = f"*{s.check}*" if s.plain else s.check
        lines.append(f"| {name} | {s.scope} | {s.n} | {s.positives} | {s.flagged} | {s.tp} | {s.fp} | {s.fn} | "
                     f"{s.tn} | {_share(s.precision, s.precision_ci)} | {_share(s.recall, s.recall_ci)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", type=Path, default=LABELS, help="the labelled utterances (JSON lines)")
    parser.add_argument("--json", action="store_true", help="print the scores as JSON instead of markdown")
    parser.add_argument("--by", default="game", choices=("game", "source", "kind", "sample", "none"),
                        help="the scopes beside 'all' (default: game)")
    args = parser.parse_args(argv)
    items = load(args.labels)
    scores = score(items, by=None if args.by == "none" else args.by)
    if args.json:
        print(json.dumps({"utterances": len(items), "scores": [s.as_dict() for s in scores]}, indent=1))
    else:
        shown = args.labels.relative_to(ROOT) if args.labels.is_relative_to(ROOT) else args.labels
        print(f"{len(items)} labelled utterances ({shown})\n")
        print(markdown(scores))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
