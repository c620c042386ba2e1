"""YAML loading that remembers line numbers, and pydantic validation that reports every problem with its line."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from evidence.errors import InputError, InputErrors

M = TypeVar("M", bound=BaseModel)
Loc = tuple[str | int, ...]

try:  # the C loader is several times faster; fall back where libyaml is absent
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader


def _lines(node: yaml.Node | None, loc: Loc, out: dict[Loc, int]) -> None:
    if node is None:
        return
    out.setdefault(loc, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            name = key.value
            out[loc + (name,)] = key.start_mark.line + 1
            _lines(value, loc + (name,), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _lines(item, loc + (i,), out)


class YamlDoc:
    """Parsed YAML data plus a map from each key path to its 1-based line."""

    def __init__(self, data: Any, lines: dict[Loc, int], path: str, line_offset: int = 0) -> None:
        self.data = data
        self.lines = lines
        self.path = path
        self.line_offset = line_offset

    def line_of(self, loc: Loc) -> int | None:
        """The line of the deepest known prefix of `loc` (pydantic locs may go below YAML nodes)."""
        loc = tuple(loc)
        while loc:
            if loc in self.lines:
                return self.lines[loc] + self.line_offset
            loc = loc[:-1]
        return self.lines.get((), 1) + self.line_offset


def parse_yaml(text: str, path: str | Path, line_offset: int = 0) -> YamlDoc:
    """Parse YAML text; a syntax error becomes an InputError naming file and line."""
    try:
        node = yaml.compose(text, Loader=_Loader)
        data = yaml.load(text, Loader=_Loader) if node is not None else None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 + line_offset if mark else None
        raise InputError(f"invalid YAML: {e.problem or e}", path=path, line=line) from e
    except yaml.YAMLError as e:
        raise InputError(f"invalid YAML: {e}", path=path) from e
    lines: dict[Loc, int] = {}
    _lines(node, (), lines)
    return YamlDoc(data, lines, str(path), line_offset)


def read_yaml(path: str | Path) -> YamlDoc:
    """Read and parse a YAML file; a missing or undecodable file is an InputError."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError as e:
        raise InputError("file not found", path=p) from e
    except (UnicodeDecodeError, IsADirectoryError, PermissionError) as e:
        raise InputError(f"cannot read: {e}", path=p) from e
    return parse_yaml(text, p)


def _describe(err: dict[str, Any]) -> str:
    loc = ".".join(str(x) for x in err["loc"])
    kind = err["type"]
    if kind == "missing":
        return f"missing key '{loc}'"
    if kind == "extra_forbidden":
        return f"unknown key '{loc}'"
    msg = err["msg"]
    return f"{loc}: {msg}" if loc else msg


def validate(
    model: type[M], doc: YamlDoc, *, context: dict[str, Any] | None = None, error: type[InputError] = InputError
) -> M:
    """Validate a parsed document against a model, raising every problem at once with its line."""
    data = doc.data
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise error(f"expected a mapping at the top, got {type(data).__name__}", path=doc.path, line=1)
    try:
        return model.model_validate(data, context=context)
    except ValidationError as e:
        problems = [
            error(_describe(err), path=doc.path, line=doc.line_of(tuple(err["loc"]))) for err in e.errors()
        ]
        if len(problems) == 1:
            raise problems[0] from e
        raise InputErrors(problems) from e
