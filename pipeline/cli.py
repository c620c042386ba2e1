"""The `publish` command line: the only place that turns domain errors into messages and exit codes."""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path
from typing import Any

import click

from evidence.errors import PublishError

EXIT_OK, EXIT_QC, EXIT_INPUT, EXIT_REVIEW, EXIT_INTERNAL = 0, 1, 2, 3, 70


class DefaultGroup(click.Group):
    """A group whose first argument may be a path: `publish ARTICLE.yaml` runs the whole pipeline."""

    default_command = "run"

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        rest = [a for a in args if not a.startswith("-")]
        if rest and rest[0] not in self.commands and (os.sep in rest[0] or rest[0].endswith((".yaml", ".yml", ".md"))):
            i = args.index(rest[0])
            args = [*args[:i], self.default_command, *args[i:]]
        return super().parse_args(ctx, args)


def _path(exists: bool = False, dir_okay: bool = True, file_okay: bool = True) -> click.Path:
    return click.Path(exists=exists, dir_okay=dir_okay, file_okay=file_okay, path_type=Path)


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
@click.version_option(package_name="proofpress")
def cli(debug: bool) -> None:
    """Publish technical articles whose every number is checked against the report it cites.

    \b
    Example:
      publish site/articles/kv-cache-ttft.yaml     # ingest → draft → check → review gate → build
    """


@cli.command("run", hidden=True)
@click.argument("article", type=_path())
@click.option("--redraft", is_flag=True, help="Write a new draft even if one exists (the old one is kept as a backup).")
@click.option("--out", type=_path(), help="Build the site into this folder instead of the content root's public/.")
def run_cmd(article: Path, redraft: bool, out: Path | None) -> None:
    """Run the whole pipeline for one article brief.

    \b
    Example:
      publish site/articles/kv-cache-ttft.yaml
    """
    from pipeline.publish import publish

    result = publish(article, redraft=redraft, out=out, echo=_echo)
    click.echo(str(result.page))


@cli.command("init")
@click.argument("directory", type=_path())
def init_cmd(directory: Path) -> None:
    """Scaffold a new content root with a working example.

    \b
    Example:
      publish init my-site && publish my-site/articles/kv-cache-ttft.yaml
    """
    from pipeline.scaffold import init_root

    created = init_root(directory)
    click.echo(f"created {created}")
    click.echo("next:")
    click.echo(
        f"  publish {created / 'articles' / 'kv-cache-ttft.yaml'}   # check, gate on the approval, build the site"
    )
    click.echo(f"  publish serve --root {created}   # then open http://127.0.0.1:8000/")
    click.echo(f"  cd {created} && git init && git add . && git commit -m 'content root'   # approvals live in git")


@cli.command("draft")
@click.argument("article", type=_path())
@click.option("--redraft", is_flag=True, help="Replace an existing or hand-edited draft (kept as a .bak backup).")
@click.option("--drafter", "drafter", help="Override the drafter: 'offline' or a LangChain 'provider:model'.")
def draft_cmd(article: Path, redraft: bool, drafter: str | None) -> None:
    """Write articles/<slug>.md from its brief and the evidence.

    \b
    Example:
      publish draft site/articles/kv-cache-ttft.yaml --redraft
    """
    from pipeline.publish import draft_only

    outcome = draft_only(article, redraft=redraft, drafter=drafter, echo=_echo)
    click.echo(str(outcome))
    if not outcome.ok:
        sys.exit(EXIT_QC)


@cli.command("check")
@click.argument("files", nargs=-1, required=True, type=_path())
@click.option(
    "--evidence", "evidence_dir", type=_path(), help="Folder with reports.yaml and PDFs (no content root needed)."
)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html"]), default="text", show_default=True)
@click.option("--out", type=_path(), help="Write the report here instead of standard output.")
def check_cmd(files: tuple[Path, ...], evidence_dir: Path | None, fmt: str, out: Path | None) -> None:
    """Check every number of drafts (.md) or briefs (.yaml) against the reports they cite.

    \b
    Example:
      publish check site/articles/kv-cache-ttft.md --format json
    """
    from pipeline.checking import check_files

    ok = check_files(list(files), evidence_dir=evidence_dir, fmt=fmt, out=out, echo=_echo)
    if not ok:
        sys.exit(EXIT_QC)


@cli.command("review")
@click.argument("article", type=_path())
@click.option("--yes", is_flag=True, help="Accept the whole diff without asking.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--reviewer", help="Reviewer name (default: git config user.name).")
@click.option("--note", help="A note stored with the approval.")
def review_cmd(article: Path, yes: bool, fmt: str, reviewer: str | None, note: str | None) -> None:
    """Show the QC diff against the last approval and accept, reject or skip it.

    \b
    Example:
      publish review site/articles/kv-cache-ttft.yaml
    """
    from pipeline.reviewing import review

    review(article, yes=yes, fmt=fmt, reviewer=reviewer, note=note, echo=_echo)


