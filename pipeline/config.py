"""The content root and its `publish.toml`: found by walking up, validated with pydantic."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

from evidence import limits as defaults
from evidence.errors import ConfigError, InputError
from evidence.models import IngestLimits
from evidence.yamlio import YamlDoc, validate

CONFIG_NAME = "publish.toml"
Severity = Literal["error", "warning", "ignore"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# Links the site puts on every page: web, mail and phone links only (never javascript:, data:, vbscript:, file:).
_LINK_SCHEMES = ("http", "https", "mailto", "tel")


class SiteConfig(_Strict):
    """What the public site says about itself."""

    title: str = "Proofpress"
    brand: str = "Proofpress"
    description: str = ""
    base_url: str = "https://example.com/"
    contact_url: str = "mailto:contact@example.com"
    output: str = "public"
    preview_output: str = "public-preview"  # where `--preview` builds: its own site, never the public one
    # The note under every article, per language ({brand} is replaced); the default says it was AI-generated and
    # automatically checked.
    disclosure: dict[Literal["zh", "en"], str] = Field(default_factory=dict)

    @field_validator("base_url")
    @classmethod
    def _base_url(cls, v: str) -> str:
        if urlsplit(v.strip()).scheme.lower() not in ("http", "https"):
            raise ValueError("base_url must be an http:// or https:// URL")
        return v.strip()

    @field_validator("contact_url")
    @classmethod
    def _contact_url(cls, v: str) -> str:
        cleaned = "".join(c for c in v if c.isprintable() and not c.isspace())
        scheme = urlsplit(cleaned).scheme.lower()
        if ":" in cleaned.split("/", 1)[0] and scheme not in _LINK_SCHEMES:
            raise ValueError(f"contact_url may be an http(s):, mailto: or tel: link, not {scheme or cleaned[:12]}:")
        return v.strip()


class DrafterConfig(_Strict):
    """Which drafter writes articles: `offline`, or any LangChain `provider:model`."""

    model: str = "offline"
    base_url: str | None = None
    temperature: float = 0.0
    timeout: float = 120.0
    max_retries: int = 2
    max_repairs: int = 2


class QCConfig(_Strict):
    """Severity per QC status (e.g. `uncited = "warning"`)."""

    severity: dict[str, Severity] = Field(default_factory=dict)


class Limits(_Strict):
    """Bounds on inputs, so hostile files end in a clear error instead of a hang."""

    max_pdf_bytes: int = Field(default=defaults.MAX_PDF_BYTES, gt=0)
    max_pdf_pages: int = Field(default=defaults.MAX_PDF_PAGES, gt=0)
    max_article_bytes: int = Field(default=defaults.MAX_ARTICLE_BYTES, gt=0)
    ingest_seconds_per_file: float = Field(default=defaults.INGEST_SECONDS_PER_FILE, gt=0, allow_inf_nan=False)

    def to_ingest(self) -> IngestLimits:
        return IngestLimits(
            max_pdf_bytes=self.max_pdf_bytes,
            max_pdf_pages=self.max_pdf_pages,
            seconds_per_file=self.ingest_seconds_per_file,
        )


class Config(_Strict):
    """The whole `publish.toml`; every key is optional, unknown keys are errors."""

    site: SiteConfig = Field(default_factory=SiteConfig)
    drafter: DrafterConfig = Field(default_factory=DrafterConfig)
    qc: QCConfig = Field(default_factory=QCConfig)
    limits: Limits = Field(default_factory=Limits)


class ContentRoot:
    """A content root: the folder holding `publish.toml`, with the paths every stage uses."""

    def __init__(self, path: Path, config: Config) -> None:
        self.path = path
        self.config = config

    @property
    def articles(self) -> Path:
        return self.path / "articles"

    @property
    def reports(self) -> Path:
        return self.path / "reports"

    @property
    def approvals(self) -> Path:
        return self.path / "approvals"

    @property
    def state(self) -> Path:
        """Derived, rebuildable data (the evidence store, caches); git-ignored."""
        return self.path / ".publish"

    @property
    def store(self) -> Path:
        return self.state / "evidence.sqlite"

    @property
    def output(self) -> Path:
        return self.path / self.config.site.output

    @property
    def preview_output(self) -> Path:
        """Where `publish build --preview` writes: a site of its own, so the public one never holds a draft."""
        return self.path / self.config.site.preview_output

    def __repr__(self) -> str:
        return f"ContentRoot({self.path})"


def find_root(start: str | Path) -> Path:
    """Walk up from `start` to the nearest folder holding `publish.toml`."""
    p = Path(start).resolve()
    if p.is_file() or not p.exists():
        p = p.parent
    for candidate in (p, *p.parents):
        if (candidate / CONFIG_NAME).is_file():
            return candidate
    raise ConfigError(f"no {CONFIG_NAME} found here or in any parent folder", path=start)


def load_config(root: Path) -> Config:
    """Read and validate `root/publish.toml`, reporting every problem with its line."""
    path = root / CONFIG_NAME
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError as e:
        raise ConfigError("file not found", path=path) from e
    except tomllib.TOMLDecodeError as e:
        line = getattr(e, "lineno", None)
        raise ConfigError(f"invalid TOML: {e}", path=path, line=line) from e
    except UnicodeDecodeError as e:
        raise ConfigError("not UTF-8 text", path=path) from e
    except (ValueError, RecursionError) as e:  # tomllib: a 5,000-digit integer, arrays nested thousands deep
        raise ConfigError(f"invalid TOML: {e}", path=path) from e
    except OSError as e:
        raise ConfigError(f"cannot read: {e.strerror or e}", path=path) from e
    return validate(Config, YamlDoc(data, _toml_lines(text), str(path)), error=ConfigError)


def _toml_lines(text: str) -> dict[tuple[str | int, ...], int]:
    """Approximate key → line map for TOML (tables and `key =` lines), for error messages."""
    lines: dict[tuple[str | int, ...], int] = {}
    table: tuple[str | int, ...] = ()
    for n, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if s.startswith("[") and s.endswith("]"):
            table = tuple(s.strip("[]").strip().split("."))
            lines.setdefault(table, n)
        elif "=" in s and not s.startswith("#"):
            key = s.split("=", 1)[0].strip().strip('"')
            lines.setdefault((*table, key), n)
    return lines


def open_root(start: str | Path) -> ContentRoot:
    """Find and load the content root around `start`."""
    root = find_root(start)
    return ContentRoot(root, load_config(root))


CONTENT = ("publish.toml", "articles", "reports", "approvals", ".publish", ".git")
BUILD_MARKER = ".proofpress-build"  # written into every built site (pipeline/website/plan.py MARKER)


def output_dir(root: ContentRoot, out: str | Path | None = None, *, preview: bool = False) -> Path:
    """Where the site may be built (`out`, else `[site] output`), resolved through symlinks.

    A build replaces the whole folder, so it must not be `/`, the home folder, the content root or a folder above
    it, a folder inside its content (`articles/`, `reports/`…), or any folder that holds content of its own.
    """
    target = Path(out) if out is not None else (root.preview_output if preview else root.output)
    resolved = target.resolve()
    base = root.path.resolve()
    why = None
    if resolved == Path(resolved.anchor) or resolved == Path.home().resolve():
        why = "is the file system root or the home folder"
    elif base.is_relative_to(resolved):
        why = "is the content root or a folder above it"
    elif any(resolved.is_relative_to(base / name) for name in CONTENT[1:]):
        why = "is inside the content root's sources (articles/, reports/, approvals/, .publish/)"
    elif (
        resolved.is_dir()
        and not (resolved / BUILD_MARKER).is_file()
        and any((resolved / name).exists() for name in (*CONTENT, "reports/reports.yaml"))
    ):
        why = "holds content (publish.toml, articles/, reports/reports.yaml or .git)"
    if why:
        raise InputError(
            f"the site output folder {why}; choose an empty folder or one holding a built site", path=target
        )
    return resolved


def inside(root: Path, candidate: Path, what: str) -> Path:
    """Resolve `candidate` and insist it stays inside `root` (no `..`, absolute paths or symlinks out)."""
    resolved = candidate.resolve()
    if not resolved.is_relative_to(root.resolve()):
        raise InputError(f"{what} points outside the content root ({root})", path=candidate)
    return resolved
