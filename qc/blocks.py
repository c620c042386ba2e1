"""The draft as blocks: front-matter fields, headings, paragraphs, list items, table cells."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from qc.numbers import markers

# Sentence ends. Each alternative starts with one character of a set, so the regex engine skips ahead to
# candidates instead of trying the abbreviation look-behinds at every position. (`!` and `?` end a sentence
# unconditionally; `.` not after e.g., vs., Fig. … and only before space or the end.)
_NOT_ABBREV = r"(?<!e\.g.)(?<!i\.e.)(?<!vs.)(?<!al.)(?<!No.)(?<!Fig.)(?<!approx.)"
FULL_END = re.compile(r"[。!?.\n](?:(?<=[。!?])[。!?]*|(?<=\.)" + _NOT_ABBREV + r"(?=\s|$)|(?<=\n)\s*\n)")
SENT_END = re.compile(r"[。!?;.\n](?:(?<=[。!?;])[。!?;]*|(?<=\.)" + _NOT_ABBREV + r"(?=\s|$)|(?<=\n)\s*\n)")
CLAUSE = re.compile(r",(?!\d{3}(?!\d))|[,;:\uff0c\uff1b\uff1a、]|\band\b|\bwhile\b|以及|并且")  # (not 12,035's comma)
_MARKER = re.compile(r"^[ \t]*(?:>[ \t]?)*(?:(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$))?")
_HEADING = re.compile(r"^[ \t]*#{1,6}(?:[ \t]+(?:\d+(?:\.\d+)*\.?(?=[ \t]))?|$)|[ \t]+#+[ \t]*$")
_QUOTE_PREFIX = re.compile(r"^[ \t]*(?:>[ \t]?)*")
_MARKERS_ONLY = re.compile(r"【[^】]*】|\[source:[^\]]*\]|[\s。.;;,,]", re.I)


@dataclass(eq=False)
class Item:
    parent: Item | None
    intro: list[str]  # citations of the paragraph that introduces the list
    cites: list[str] = field(default_factory=list)


@dataclass(eq=False)
class Block:
    field: str
    offset: int  # where `text` starts in the field's string
    text: str  # the field's text here, with Markdown markers blanked (same length)
    kind: str  # front, heading, para, item, table
    item: Item | None = None
    intro: list[str] = dataclasses.field(default_factory=list)
    cites: list[str] = dataclasses.field(default_factory=list)
    cells: list[tuple[int, int, str, str]] = dataclasses.field(default_factory=list)  # (start, end, header, row)


def _blank(text: str, pattern: re.Pattern[str], first_only: bool = False) -> str:
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if first_only and i > 0:
            lines[i] = _QUOTE_PREFIX.sub(lambda m: " " * len(m.group()), line)
            continue
        lines[i] = pattern.sub(lambda m: " " * len(m.group()), line)
    return "\n".join(lines)


def markers_only(chunk: str) -> bool:
    """Whether `chunk` holds nothing but citation markers, spaces and punctuation."""
    if "【" not in chunk and "[" not in chunk:  # stops at the first other character, as a rule the first
        return all(c.isspace() or c in "。.;," for c in chunk)
    return not _MARKERS_ONLY.sub("", chunk)


def cite_ids(text: str) -> list[str]:
    out: list[str] = []
    for _, _, ids in markers(text):
        out.extend(i for i in ids if i not in out)
    return out


def _split_cells(line: str) -> list[tuple[int, int]]:
    """(start, end) of each cell of a Markdown table row (escaped pipes stay in the cell)."""
    bars = [i for i, c in enumerate(line) if c == "|" and (i == 0 or line[i - 1] != "\\")]
    s = line.lstrip()
    if not s.startswith("|"):
        bars = [-1, *bars]
    if not line.rstrip().endswith("|") or line.rstrip().endswith("\\|"):
        bars.append(len(line))
    return [(a + 1, b) for a, b in pairwise(bars)]


def line_starts(text: str) -> list[int]:
    out = [0]
    i = text.find("\n")
    while i >= 0:
        out.append(i + 1)
        i = text.find("\n", i + 1)
    return out


def body_blocks(body: str) -> list[Block]:
    from markdown_it import MarkdownIt  # imported on first use: keeps `publish` start-up light

    md = _md_cache.get("md")
    if md is None:  # block structure only: inline parsing (emphasis, links…) tells QC nothing
        md = _md_cache["md"] = MarkdownIt("commonmark").enable("table").disable(["inline", "text_join"])
    starts = line_starts(body)

    def span(m: list[int]) -> tuple[int, int]:
        a = starts[m[0]] if m[0] < len(starts) else len(body)
        b = starts[m[1]] - 1 if m[1] < len(starts) else len(body)
        return a, max(a, b)

    blocks: list[Block] = []
    items: list[Item | None] = [None]
    lists: list[list[str]] = []
    last_para: dict[int, Block | None] = {}
    # A table or list that neither cites nor follows a citing paragraph takes the citations of the paragraph right
    # after it (`上表取自完整矩阵【出处:C1】`, a table under a heading with its source line below): per context.
    unsourced: dict[int, list[list[str]]] = {}
    with_blocks: set[int] = set()  # list items that have a block already (their first line holds the marker)
    # …or of the list right after it when each of its items cites (a table under a heading, then cited bullets on
    # its rows): the reports every item cites. Per open list: its items and the sourceless blocks before it.
    opened: list[tuple[list[Item], list[list[str]]]] = []
    for tok in md.parse(body):
        ctx = id(items[-1])
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            prev = last_para.get(ctx)
            intro = prev.cites if prev else (items[-1].cites if items[-1] else [])
            opened.append(([], list(unsourced.get(ctx, []))))
            if not intro:
                intro = []  # its own list, filled in place by the paragraph after the list
                unsourced.setdefault(ctx, []).append(intro)
            lists.append(intro)
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
            last_para[ctx] = None  # what follows a list is introduced by nothing
            members, before = opened.pop()
            common = [c for c in members[0].cites if all(c in m.cites for m in members)] if members else []
            if common and before:
                for intro in before:
                    intro.extend(common)
                unsourced[ctx] = [i for i in unsourced.get(ctx, []) if all(i is not b for b in before)]
        elif tok.type == "list_item_open":
            parent = items[-1]
            member = Item(parent, lists[-1] if lists else [])
            items.append(member)
            if opened:
                opened[-1][0].append(member)
        elif tok.type == "list_item_close":
            items.pop()
        elif tok.type in ("paragraph_open", "heading_open") and tok.map:
            a, b = span(tok.map)
            raw = body[a:b]
            item = items[-1]
            if tok.type == "heading_open":
                text, kind = _blank(raw, _HEADING), "heading"
                last_para[ctx] = None
                unsourced.pop(ctx, None)
            else:
                first = item is not None and id(item) not in with_blocks
                text = _blank(raw, _MARKER, first_only=True) if first else _blank(raw, _QUOTE_PREFIX)
                kind = "item" if item else "para"
            bl = Block("body", a, text, kind, item=item, cites=cite_ids(raw))
            if item is not None:
                item.cites.extend(c for c in bl.cites if c not in item.cites)
                with_blocks.add(id(item))
            blocks.append(bl)
            if kind != "heading":
                last_para[ctx] = bl
                for intro in unsourced.pop(ctx, []):
                    intro.extend(bl.cites)
        elif tok.type == "table_open" and tok.map:
            a, b = span(tok.map)
            raw = body[a:b]
            prev = last_para.get(ctx)
            intro = list(prev.cites) if prev else []
            bl = Block("body", a, raw, "table", item=items[-1], intro=intro, cites=cite_ids(raw))
            if not bl.intro and not bl.cites:
                unsourced.setdefault(ctx, []).append(bl.intro)
            if items[-1] is not None:
                with_blocks.add(id(items[-1]))
            lines = raw.split("\n")
            header_cells: list[str] = []
            pos = 0
            for ln_no, line in enumerate(lines):
                cells = _split_cells(line)
                if ln_no == 0:
                    header_cells = [line[s:e].strip() for s, e in cells]
                if ln_no != 1:  # the delimiter row holds no numbers
                    for ci, (s, e) in enumerate(cells):
                        hdr = header_cells[ci] if ci < len(header_cells) and ln_no > 0 else ""
                        bl.cells.append((pos + s, pos + e, hdr, line.replace("|", " ").strip()))
                pos += len(line) + 1
            blocks.append(bl)
            last_para[ctx] = None
    return blocks


_md_cache: dict[str, Any] = {}
