"""The search index: articles spread over content-addressed shards, each entry spliced from the last build's."""

from __future__ import annotations

import json
import zlib
from typing import TYPE_CHECKING, Any

from pipeline.errors import BuildError

if TYPE_CHECKING:
    from pipeline.website.cache import BuildCache
    from pipeline.website.plan import DraftItem


SEARCH_SHARD = 256  # articles per search shard, at most on average


def search_shards(items: list[DraftItem]) -> list[list[DraftItem]]:
    """The articles split into a power of two of shards by a hash of their slug, so an article stays in its shard
    while others come and go (all move only when the count of shards doubles); order within a shard is kept."""
    k = 1
    while len(items) > k * SEARCH_SHARD:
        k *= 2
    shards: list[list[DraftItem]] = [[] for _ in range(k)]
    for it in items:
        shards[zlib.crc32(it.slug.encode("utf-8")) % k].append(it)
    return shards


class SearchShards:
    """The last build's search shards: where each article's entry lies in them, and their bytes once read.

    Only shards whose file is in the page cache (`present`) and long enough for their offsets count: a page whose
    entry is not found here is rendered again, which makes its entry anew."""

    def __init__(self, cache: BuildCache, keys: list[str] | None, present: set[str]) -> None:
        self.cache = cache
        self.where: dict[str, tuple[str, int, int]] = {}
        self._data: dict[str, bytes | None] = {}
        for key in keys if isinstance(keys, list) else []:
            if f"{key}.html" not in present:
                continue
            try:
                spans = json.loads(cache.offsets_path(key).read_bytes())
                size = cache.page_path(key).stat().st_size
                where = {k: (key, a, b) for k, a, b in spans}
            except (OSError, ValueError, TypeError):
                continue
            if all(isinstance(a, int) and isinstance(b, int) and 0 <= a <= b <= size for _, a, b in where.values()):
                self.where.update(where)

    def has(self, page_key: str) -> bool:
        return page_key in self.where

    def entry(self, page_key: str) -> bytes | None:
        """An article's entry as the last build wrote it, or None."""
        span = self.where.get(page_key)
        if span is None:
            return None
        key, a, b = span
        if key not in self._data:
            try:
                self._data[key] = self.cache.page_path(key).read_bytes()
            except OSError:
                self._data[key] = None
        data = self._data[key]
        return data[a:b] if data is not None and b <= len(data) else None


def splice_search(items: list[DraftItem], old: SearchShards) -> tuple[bytes, list[list[Any]]]:
    """One search shard: every article's entry, as this build rendered it or cut from the last build's shards;
    with each entry's byte offsets, for the next build."""
    parts = [b"["]
    offsets: list[list[Any]] = []
    pos = 1
    for i, it in enumerate(items):
        if i:
            parts.append(b",")
            pos += 1
        entry = it.entry or old.entry(it.page_key)
        if entry is None:  # the build reused this page because its entry was there: gone since, mid-build
            raise BuildError(f"the search cache changed during the build; run it again (article {it.slug})")
        parts.append(entry)
        offsets.append([it.page_key, pos, pos + len(entry)])
        pos += len(entry)
    parts.append(b"]")
    return b"".join(parts), offsets
