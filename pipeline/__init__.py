"""Proofpress pipeline: CLI, config, briefs, drafting, review gate and site build."""

__version__ = "0.1.0"
