"""A printable PDF session report (fpdf2): per table the integrity check, seats, bankroll chart,
results per round, checks, the transfer plan with its explanation, and signature lines."""

from __future__ import annotations

import io
from datetime import datetime
from pathlib import Path

import segno
from fpdf import FPDF

from dealer_assist.reports.chart import ChartData, chart_data
from dealer_assist.reports.reconcile import Reconciliation, TableReport
from dealer_assist.reports.text import round_rows, seat_rows, signed
from dealer_assist.reports.transfers import TransferPlan
from dealer_assist.session.log import Head

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
MAX_ROUND_ROWS = 300  # a longer session prints its first rounds (the exports have them all)
RED, GREEN, GREY = (180, 0, 0), (0, 120, 0), (90, 90, 90)


class _Report(FPDF):
    def __init__(self) -> None:
        super().__init__(format="A4")
        self.set_auto_page_break(True, margin=15)
        self.font = "Helvetica"
        for folder in FONT_DIRS:  # a Unicode font when the system has one (names, dashes)
            regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
            if regular.exists() and bold.exists():
                self.add_font("DejaVu", "", str(regular))
                self.add_font("DejaVu", "B", str(bold))
                self.font = "DejaVu"
                break

    def text_safe(self, text: str) -> str:
        if self.font != "Helvetica":
            return text
        for a, b in (("—", "-"), ("–", "-"), ("−", "-"), ("’", "'")):
            text = text.replace(a, b)
        return text.encode("latin-1", "replace").decode("latin-1")

    def style(self, size: float = 10, bold: bool = False, color: tuple[int, int, int] = (0, 0, 0)
              ) -> None:
        self.set_font(self.font, "B" if bold else "", size)
        self.set_text_color(*color)

    def para(self, text: str, size: float = 10, bold: bool = False,
             color: tuple[int, int, int] = (0, 0, 0), height: float = 5) -> None:
        self.style(size, bold, color)
        self.multi_cell(0, height, self.text_safe(text), new_x="LMARGIN", new_y="NEXT")

    def footer(self) -> None:
        self.set_y(-12)
        self.style(8, color=GREY)
        self.cell(0, 5, f"page {self.page_no()}", align="C")


def _grid(pdf: _Report, header: list[str], rows: list[list[object]], size: float = 9) -> None:
    pdf.style(size)
    widths = [2.2] + [1.0] * (len(header) - 1)
    with pdf.table(col_widths=widths, text_align=["LEFT"] + ["RIGHT"] * (len(header) - 1),
                   line_height=size * 0.55, first_row_as_headings=True) as table:
        for row in [header, *rows]:
            cells = table.row()
            for value in row:
                cells.cell(pdf.text_safe(str(value)))
    pdf.ln(2)


def draw_chart(pdf: _Report, chart: ChartData, x: float, y: float, w: float, h: float) -> None:
    """Axes with ticks, one polyline per series, and a legend to the right."""
    legend_w = 32
    plot_x, plot_w = x + 12, w - 12 - legend_w
    plot_y, plot_h = y + 7, h - 14
    pdf.style(10, bold=True)
    pdf.text(x, y + 4, chart.title)
    pdf.style(7, color=GREY)
    span = (chart.y_max - chart.y_min) or 1

    def px(i: int) -> float:
        return plot_x + plot_w * (i / max(1, chart.rounds))

    def py(v: float) -> float:
        return plot_y + plot_h * (1 - (v - chart.y_min) / span)

    pdf.set_line_width(0.1)
    pdf.set_draw_color(200, 200, 200)
    for tick in chart.y_ticks:
        pdf.line(plot_x, py(tick), plot_x + plot_w, py(tick))
        label = str(tick)
        pdf.text(plot_x - 1.5 - pdf.get_string_width(label), py(tick) + 1, label)
    for tick in chart.x_ticks:
        label = str(tick)
        pdf.text(px(tick) - pdf.get_string_width(label) / 2, plot_y + plot_h + 4, label)
    pdf.text(plot_x + plot_w / 2 - 6, plot_y + plot_h + 7.5, "round")
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.3)
    pdf.line(plot_x, plot_y, plot_x, plot_y + plot_h)
    pdf.line(plot_x, plot_y + plot_h, plot_x + plot_w, plot_y + plot_h)
    count = len(chart.series)
    for n, series in enumerate(chart.series):
        # earlier series a little wider, so a line hidden under an equal one shows as a rim
        pdf.set_line_width(0.5 + 0.6 * (count - 1 - n) / max(1, count - 1))
        pdf.set_draw_color(*series.color)
        points = [(px(i), py(v)) for i, v in enumerate(series.values)]
        if len(points) > 1:
            pdf.polyline(points)
        ly = plot_y + 2 + n * 5
        pdf.line(plot_x + plot_w + 4, ly, plot_x + plot_w + 10, ly)
        pdf.style(8)
        pdf.text(plot_x + plot_w + 11, ly + 1, pdf.text_safe(series.name))
    pdf.set_line_width(0.2)
    pdf.set_draw_color(0, 0, 0)


def _plan(pdf: _Report, plan: TransferPlan | None,
          why: str = "no table could be reconciled") -> None:
    if plan is None:
        pdf.para(f"No transfer plan: {why}.", color=RED)
        return
    for t in plan.transfers:
        pdf.para(f"{t.payer} pays {t.payee}  {t.amount}", bold=True)
    pdf.para(plan.explanation(), size=8, color=GREY, height=4)


