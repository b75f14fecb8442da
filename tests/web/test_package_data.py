"""A non-editable install carries every page template and every file the pages load (the audit
page's too)."""

from __future__ import annotations

from pathlib import Path

from tests.service.test_packaging import ROOT, installed

WEB = ROOT / "service" / "web"


def test_a_wheel_install_holds_the_web_templates_and_static_files(tmp_path: Path) -> None:
    target = installed(tmp_path)

    wanted = sorted(
        p.relative_to(ROOT)
        for folder in (WEB / "templates", WEB / "static", ROOT / "replays" / "audit")
        for p in folder.rglob("*")
        if p.is_file()
    )
    assert any(p.suffix == ".html" for p in wanted) and any(p.suffix == ".js" for p in wanted)
    assert [p for p in wanted if not (target / p).is_file()] == []
