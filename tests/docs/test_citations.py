"""Every document or section that the code, the tests, the benchmarks or the docs cite exists.

- A citation of a page of the docs, ``docs/<page>.md`` or ``docs/<page>.md#<anchor>``, anywhere in the
  package, the tests, the benchmarks, the experiments, the README or the docs, names a page that exists and
  a heading of it (anchors as MkDocs makes them: `docs_anchors.slugify`).
- Relative links between the pages of ``docs/`` resolve, anchors included.
- Nothing cites the documents that are not in the repository: the specification and design notes the
  project was first written from, or the machine's shared folder. What they said is in ``docs/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from docs_anchors import anchors, links

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SCANNED = ("roundtable", "tests", "benchmarks", "experiments", "docs")
"""Folders whose text files may cite the docs (with ``README.md`` at the root)."""
SUFFIXES = {".py", ".md", ".j2", ".toml", ".json", ".html", ".yml", ".yaml", ".txt"}

CITATION = re.compile(r"(?<![A-Za-z0-9_-])docs/((?:[A-Za-z0-9_-]+/)*[A-Za-z0-9_-]+\.md)(?:#([A-Za-z0-9_-]+))?")
"""``docs/games/avalon.md#fallback-rules``: the page (relative to ``docs/``) and the anchor, if any."""

OUTSIDE = {name: re.compile((r"\b" if name[0].isalnum() else "") + re.escape(name)) for name in (
    "SPEC" + ".md", "SPEC" + "'s", "DESIGN" + ".md", "OFFLINE-MODELS" + ".md", "/work/" + "shared",
)}
"""Documents outside the repository (built from pieces so that this file does not cite them itself)."""


def scanned_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for folder in SCANNED:
        base = ROOT / folder
        if base.is_dir():
            files += [p for p in sorted(base.rglob("*")) if p.is_file() and p.suffix in SUFFIXES
                      and "__pycache__" not in p.parts and p.resolve() != Path(__file__).resolve()]
    return [f for f in files if f.is_file()]


_ANCHORS: dict[Path, set[str]] = {}


def page_anchors(page: Path) -> set[str]:
    if page not in _ANCHORS:
        _ANCHORS[page] = anchors(page)
    return _ANCHORS[page]


def where(path: Path, text: str, offset: int) -> str:
    return f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, offset) + 1}"


def test_the_docs_exist():
    assert (DOCS / "index.md").is_file()
    assert (ROOT / "mkdocs.yml").is_file()


def test_every_citation_of_the_docs_names_an_existing_page_and_section():
    problems = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in CITATION.finditer(text):
            page, anchor = DOCS / match.group(1), match.group(2)
            if not page.is_file():
                problems.append(f"{where(path, text, match.start())}: {match.group(0)}: no such page")
            elif anchor and anchor not in page_anchors(page):
                problems.append(f"{where(path, text, match.start())}: {match.group(0)}: no such section "
                                f"(sections: {', '.join(sorted(page_anchors(page)))})")
    assert not problems, "citations of missing docs:\n" + "\n".join(problems)


def test_links_between_the_pages_resolve():
    problems = []
    for page in sorted(DOCS.rglob("*.md")):
        for line, target in links(page):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            name = f"{page.relative_to(ROOT)}:{line}: {target}"
            if not linked.is_file():
                problems.append(f"{name}: no such file")
            elif DOCS.resolve() not in linked.parents:
                problems.append(f"{name}: outside docs/ (MkDocs cannot link it; name the file in code instead)")
            elif anchor and linked.suffix == ".md" and anchor not in page_anchors(linked):
                problems.append(f"{name}: no such section")
    assert not problems, "broken links in docs/:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", OUTSIDE)
def test_nothing_cites_documents_outside_the_repository(name: str):
    pattern = OUTSIDE[name]
    found = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [where(path, text, m.start()) for m in pattern.finditer(text)]
    assert not found, f"{name} is not in the repository; cite the page of docs/ that covers it: " + ", ".join(found)


def test_every_page_is_in_the_navigation():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    missing = [str(p.relative_to(DOCS)) for p in sorted(DOCS.rglob("*.md")) if str(p.relative_to(DOCS)) not in nav]
    assert not missing, f"pages missing from mkdocs.yml's nav: {missing}"