@cli.command("approve")
@click.argument("article", type=_path())
@click.option("--reviewer", help="Reviewer name (default: git config user.name).")
@click.option("--note", help="A note stored with the approval.")
@click.option("--waive", "waive", multiple=True, help="A finding id to waive (repeatable; needs --reason).")
@click.option("--reason", "reasons", multiple=True, help="Why the finding is waived (one per --waive).")
def approve_cmd(
    article: Path, reviewer: str | None, note: str | None, waive: tuple[str, ...], reasons: tuple[str, ...]
) -> None:
    """Approve the article's current QC snapshot.

    \b
    Example:
      publish approve site/articles/kv-cache-ttft.yaml --reviewer "Li Wei"
    """
    from pipeline.reviewing import approve

    path = approve(article, reviewer=reviewer, note=note, waive=list(waive), reasons=list(reasons), echo=_echo)
    click.echo(f"approved: {path}")


@cli.group("evidence")
def evidence_group() -> None:
    """Ingest and inspect the reports' figures.

    \b
    Example:
      publish evidence ingest && publish evidence show R2
    """


_evidence_opt = click.option("--evidence", "evidence_dir", type=_path(), help="Folder with reports.yaml and the PDFs.")
_root_opt = click.option(
    "--root", type=_path(), default=Path("."), show_default=True, help="Content root (or a path inside it)."
)


@evidence_group.command("ingest")
@_evidence_opt
@_root_opt
def evidence_ingest(evidence_dir: Path | None, root: Path) -> None:
    """Parse every registered report PDF into figures (unchanged PDFs are skipped).

    \b
    Example:
      publish evidence ingest --root site
    """
    from pipeline.evidence_cmd import ingest_cmd

    if not ingest_cmd(evidence_dir=evidence_dir, root=root, echo=_echo):
        sys.exit(EXIT_INPUT)


@evidence_group.command("list")
@_evidence_opt
@_root_opt
def evidence_list(evidence_dir: Path | None, root: Path) -> None:
    """List the reports and their versions.

    \b
    Example:
      publish evidence list --root site
    """
    from pipeline.evidence_cmd import list_cmd

    list_cmd(evidence_dir=evidence_dir, root=root, echo=_echo)


@evidence_group.command("show")
@click.argument("report_id")
@_evidence_opt
@_root_opt
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def evidence_show(report_id: str, evidence_dir: Path | None, root: Path, fmt: str) -> None:
    """Show one report's figures.

    \b
    Example:
      publish evidence show R2 --root site --format json
    """
    from pipeline.evidence_cmd import show_cmd

    show_cmd(report_id, evidence_dir=evidence_dir, root=root, fmt=fmt, echo=_echo)


@evidence_group.command("search")
@click.argument("query")
@_evidence_opt
@_root_opt
def evidence_search(query: str, evidence_dir: Path | None, root: Path) -> None:
    """Full-text search over figure labels and quotes.

    \b
    Example:
      publish evidence search "TTFT p50" --root site
    """
    from pipeline.evidence_cmd import search_cmd

    search_cmd(query, evidence_dir=evidence_dir, root=root, echo=_echo)


@evidence_group.command("impact")
@click.argument("report_id")
@_root_opt
def evidence_impact(report_id: str, root: Path) -> None:
    """List the articles citing a report and the claims whose figure changed or disappeared.

    \b
    Example:
      publish evidence impact R2 --root site
    """
    from pipeline.reviewing import impact

    impact(report_id, root=root, echo=_echo)


@cli.command("build")
@_root_opt
@click.option("--out", type=_path(), help="Output folder (default: <root>/public).")
@click.option(
    "--preview",
    is_flag=True,
    help="Build every article, unapproved ones under a banner, into the preview folder (public-preview/), not the site.",
)
def build_cmd(root: Path, out: Path | None, preview: bool) -> None:
    """Render the static site (atomically: a failed build keeps the previous site).

    \b
    Example:
      publish build --root site --preview
    """
    from pipeline.publish import build_only

    summary = build_only(root, out=out, preview=preview, echo=_echo)
    click.echo(str(summary))


@cli.command("serve")
@_root_opt
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--preview", is_flag=True, help="Build and serve the preview site (public-preview/) instead.")
def serve_cmd(root: Path, port: int, preview: bool) -> None:
    """Serve the site on 127.0.0.1 and rebuild when content changes.

    \b
    Example:
      publish serve --root site --port 8000
    """
    from pipeline.serve import serve

    serve(root, port=port, preview=preview, echo=_echo)


def _echo(message: str = "", *, err: bool = False, **style: Any) -> None:
    click.secho(message, err=err, **style)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI, map domain errors to one line and an exit code."""
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args
    # Proofpress uses no pydantic plugins; looking for them scans every installed package's entry points, which
    # costs ~20 ms of each command's start-up (a user who wants one can still set the variable).
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        cli.main(args=args, prog_name="publish", standalone_mode=False)
    except PublishError as e:
        if debug:
            traceback.print_exc()
        click.secho(
            f"error: {e}" if e.exit_code == EXIT_INPUT else str(e),
            err=True,
            fg="red" if e.exit_code != EXIT_REVIEW else "yellow",
        )
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(EXIT_INPUT)
    except click.ClickException as e:
        e.show()
        sys.exit(EXIT_INPUT if e.exit_code != 0 else 0)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as e:  # a bug, not bad input: say so in one line, keep the traceback for --debug
        if debug:
            traceback.print_exc()
        click.secho(
            f"internal error: {type(e).__name__}: {e} (rerun with --debug for the traceback)", err=True, fg="red"
        )
        sys.exit(EXIT_INTERNAL)
    sys.exit(EXIT_OK)


if __name__ == "__main__":
    main()
