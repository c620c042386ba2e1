"""The wheel is complete: installed alone in a fresh venv outside the repository, it scaffolds and publishes a site."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def _source_packages() -> set[str]:
    """Every Python package of the source tree, as dotted names."""
    found = set()
    for top in ("evidence", "qc", "pipeline"):
        for init in (REPO / top).rglob("__init__.py"):
            if "__pycache__" not in init.parts:
                found.add(".".join(init.parent.relative_to(REPO).parts))
    return found


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # Built from a copy of the sources: setuptools leaves `build/` beside them, and a stale `build/lib` in the
    # repository would put modules deleted since into the wheel.
    src = tmp_path_factory.mktemp("src") / "proofpress"
    skip = shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "tests", "__pycache__", ".*cache", ".bench"
    )
    shutil.copytree(REPO, src, ignore=skip, symlinks=True)
    # No build isolation: the build backend is the pinned setuptools of the dev venv, so no network is needed.
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(out), str(src)],
        check=True,
        capture_output=True,
        cwd=out,
    )
    (built,) = out.glob("proofpress-*.whl")
    return built


def test_wheel_carries_every_package_and_all_package_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = {n.rsplit("/", 1)[0].replace("/", ".") for n in names if n.endswith("/__init__.py")}
    assert _source_packages() <= packages, f"missing from [tool.setuptools] packages: {_source_packages() - packages}"
    for path in (REPO / "templates").rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            assert f"pipeline/templates/{path.relative_to(REPO / 'templates').as_posix()}" in names, path
    for rel in ("publish.toml", "reports/reports.yaml", "reports/R2.pdf", "articles/kv-cache-ttft.yaml"):
        assert f"pipeline/example/{rel}" in names, rel
    assert "evidence/schema.sql" in names
    assert not any(n.startswith(("pipeline/example/public/", "pipeline/example/.publish/")) for n in names)


def test_installed_wheel_inits_and_publishes_a_site_outside_the_repository(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    target = venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    # The wheel alone goes into the fresh venv; its dependencies are borrowed from this venv's site-packages
    # (a path line in a .pth file: this venv's editable finder of the source tree is *not* activated).
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    deps = sysconfig.get_paths()["purelib"]
    (target / "_proofpress_deps.pth").write_text(deps + "\n", encoding="utf-8")
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    where = subprocess.run(
        [str(python), "-c", "import pipeline, evidence, qc; print(pipeline.__file__, evidence.__file__, qc.__file__)"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    ).stdout.split()
    assert all(Path(f).is_relative_to(target) for f in where), where

    def publish(*args: str) -> subprocess.CompletedProcess[str]:
        cmd = [str(python), "-c", "from pipeline.cli import main; main()", *args]
        return subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)

    root = tmp_path / "my-site"
    init = publish("init", str(root))
    assert init.returncode == 0, init.stderr
    assert "next:" in init.stdout and "publish serve" in init.stdout
    assert {".publish/", "public/"} <= set((root / ".gitignore").read_text(encoding="utf-8").split())
    run = publish(str(root / "articles" / "kv-cache-ttft.yaml"))
    assert run.returncode == 0, run.stdout + run.stderr
    page = root / "public" / "articles" / "kv-cache-ttft" / "index.html"
    assert page.is_file()
    assert "10.17" in page.read_text(encoding="utf-8")
    assert (root / "public" / "static" / "style.css").is_file()