def _heads(pdf: _Report, rec: Reconciliation) -> None:
    """Each log's head (N:HASH) and its QR code, beside the signatures: what was signed can
    later be checked with ``dealer-assist verify FILE.db --expect-head N:HASH``."""
    pdf.ln(4)
    pdf.para("Log heads", size=11, bold=True)
    pdf.para("Signing also signs these heads: 'dealer-assist verify FILE.db --expect-head "
             "N:HASH' later proves that the first N events are unchanged and nothing was cut "
             "off.", size=8, color=GREY, height=4)
    for t in rec.tables:
        if not t.integrity.head:
            pdf.para(f"{t.path.name}: no head ({t.integrity.reason or 'unreadable'})", size=9)
            continue
        if pdf.will_page_break(30):
            pdf.add_page()
        y = pdf.get_y() + 1
        png = io.BytesIO()
        segno.make(Head.parse(t.integrity.head).qr_text, error="m").save(
            png, kind="png", scale=4, border=1)
        pdf.image(png, x=pdf.l_margin, y=y, w=26, h=26)
        pdf.set_xy(pdf.l_margin + 30, y + 8)
        pdf.style(10, bold=True)
        pdf.cell(0, 5, pdf.text_safe(f"{t.path.name}: head {t.integrity.head}"))
        pdf.set_xy(pdf.l_margin, y + 28)


def _signatures(pdf: _Report, names: list[str]) -> None:
    pdf.ln(4)
    pdf.para("Signatures", size=11, bold=True)
    pdf.para("Each signature confirms the result beside the name and the transfer plan above.",
             size=8, color=GREY, height=4)
    for name in names:
        if pdf.will_page_break(12):
            pdf.add_page()
        pdf.ln(7)
        y = pdf.get_y()
        pdf.style(9)
        pdf.text(pdf.l_margin, y, pdf.text_safe(name))
        pdf.line(pdf.l_margin + 45, y, pdf.l_margin + 130, y)
        pdf.text(pdf.l_margin + 135, y, "date")
        pdf.line(pdf.l_margin + 145, y, pdf.w - pdf.r_margin, y)


def _table(pdf: _Report, t: TableReport) -> None:
    pdf.para(f"{t.title or 'Unknown game'} — {t.path.name} ({t.status})", size=13, bold=True,
             height=7)
    pdf.para(f"Integrity: {t.integrity.sentence()}", size=9,
             color=GREEN if t.integrity.ok else RED)
    if t.error:
        pdf.para(f"Cannot reconcile: {t.error}", color=RED)
        return
    pdf.ln(1)
    _grid(pdf, *seat_rows(t))
    if pdf.will_page_break(70):
        pdf.add_page()
    y = pdf.get_y()
    draw_chart(pdf, chart_data(t), pdf.l_margin, y, pdf.w - pdf.l_margin - pdf.r_margin, 68)
    pdf.set_y(y + 70)
    for check in t.checks:
        pdf.para(f"{check.name.capitalize()}: {check.text}", size=9,
                 color=GREEN if check.ok else RED)
    pdf.ln(2)
    pdf.para("Who pays whom", size=11, bold=True)
    _plan(pdf, t.plan, t.no_plan)
    pdf.ln(2)
    pdf.para("Results per round", size=11, bold=True)
    header, rows = round_rows(t)
    if len(rows) > MAX_ROUND_ROWS + 1:  # keep the session line at the end
        pdf.para(f"{len(t.rounds)} rounds: the first {MAX_ROUND_ROWS} are printed, and the "
                 "session line; every round is in the CSV and JSON exports.", size=8, color=GREY)
        rows = [*rows[:MAX_ROUND_ROWS], rows[-1]]
    _grid(pdf, header, rows, size=8)


def write_pdf(rec: Reconciliation, path: Path) -> Path:
    pdf = _Report()
    pdf.set_title("Session report")
    pdf.add_page()
    pdf.para("Session report", size=18, bold=True, height=9)
    verdict = "all checks pass" if rec.ok else "CHECKS FAILED — see each table"
    pdf.para(f"{len(rec.tables)} table log(s), printed {datetime.now():%Y-%m-%d %H:%M}: {verdict}",
             size=9, color=GREEN if rec.ok else RED)
    pdf.ln(2)
    for i, table in enumerate(rec.tables):
        if i:
            pdf.add_page()
        _table(pdf, table)
    if len(rec.tables) > 1:
        pdf.add_page()
        pdf.para("All tables", size=13, bold=True, height=7)
        pdf.para(rec.plan_note, size=9)
        _grid(pdf, ["Person", "Result"], [[n, signed(a)] for n, a in rec.nets.items()])
        pdf.para("Who pays whom", size=11, bold=True)
        _plan(pdf, rec.plan)
    signers = ["Dealer", "Witness", *rec.nets]
    if pdf.will_page_break(min(250, 30 + 30 * len(rec.tables) + 12 * len(signers))):
        pdf.add_page()  # the heads and the signatures that sign them on one page
    _heads(pdf, rec)
    _signatures(pdf, signers)
    pdf.output(str(path))
    return path
