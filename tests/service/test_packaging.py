"""A non-editable install (a wheel in site-packages) carries what the launcher reads."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
PACKAGES = SETUPTOOLS["packages"]["find"]["include"]
SOURCES = ("pyproject.toml", "README.md", *sorted({pattern.rstrip("*") for pattern in PACKAGES}))


def installed(tmp_path: Path) -> Path:
    """The packages as pip installs them from the sources (not editable), in a folder of their own."""
    # A copy of the sources, so the build writes nothing into the work tree.
    source, target = tmp_path / "src", tmp_path / "site"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(source)],
        check=True,
        cwd=tmp_path,
    )
    return target


def test_a_non_editable_install_finds_gunicorn_conf_and_redis_conf_as_package_data(tmp_path: Path) -> None:
    target = installed(tmp_path)

    # -S: no site-packages, so nothing is found through the editable install of the work tree.
    found = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            "import service.launcher as l; print(l.GUNICORN_CONF); print(l.REDIS_CONF)",
        ],
        env={"PYTHONPATH": str(target)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()

    gunicorn_conf, redis_conf = (Path(p) for p in found)
    assert gunicorn_conf.is_relative_to(target) and redis_conf.is_relative_to(target)
    assert gunicorn_conf.read_bytes() == (ROOT / "deploy" / "gunicorn.conf.py").read_bytes()
    assert redis_conf.read_bytes() == (ROOT / "deploy" / "redis.conf").read_bytes()

    # The web app and the worker the launcher starts import from the installed copy alone.
    imported = subprocess.run(
        [
            sys.executable,
            "-c",
            "import service.app, service.worker, replays.cli, service; print(service.__file__)",
        ],
        env={"PYTHONPATH": str(target), "PATH": ""},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert Path(imported.strip()).is_relative_to(target)
