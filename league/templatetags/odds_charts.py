"""Server-drawn SVG charts of the exact odds: score laws, margins, win probability.

Every chart is plain SVG built here (no script): numbers go in as floats, labels through
``format_html`` so team names are escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from league.games import league_game
from simulator.games import DEFAULT_GAME
from simulator.vabg.words import period_name

register = template.Library()

HOME_COLOUR = "#0b4f8a"
AWAY_COLOUR = "#c0392b"


def _court_counts(preview: Mapping[str, Any]) -> bool:
    """Whether the preview's game plays a neutral court otherwise than a home one (VABG);
    six dice's and grid court's charts said "(home, neutral court)" of a court they ignore."""
    return league_game(preview.get("game", DEFAULT_GAME)).home_court


@register.filter
def pct(value: float | None, places: int = 1) -> str:
    """Show a probability as a percentage: "62.9%", "<0.1%" for the barely possible."""
    if value is None:
        return ""
    if value <= 0:
        return "0%"
    if value >= 1:
        return "100%"
    low = 10.0**-places
    if value * 100 < low:
        return f"<{low:g}%"
    if value * 100 > 100 - low:
        return f">{100 - low:g}%"
    return f"{100 * value:.{places}f}%"


@register.filter
def signed_pct(value: float) -> str:
    """Show a change of probability in whole points: "+12%", or a minus sign and "7%"."""
    points = round(100 * value)
    return f"+{points}%" if points >= 0 else f"\u2212{-points}%"


@register.filter
def index(values: Sequence[Any], i: int) -> Any:
    """Return ``values[i]`` (a round's column of a team's reach)."""
    return values[i]


def _n(value: float) -> str:
    """Return a coordinate as SVG reads it (one decimal)."""
    return f"{value:.1f}"


CHART_MIN_WIDTH = 540
"""The narrowest a chart is drawn (px): on a phone a chart shrunk to the screen read its
labels at 4-6 px; it scrolls sideways instead, its labels at 10 px or more."""


def _svg(width: int, height: int, label: str, body: SafeString) -> SafeString:
    return format_html(
        '<div class="scroll chart-box" data-hint="Wider than the screen: swipe the chart '
        'sideways for the rest &#8594;"><svg class="chart" viewBox="0 0 {} {}" width="100%" '
        'role="img" aria-label="{}" xmlns="http://www.w3.org/2000/svg" '
        'style="max-width:{}px;min-width:{}px">{}</svg></div>',
        width,
        height,
        label,
        width,
        min(width, CHART_MIN_WIDTH),
        body,
    )


@register.simple_tag
def score_chart(preview: Mapping[str, Any]) -> SafeString:
    """Draw both teams' final-score laws as two lines of dots over the points."""
    home = {row["x"]: row["p"] for row in preview["home_score"]}
    away = {row["x"]: row["p"] for row in preview["away_score"]}
    if not home or not away:
        return mark_safe("")
    lo, hi = min(min(home), min(away)), max(max(home), max(away))
    top = max(max(home.values()), max(away.values()))
    width, height, pad = 640, 200, 30
    sx = (width - 2 * pad) / max(1, hi - lo)
    sy = (height - 2 * pad) / top

    def line(law: Mapping[int, float], colour: str, name: str) -> SafeString:
        points = " ".join(
            f"{pad + (x - lo) * sx:.1f},{height - pad - p * sy:.1f}" for x, p in sorted(law.items())
        )
        return format_html(
            '<polyline fill="none" stroke="{}" stroke-width="2" points="{}"><title>{}</title>'
            "</polyline>",
            colour,
            points,
            name,
        )

    ticks = format_html_join(
        "",
        '<line x1="{0}" x2="{0}" y1="{1}" y2="{2}" stroke="#ccc"/>'
        '<text x="{0}" y="{3}" font-size="13" text-anchor="middle">{4}</text>',
        (
            (f"{pad + (x - lo) * sx:.1f}", height - pad, height - pad + 4, height - pad + 16, x)
            for x in range(lo - lo % 10 + 10, hi + 1, 10)
        ),
    )
    legend = format_html(
        '<text x="{}" y="16" font-size="14" fill="{}">{} (home{})</text>'
        '<text x="{}" y="16" font-size="14" fill="{}" text-anchor="end">{}</text>',
        pad,
        HOME_COLOUR,
        preview["home"]["team"],
        ", neutral court" if preview["neutral"] and _court_counts(preview) else "",
        width - pad,
        AWAY_COLOUR,
        preview["away"]["team"],
    )
    axis = format_html(
        '<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="#888"/>',
        pad,
        width - pad,
        height - pad,
        height - pad,
    )
    body = format_html(
        "{}{}{}{}{}",
        axis,
        ticks,
        line(home, HOME_COLOUR, preview["home"]["team"]),
        line(away, AWAY_COLOUR, preview["away"]["team"]),
        legend,
    )
    return _svg(width, height, "The law of each team's final score", body)


