"""The automated accessibility check of the browser tests: axe-core run in the page.

axe-core comes from the repository's ``node_modules`` (``make jscheck`` installs it with
``npm ci`` from the committed package-lock.json; ``make test`` runs that before pytest),
and is injected into the page with Playwright's ``add_script_tag(path=...)``: nothing is
fetched from outside. Without it the check is skipped, except under ``CI=true``, where it
fails.

``assert_accessible(page, context="lobby")`` runs ``axe.run`` over the page (or a part of
it: ``include=["#table"]``) for the WCAG 2.x A and AA rules and best practices, and fails
with a readable list of every violation at or above ``impact`` ("serious" by default):
rule id, impact, help, the elements (CSS targets) and what axe says to fix for each.
``assert_accessible_in_themes(page, "table, bidding")`` does it in each of the page's
themes (light, dark, high contrast: ``<html data-theme=...>``, as the theme menu sets it)
and fails once, listing every theme's violations.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.postgres import in_ci

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
AXE_SCRIPT = ROOT / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core as ``npm ci`` installs it (package.json pins the version)."""

IMPACTS = ("minor", "moderate", "serious", "critical")
"""axe's impacts, least to most severe."""

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
"""The rule sets run: WCAG 2.0-2.2 levels A and AA, and axe's best practices."""


@dataclass(frozen=True)
class Violation:
    """One rule broken on the page: its id, impact, help text and the elements."""

    rule: str
    impact: str
    help: str
    help_url: str
    nodes: list[tuple[str, str]]
    """(the element's CSS target, axe's summary of what to fix) for each element."""

    def describe(self) -> str:
        """A few lines a person can act on."""
        lines = [f"[{self.impact}] {self.rule}: {self.help} ({self.help_url})"]
        for target, summary in self.nodes[:8]:
            fix = " ".join(summary.split())
            lines.append(f"    {target}: {fix[:300]}")
        if len(self.nodes) > 8:
            lines.append(f"    ... and {len(self.nodes) - 8} more element(s)")
        return "\n".join(lines)


def axe_available() -> bool:
    """Whether axe-core is installed (``make jscheck``)."""
    return AXE_SCRIPT.is_file()


def require_axe() -> None:
    """Skip (fail under ``CI=true``) when axe-core is missing."""
    if axe_available():
        return
    message = f"no axe-core at {AXE_SCRIPT} (run `make jscheck`, which runs npm ci)"
    if in_ci():
        pytest.fail(f"CI=true but {message}")
    pytest.skip(message)


def _target(node: dict[str, Any]) -> str:
    parts = node.get("target") or []
    return " ".join(" >> ".join(p) if isinstance(p, list) else str(p) for p in parts) or "?"


def run_axe(page: Page, include: list[str] | None = None) -> list[Violation]:
    """Every violation axe finds on ``page`` (in ``include``'s elements, if given)."""
    require_axe()
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_SCRIPT))
    result: dict[str, Any] = page.evaluate(
        """async ([include, tags]) => {
            // Colours are measured once the page's finite transitions and animations are
            // over (a toast fading in fails contrast mid-fade); endless ones are left be.
            const ending = document.getAnimations().filter((a) => {
                const end = a.effect && a.effect.getComputedTiming().endTime;
                return a.playState === "running" && Number.isFinite(Number(end));
            });
            await Promise.race([
                Promise.all(ending.map((a) => a.finished.catch(() => null))),
                new Promise((done) => setTimeout(done, 3000)),
            ]);
            const context = include ? { include: include.map((s) => [s]) } : document;
            const found = await window.axe.run(context, {
                runOnly: { type: "tag", values: tags },
                resultTypes: ["violations"],
            });
            return { violations: found.violations };
        }""",
        [include, TAGS],
    )
    violations = []
    for raw in result["violations"]:
        nodes = [(_target(node), str(node.get("failureSummary") or "")) for node in raw["nodes"]]
        violations.append(
            Violation(
                rule=str(raw["id"]),
                impact=str(raw.get("impact") or "minor"),
                help=str(raw["help"]),
                help_url=str(raw.get("helpUrl", "")),
                nodes=nodes,
            )
        )
    return violations


def assert_accessible(
    page: Page,
    context: str = "page",
    *,
    include: list[str] | None = None,
    impact: str = "serious",
) -> list[Violation]:
    """Fail, listing each one, if axe finds a violation of ``impact`` or worse on the page.

    ``context`` names what was checked in the message ("lobby, phone, dark"). Answers the
    milder violations found (not failed on), so that a test may report them.
    """
    if impact not in IMPACTS:
        raise ValueError(f"impact must be one of {', '.join(IMPACTS)}, not {impact!r}")
    floor = IMPACTS.index(impact)
    violations = run_axe(page, include)
    severe = [v for v in violations if _rank(v.impact) >= floor]
    if severe:
        listing = "\n".join(v.describe() for v in severe)
        pytest.fail(
            f"axe-core found {len(severe)} {impact}-or-worse accessibility violation(s) "
            f"in {context} ({page.url}):\n{listing}",
            pytrace=False,
        )
    return [v for v in violations if _rank(v.impact) < floor]


THEMES = ("light", "dark", "contrast")
"""The page's themes (table-theme.js: ``<html data-theme="dark">``...)."""


def set_theme(page: Page, theme: str) -> None:
    """Draw the page in ``theme`` as the theme menu does (and remember it, so that a
    page opened next in this browser context starts in it)."""
    page.evaluate(
        """(theme) => {
            document.documentElement.dataset.theme = theme;
            try { localStorage.setItem("tricktaker.theme", theme); } catch {}
        }""",
        theme,
    )
    # Let the styles apply (and any transition end) before axe reads the colours.
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50)))")


def assert_accessible_in_themes(
    page: Page,
    context: str,
    *,
    themes: tuple[str, ...] = THEMES,
    include: list[str] | None = None,
    impact: str = "serious",
) -> None:
    """:func:`assert_accessible` in each theme; one failure lists every theme's
    violations. The page is left in the first theme."""
    floor = IMPACTS.index(impact)
    found: list[str] = []
    for theme in themes:
        set_theme(page, theme)
        severe = [v for v in run_axe(page, include) if _rank(v.impact) >= floor]
        if severe:
            listing = "\n".join(v.describe() for v in severe)
            found.append(f"--- {context}, {theme} theme: {len(severe)} violation(s)\n{listing}")
    if themes:
        set_theme(page, themes[0])
    if found:
        pytest.fail(
            f"axe-core found {impact}-or-worse accessibility violations ({page.url}):\n"
            + "\n".join(found),
            pytrace=False,
        )


def _rank(impact: str) -> int:
    """An impact's place in IMPACTS (one axe does not name counts as minor)."""
    return IMPACTS.index(impact) if impact in IMPACTS else 0
