"""YAML loading that remembers line numbers, and pydantic validation that reports every problem with its line."""

from __future__ import annotations

from collections.abc import Mapping
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


# Aliases may expand a small file into a huge (or cyclic) document ("billion laughs"): bound the expanded size.
MAX_NODES = 200_000


def _lines(root: yaml.Node | None, loc: Loc, out: dict[Loc, int]) -> None:
    """Map every key path to its line; iterative (deep nesting), cycle-free and within MAX_NODES (alias bombs)."""
    if root is None:
        return
    budget = MAX_NODES
    on_path: set[int] = set()  # collections between the root and the current node: an alias back to one is a cycle
    stack: list[tuple[yaml.Node, Loc, bool]] = [(root, loc, False)]
    while stack:
        node, here, leaving = stack.pop()
        if leaving:
            on_path.discard(id(node))
            continue
        budget -= 1
        if budget < 0:
            raise ValueError(f"the document expands to more than {MAX_NODES} values through aliases")
        out.setdefault(here, node.start_mark.line + 1)
        if not isinstance(node, yaml.MappingNode | yaml.SequenceNode):
            continue
        if id(node) in on_path:
            raise ValueError(f"an alias on line {node.start_mark.line + 1} refers to a value that contains it")
        on_path.add(id(node))
        stack.append((node, here, True))
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = key.value if isinstance(key, yaml.ScalarNode) else f"<{key.tag}>"
                out[(*here, name)] = key.start_mark.line + 1
                stack.append((value, (*here, name), False))
        else:
            stack.extend((item, (*here, i), False) for i, item in enumerate(node.value))


class _Constructor(_Loader):
    """The safe loader, but a bad scalar (`2026-13-45`, `!!timestamp x`, a 5,000-digit int) is a YAML error with its mark."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except yaml.YAMLError:
            raise
        except Exception as e:  # PyYAML's own constructors fail this way: ValueError, AttributeError (`!!timestamp x`)…
            raise yaml.constructor.ConstructorError(None, None, f"cannot read value: {e}", node.start_mark) from e


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
    lines: dict[Loc, int] = {}
    loader = _Constructor(text)
    try:
        node = loader.get_single_node()
        _lines(node, (), lines)
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 + line_offset if mark else None
        raise InputError(f"invalid YAML: {e.problem or e}", path=path, line=line) from e
    except yaml.reader.ReaderError as e:  # a control character or bad encoding: name its line, in one line
        line = text.count("\n", 0, e.position) + 1 + line_offset
        char = f"U+{e.character:04X}" if isinstance(e.character, int) else repr(e.character)
        raise InputError(f"invalid YAML: character {char} is not allowed ({e.reason})", path=path, line=line) from e
    except yaml.YAMLError as e:
        raise InputError(f"invalid YAML: {str(e).splitlines()[0]}", path=path) from e
    except (ValueError, RecursionError) as e:
        raise InputError(f"invalid YAML: {e}", path=path) from e
    finally:
        loader.dispose()
    return YamlDoc(data, lines, str(path), line_offset)


def read_yaml(path: str | Path) -> YamlDoc:
    """Read and parse a YAML file; a missing or undecodable file is an InputError."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError as e:
        raise InputError("file not found", path=p) from e
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text: {e.reason} at byte {e.start}", path=p) from e
    except OSError as e:  # a folder, no permission, a name too long…
        raise InputError(f"cannot read: {e.strerror or e}", path=p) from e
    return parse_yaml(text, p)


def _describe(err: Mapping[str, Any]) -> str:
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
        problems = [error(_describe(err), path=doc.path, line=doc.line_of(tuple(err["loc"]))) for err in e.errors()]
        if len(problems) == 1:
            raise problems[0] from e
        raise InputErrors(problems) from e