@register.simple_tag
def margin_chart(preview: Mapping[str, Any]) -> SafeString:
    """Draw the law of the final margin as bars: home wins right of 0, away wins left."""
    law = {row["x"]: row["p"] for row in preview["margin"]}
    if not law:
        return mark_safe("")
    reach = max(abs(min(law)), abs(max(law)), 1)
    top = max(law.values())
    width, height, pad = 640, 180, 30
    bar = (width - 2 * pad) / (2 * reach + 1)
    sy = (height - 2 * pad) / top
    bars = format_html_join(
        "",
        '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}: {}</title></rect>',
        (
            (
                _n(pad + (m + reach) * bar),
                _n(height - pad - p * sy),
                _n(max(bar - 0.5, 0.5)),
                _n(p * sy),
                HOME_COLOUR if m > 0 else AWAY_COLOUR,
                f"{preview['home']['team']} by {m}"
                if m > 0
                else f"{preview['away']['team']} by {-m}",
                pct(p, 2),
            )
            for m, p in sorted(law.items())
        ),
    )
    ticks = format_html_join(
        "",
        '<text x="{}" y="{}" font-size="13" text-anchor="middle">{}</text>',
        (
            (_n(pad + (m + reach + 0.5) * bar), height - pad + 16, f"{m:+d}" if m else "0")
            for m in range(-(reach - reach % 10), reach + 1, 10)
        ),
    )
    body = format_html(
        '{}{}<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="#888"/>'
        '<text x="{}" y="16" font-size="14" fill="{}">{} wins</text>'
        '<text x="{}" y="16" font-size="14" fill="{}" text-anchor="end">{} wins</text>',
        bars,
        ticks,
        _n(pad + (reach + 0.5) * bar),
        _n(pad + (reach + 0.5) * bar),
        pad / 2,
        height - pad,
        pad,
        AWAY_COLOUR,
        preview["away"]["team"],
        width - pad,
        HOME_COLOUR,
        preview["home"]["team"],
    )
    return _svg(width, height, "The law of the final margin", body)


@register.simple_tag
def winprob_chart(series: Mapping[str, Any]) -> SafeString:
    """Draw P(home wins) after every trip, the periods marked and the swing plays circled."""
    points = series["points"]
    width, height, pad = 720, 220, 34
    sx = (width - 2 * pad) / max(1, len(points) - 1)

    def y(p: float) -> float:
        return pad + (1.0 - p) * (height - 2 * pad)

    line = " ".join(f"{pad + i * sx:.1f},{y(pt['p_home']):.1f}" for i, pt in enumerate(points))
    periods = format_html_join(
        "",
        '<line x1="{0}" x2="{0}" y1="{1}" y2="{2}" stroke="#bbb" stroke-dasharray="3 3"/>'
        '<text x="{3}" y="{4}" font-size="13" fill="#777">{5}</text>',
        (
            (
                _n(pad + i * sx),
                pad,
                height - pad,
                _n(pad + i * sx + 3),
                pad + 10,
                period_name(pt["period"]),
            )
            for i, pt in enumerate(points)
            if i and pt["period"] != points[i - 1]["period"] and pt["team"]
        ),
    )
    swings = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="5" fill="none" stroke="#d4a800" stroke-width="2">'
        '<title>{}. {} ({})</title></circle><text x="{}" y="{}" font-size="13" '
        'text-anchor="middle" fill="#806600">{}</text>',
        (
            (
                _n(pad + (s["trip"] + 1) * sx),
                _n(y(points[s["trip"] + 1]["p_home"])),
                n,
                s["text"],
                f"{s['delta']:+.0%}",
                _n(pad + (s["trip"] + 1) * sx),
                _n(y(points[s["trip"] + 1]["p_home"]) - 8),
                n,
            )
            for n, s in enumerate(series["swings"], start=1)
        ),
    )
    body = format_html(
        '<rect x="{}" y="{}" width="{}" height="{}" fill="#fff" stroke="#ccc"/>'
        '<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="#999" stroke-dasharray="4 4"/>'
        '<text x="4" y="{}" font-size="13">100%</text>'
        '<text x="4" y="{}" font-size="13">50%</text>'
        '<text x="4" y="{}" font-size="13">0%</text>'
        '<text x="{}" y="{}" font-size="14" fill="{}">{} wins</text>'
        '<text x="{}" y="{}" font-size="14" fill="{}">{} wins</text>'
        "{}"
        '<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>{}',
        pad,
        pad,
        width - 2 * pad,
        height - 2 * pad,
        pad,
        width - pad,
        _n(y(0.5)),
        _n(y(0.5)),
        _n(y(1.0) + 3),
        _n(y(0.5) + 3),
        _n(y(0.0) + 3),
        pad + 4,
        pad - 6,
        HOME_COLOUR,
        series["home"],
        pad + 4,
        height - pad + 16,
        AWAY_COLOUR,
        series["away"],
        periods,
        HOME_COLOUR,
        line,
        swings,
    )
    label = series.get("chart_label", "Win probability after every trip")
    return _svg(width, height, label, body)
