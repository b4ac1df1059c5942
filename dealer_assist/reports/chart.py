"""Bankroll-over-rounds chart data shared by the PDF and the GUI (they only draw it)."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.reports.reconcile import TableReport

# distinct on white and on a dark background; the house is drawn in grey
PALETTE = ((31, 119, 180), (214, 39, 40), (44, 160, 44), (255, 127, 14), (148, 103, 189),
           (23, 190, 207), (227, 119, 194), (140, 86, 75), (188, 189, 34), (0, 0, 128),
           (128, 0, 0), (0, 128, 128))
HOUSE_COLOR = (110, 110, 110)


@dataclass(frozen=True)
class Series:
    name: str
    values: tuple[int, ...]  # at the start (x = 0), then after each round
    color: tuple[int, int, int]


@dataclass(frozen=True)
class ChartData:
    title: str
    series: tuple[Series, ...]
    rounds: int
    y_ticks: tuple[int, ...]  # first and last are the axis limits
    x_ticks: tuple[int, ...]

    @property
    def y_min(self) -> int:
        return self.y_ticks[0]

    @property
    def y_max(self) -> int:
        return self.y_ticks[-1]


def nice_ticks(low: int, high: int, count: int = 5) -> tuple[int, ...]:
    """Whole-number ticks covering ``low..high`` with a step of 1, 2 or 5 times a power of 10."""
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    step, power = 1, 1
    while True:
        for factor in (1, 2, 5):
            step = factor * power
            if step >= raw:
                break
        else:
            power *= 10
            continue
        break
    start = (low // step) * step
    ticks = [start]
    while ticks[-1] < high:
        ticks.append(ticks[-1] + step)
    return tuple(ticks)


def chart_data(table: TableReport) -> ChartData:
    series = []
    for i, (name, values) in enumerate(table.bankroll_series()):
        house = table.house_banked and i == len(table.seats)
        color = HOUSE_COLOR if house else PALETTE[i % len(PALETTE)]
        series.append(Series(name, tuple(values), color))
    everything = [v for s in series for v in s.values] or [0]
    rounds = len(table.rounds)
    step = max(1, -(-rounds // 10))
    return ChartData("Bankroll over rounds", tuple(series), rounds,
                     nice_ticks(min(0, *everything), max(everything)),
                     tuple(range(0, rounds + 1, step)))
