"""Proofpress pipeline: CLI, config, briefs, drafting, review gate and site build."""

from __future__ import annotations

from typing import TYPE_CHECKING

from evidence.lazy import exporter

__version__ = "0.1.0"

# The public API, loaded on first use (PEP 562): `publish check` must not import the site build or LangChain.
_EXPORTS = {
    "publish": "pipeline.publish",
    "draft_only": "pipeline.publish",
    "build_only": "pipeline.publish",
    "PublishResult": "pipeline.publish",
    "main": "pipeline.cli",
    "Config": "pipeline.config",
    "ContentRoot": "pipeline.config",
    "open_root": "pipeline.config",
    "Brief": "pipeline.brief",
    "load_brief": "pipeline.brief",
    "init_root": "pipeline.scaffold",
    "BuildError": "pipeline.errors",
    "DraftError": "pipeline.errors",
}
__all__ = [
    "Brief",
    "BuildError",
    "Config",
    "ContentRoot",
    "DraftError",
    "PublishResult",
    "build_only",
    "draft_only",
    "init_root",
    "load_brief",
    "main",
    "open_root",
    "publish",
]

if TYPE_CHECKING:
    from pipeline.brief import Brief, load_brief
    from pipeline.cli import main
    from pipeline.config import Config, ContentRoot, open_root
    from pipeline.errors import BuildError, DraftError
    from pipeline.publish import PublishResult, build_only, draft_only, publish
    from pipeline.scaffold import init_root


__getattr__ = exporter("pipeline", _EXPORTS)
