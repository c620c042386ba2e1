"""The Jinja2 environment of the site templates (StrictUndefined, autoescape) and template errors as BuildErrors."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.errors import BuildError
from pipeline.resources import templates_dir

if TYPE_CHECKING:
    import jinja2

TEMPLATES = templates_dir()
SITE_TEMPLATES = TEMPLATES / "site"
STATIC = TEMPLATES / "static"

_ENV: dict[tuple[str, str | None], jinja2.Environment] = {}
BYTECODE: list[Path] = []  # where compiled templates are cached (set per build: the content root's state folder)


def _env() -> jinja2.Environment:
    import jinja2

    # SITE_TEMPLATES is read at call time, so a test can point the build at other templates.
    cache_dir = str(BYTECODE[-1]) if BYTECODE else None
    key = (str(SITE_TEMPLATES), cache_dir)
    if key not in _ENV:
        bcc = None
        if cache_dir is not None:
            os.makedirs(cache_dir, exist_ok=True)
            bcc = _bytecode_cache(cache_dir)
        _ENV[key] = jinja2.Environment(
            loader=jinja2.FileSystemLoader(key[0]),
            undefined=jinja2.StrictUndefined,
            autoescape=True,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            bytecode_cache=bcc,
        )
    return _ENV[key]


def _bytecode_cache(directory: str) -> Any:
    """Compiled templates cached on disk (the class is made on first use, so jinja2 loads lazily)."""
    import jinja2

    class BytecodeCache(jinja2.FileSystemBytecodeCache):
        """Compiled templates on disk (Jinja checks each against its source); an unreadable entry is compiled anew."""

        def load_bytecode(self, bucket: Any) -> None:
            try:
                super().load_bytecode(bucket)
            except Exception:  # a damaged cache file is no reason to fail a build
                bucket.reset()

    return BytecodeCache(directory)


def _template_error(e: Exception) -> BuildError:
    """A Jinja error as a BuildError naming the template file and line."""
    import jinja2

    if isinstance(e, jinja2.TemplateSyntaxError):
        return BuildError(f"template error: {e.message}", path=e.filename or e.name, line=e.lineno)
    tb = e.__traceback__
    where: tuple[str | None, int | None] = (None, None)
    while tb is not None:
        fn = tb.tb_frame.f_code.co_filename
        if fn.startswith(str(TEMPLATES)) or fn.endswith((".html", ".xml", ".txt")):
            where = (fn, tb.tb_lineno)
        tb = tb.tb_next
    return BuildError(f"template error: {e}", path=where[0], line=where[1])


def render_template(name: str, **ctx: Any) -> str:
    """Render one site template with its context; a template error is a BuildError naming file and line."""
    import jinja2

    try:
        return _env().get_template(name).render(**ctx)
    except jinja2.TemplateError as e:
        raise _template_error(e) from e
