"""Where the templates, static files, prompts and bundled example are: package data, found with importlib.resources."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

from evidence.errors import InputError

# pyproject.toml maps these top-level folders of the repository into the wheel as `pipeline/<name>`.
_SOURCE_FOLDERS = {"templates": "templates", "example": "site"}


@cache
def data_dir(name: str) -> Path:
    """The folder of package data `name` ("templates" or "example") as installed.

    A wheel carries it inside the `pipeline` package. A source checkout (the editable install `make` does) keeps it
    at the top of the repository, where setuptools' editable finder does not expose folders without Python.
    """
    installed = files("pipeline").joinpath(name)
    if installed.is_dir():
        return Path(str(installed))
    source = Path(str(files("pipeline"))).parent / _SOURCE_FOLDERS[name]
    if source.is_dir():
        return source
    raise InputError(f"the installation is incomplete: its {name} folder is missing; reinstall proofpress", path=source)


def templates_dir() -> Path:
    """templates/: site templates (`site/`), static files (`static/`) and drafting prompts (`prompts/`)."""
    return data_dir("templates")


def example_dir() -> Path:
    """The bundled example content root that `publish init` copies (site/ in the repository)."""
    return data_dir("example")
