"""Records played before the aids' one switch still load and are measured, and say how they were played: the
archive of the play-quality suite (`benchmarks/results/play_quality/records`, in git) holds games of every kind from
before the switch (no ``aids`` option, on the embedded model: the aids on) and the paired games of issue 59's part 4
(``-aids-off-`` and ``-aids-on-``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roundtable.metrics.play_quality import play_quality
from roundtable.metrics.quality.result import aids_of
from roundtable.store.records import upgrade_record

ARCHIVE = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "play_quality" / "records"
RECORDS = sorted(ARCHIVE.glob("*.json"))


def test_the_archive_holds_games_from_before_the_switch_and_paired_games_after_it():
    names = [p.stem for p in RECORDS]
    assert any("-v8-" in n for n in names), "games from before the one switch"
    assert any("-aids-off-" in n for n in names) and any("-aids-on-" in n for n in names)


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_an_archived_record_loads_is_measured_and_says_whether_the_aids_were_on(path):
    record = upgrade_record(json.loads(path.read_text()))
    quality = play_quality(record)
    assert quality.fallback_decisions.cases > 0, "its decisions are counted"
    expected = "off" if "-aids-off-" in path.stem else "on"  # before the switch, the embedded model had them on
    assert aids_of([record]) == expected
