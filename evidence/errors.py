"""The root of the one tree of domain errors (`PublishError`) and the evidence stage's own errors.

Later stages add their errors in their own packages (`qc.errors`, `pipeline.errors`); only the CLI turns any of
them into messages and exit codes.
"""

from __future__ import annotations

from pathlib import Path


class PublishError(Exception):
    """Base of every error Proofpress raises on purpose; `exit_code` is what the CLI returns."""

    exit_code = 2

    def __init__(self, message: str, *, path: str | Path | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.path:
            where = self.path + (f":{self.line}" if self.line else "") + ": "
        return where + self.message


class InputError(PublishError):
    """Bad input: a missing, malformed or inconsistent file the user can fix (exit 2)."""


class ConfigError(InputError):
    """publish.toml is missing a root or holds invalid settings."""


class EvidenceError(InputError):
    """A report PDF or the registry cannot be read."""


class LimitError(InputError):
    """An input is over a configured size limit."""


class LockedError(PublishError):
    """Another publish run holds the content root's lock."""


class InputErrors(InputError):
    """Several input problems found at once (pydantic validation of a whole file, say)."""

    def __init__(self, problems: list[InputError]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems

    def __str__(self) -> str:
        return self.message
