"""Heading anchors of Markdown pages, computed as MkDocs computes them, and the links in a page.

MkDocs gives each heading the id that Python-Markdown's ``toc`` extension makes
of the heading's text (``markdown.extensions.toc.slugify``): inline markup
dropped, accents folded to ASCII, every character that is not a letter, digit,
``_``, ``-`` or space dropped, lowercase, runs of spaces and ``-`` turned into
one ``-``. A second heading with the same id gets ``_1``, a third ``_2``. An
explicit ``{#id}`` (attr_list) wins. Headings inside fenced code blocks are not
headings.
"""

from __future__ import annotations

import html
import re
import unicodedata
from pathlib import Path

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_EXPLICIT_ID = re.compile(r"\s*\{[^}]*#([A-Za-z0-9_-]+)[^}]*\}\s*$")
_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_INLINE_CODE = re.compile(r"`+[^`]*`+")


def slugify(text: str) -> str:
    """The id Python-Markdown's ``toc`` extension gives a heading whose plain text is ``text``."""
    value = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


def plain_text(heading: str) -> str:
    """A heading's text as rendered, without its markup: code spans keep their content, links their text."""
    text = _LINK.sub(lambda m: m.group(1), heading)
    text = text.replace("`", "")
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"(\*\*|\*)", "", text)
    return html.unescape(text)


def lines_outside_code(text: str) -> list[tuple[int, str]]:
    """``(line number, line)`` of every line outside fenced code blocks (1-based)."""
    out: list[tuple[int, str]] = []
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        match = _FENCE.match(line)
        if match:
            if fence is None:
                fence = match.group(1)
            elif match.group(1) == fence:
                fence = None
            continue
        if fence is None:
            out.append((number, line))
    return out


def anchors(path: Path) -> set[str]:
    """Every heading id of the Markdown page at ``path``."""
    seen: dict[str, int] = {}
    ids: set[str] = set()
    for _, line in lines_outside_code(path.read_text(encoding="utf-8")):
        match = _HEADING.match(line)
        if not match:
            continue
        title = match.group(2)
        explicit = _EXPLICIT_ID.search(title)
        if explicit:
            ids.add(explicit.group(1))
            continue
        slug = slugify(plain_text(title))
        if slug in seen:
            seen[slug] += 1
            slug = f"{slug}_{seen[slug]}"
        else:
            seen[slug] = 0
        ids.add(slug)
    return ids


def links(path: Path) -> list[tuple[int, str]]:
    """``(line number, target)`` of every Markdown link in the page, outside code blocks and code spans."""
    found: list[tuple[int, str]] = []
    for number, line in lines_outside_code(path.read_text(encoding="utf-8")):
        for match in _LINK.finditer(_INLINE_CODE.sub("", line)):
            found.append((number, match.group(2)))
    return found
