"""The reconciliation screen: one or more session logs, their checks, the transfer plan, the
bankroll chart and the exports. Every number comes from ``dealer_assist.reports``."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import (
    QApplication,
    QBoxLayout,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.gui.metrics import fit_to_screen, touch_px, touch_scroll
from dealer_assist.reports.chart import ChartData, chart_data
from dealer_assist.reports.export_csv import write_csv
from dealer_assist.reports.export_json import to_json
from dealer_assist.reports.pdf import write_pdf
from dealer_assist.reports.reconcile import Reconciliation, TableReport, reconcile
from dealer_assist.reports.text import round_rows, seat_rows, signed
from dealer_assist.reports.transfers import TransferPlan

LIGHT_TONES = {"ok": "#1b7a1b", "bad": "#b00020"}
DARK_TONES = {"ok": "#7bd67b", "bad": "#ff7a7a"}  # readable on a dark theme


def tone(kind: str) -> str:
    """The colour of a passed ("ok") or failed ("bad") check for the current theme."""
    dark = QApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128
    return (DARK_TONES if dark else LIGHT_TONES)[kind]
_open_windows: list[QWidget] = []  # windows without a parent, kept alive


class ChartWidget(QWidget):
    """Bankroll over rounds: draws ``ChartData`` (axes, ticks, one line per series, legend)."""

    def __init__(self, data: ChartData | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data = data
        self.setMinimumSize(420, 260)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def paintEvent(self, event) -> None:
        if self.data is None:
            return
        data = self.data
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        text = self.palette().color(self.foregroundRole())
        metrics = p.fontMetrics()
        legend_w = max((metrics.horizontalAdvance(s.name) for s in data.series), default=0) + 36
        left = max(metrics.horizontalAdvance(str(t)) for t in data.y_ticks) + 12
        top = metrics.height() + 10
        plot = QRectF(left, top, self.width() - left - legend_w - 8,
                      self.height() - top - 2 * metrics.height() - 8)
        p.setPen(text)
        title_font = QFont(p.font())
        title_font.setBold(True)
        p.setFont(title_font)
        p.drawText(QPointF(4, metrics.ascent() + 2), data.title)
        p.setFont(self.font())
        span = (data.y_max - data.y_min) or 1

        def x_at(i: float) -> float:
            return plot.left() + plot.width() * i / max(1, data.rounds)

        def y_at(v: float) -> float:
            return plot.bottom() - plot.height() * (v - data.y_min) / span

        grid = QColor(text)
        grid.setAlpha(50)
        for tick in data.y_ticks:
            p.setPen(grid)
            p.drawLine(QPointF(plot.left(), y_at(tick)), QPointF(plot.right(), y_at(tick)))
            p.setPen(text)
            label = str(tick)
            p.drawText(QPointF(plot.left() - 6 - metrics.horizontalAdvance(label),
                               y_at(tick) + metrics.ascent() / 2 - 1), label)
        for tick in data.x_ticks:
            label = str(tick)
            p.drawText(QPointF(x_at(tick) - metrics.horizontalAdvance(label) / 2,
                               plot.bottom() + metrics.height()), label)
        p.drawText(QPointF(plot.center().x() - metrics.horizontalAdvance("round") / 2,
                           plot.bottom() + 2 * metrics.height()), "round")
        p.setPen(QPen(text, 1.2))
        p.drawLine(plot.bottomLeft(), plot.topLeft())
        p.drawLine(plot.bottomLeft(), plot.bottomRight())
        for n, series in enumerate(data.series):
            # earlier series a little wider: a line under an equal one still shows as a rim
            extra = 1.8 * (len(data.series) - 1 - n) / max(1, len(data.series) - 1)
            pen = QPen(QColor(*series.color), 2 + extra)
            p.setPen(pen)
            path = QPainterPath()
            for i, value in enumerate(series.values):
                point = QPointF(x_at(i), y_at(value))
                path.moveTo(point) if i == 0 else path.lineTo(point)
            p.drawPath(path)
            y = plot.top() + 8 + n * (metrics.height() + 4)
            p.drawLine(QPointF(plot.right() + 10, y), QPointF(plot.right() + 28, y))
            p.setPen(text)
            p.drawText(QPointF(plot.right() + 32, y + metrics.ascent() / 2 - 1), series.name)
        p.end()


def _label(text: str, color: str | None = None, bold: bool = False) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    style = []
    if color:
        style.append(f"color: {color}")
    if bold:
        style.append("font-weight: bold")
    label.setStyleSheet("; ".join(style))
    return label


def _grid(header: list[str], rows: list[list[object]], bad_column: int | None = None
          ) -> QTableWidget:
    """A read-only table; cells of ``bad_column`` that are not zero or empty are shown in red."""
    table = ReportTable(len(rows), len(header))
    table.setHorizontalHeaderLabels(header)
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            item = QTableWidgetItem(str(value))
            align = Qt.AlignmentFlag.AlignLeft if c == 0 else Qt.AlignmentFlag.AlignRight
            item.setTextAlignment(align | Qt.AlignmentFlag.AlignVCenter)
            if c == bad_column and str(value) not in ("", "0"):
                item.setForeground(QColor(tone("bad")))
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            table.setItem(r, c, item)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    table.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
    return table


class ReportTable(QTableWidget):
    """A table as wide as its columns and as tall as its rows (up to 12, then it scrolls),
    measured when asked, so in the theme's type size rather than the one it was made in."""

    ROWS = 12

    def sizeHint(self) -> QSize:
        frame = 2 * self.frameWidth()
        shown = min(self.rowCount(), self.ROWS)
        bar = self.verticalScrollBar().sizeHint().width() if self.rowCount() > shown else 0
        height = self.horizontalHeader().sizeHint().height() + frame
        height += sum(self.rowHeight(r) for r in range(shown))
        return QSize(self.horizontalHeader().length() + frame + bar, height)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()


def _plan_box(plan: TransferPlan | None, why: str = "no table could be reconciled") -> QWidget:
    box = QGroupBox("Who pays whom")
    box.setStyleSheet("QGroupBox { font-weight: bold; }")
    layout = QVBoxLayout(box)
    if plan is None:
        layout.addWidget(_label(f"No transfer plan: {why}.", tone("bad")))
        return box
    for t in plan.transfers:
        layout.addWidget(_label(f"{t.payer} pays {t.payee}  {t.amount}", bold=True))
    explanation = _label(plan.explanation())
    explanation.setStyleSheet("font-weight: normal")
    explanation.setObjectName("planExplanation")
    layout.addWidget(explanation)
    return box


class TablePage(QWidget):
    """One log: integrity, seats, checks and plan on the left; chart and rounds on the right."""

    def __init__(self, table: TableReport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = table
        layout = QVBoxLayout(self)
        layout.addWidget(_label(f"{table.title or 'Unknown game'} — {table.path} ({table.status})",
                                bold=True))
        self.integrity = _label("Integrity: " + table.integrity.sentence(),
                                tone("ok" if table.integrity.ok else "bad"))
        layout.addWidget(self.integrity)
        self.chart: ChartWidget | None = None
        if table.error:
            layout.addWidget(_label(f"Cannot reconcile: {table.error}", tone("bad")))
            layout.addStretch(1)
            return
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 6, 0)
        left_layout.addWidget(_label("Seats (Diff: counted chips minus what the log expects)",
                                     bold=True))
        header, rows = seat_rows(table)
        self.seats = _grid(header, rows, bad_column=len(header) - 1)
        left_layout.addWidget(self.seats)
        self.checks = []
        for check in table.checks:
            label = _label(f"{check.name.capitalize()}: {check.text}",
                           tone("ok" if check.ok else "bad"))
            self.checks.append(label)
            left_layout.addWidget(label)
        if table.in_progress:
            left_layout.addWidget(_label("A round is in progress; only settled rounds count."))
        for m in table.money:
            left_layout.addWidget(_label(f"Event {m.seq} (after round {m.after_round}): "
                                         f"{table.name(m.seat)} {m.type.replace('_', '-')} "
                                         f"{m.amount}"))
        left_layout.addWidget(_plan_box(table.plan, table.no_plan))
        left_layout.addStretch(1)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(6, 0, 0, 0)
        self.chart = ChartWidget(chart_data(table))
        right_layout.addWidget(self.chart, 3)
        right_layout.addWidget(_label("Results per round", bold=True))
        self.rounds = _grid(*round_rows(table))
        right_layout.addWidget(self.rounds, 2)
        # side by side where both fit, else one under the other; the report scrolls
        self.left, self.right = left, right
        body = QWidget()
        self.body = QBoxLayout(QBoxLayout.Direction.LeftToRight, body)
        self.body.setContentsMargins(0, 0, 0, 0)
        self.body.addWidget(left, 1)
        self.body.addWidget(right, 1)
        self.scroll = touch_scroll(body)
        layout.addWidget(self.scroll, 1)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.chart is None:
            return
        need = self.left.minimumSizeHint().width() + self.right.minimumSizeHint().width() + 40
        wide = self.width() >= need
        self.body.setDirection(QBoxLayout.Direction.LeftToRight if wide
                               else QBoxLayout.Direction.TopToBottom)
        self.scroll.fit()


class AllTablesPage(QWidget):
    def __init__(self, rec: Reconciliation, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addWidget(_label(rec.plan_note))
        layout.addWidget(_grid(["Person", "Result"],
                               [[n, signed(a)] for n, a in rec.nets.items()]))
        layout.addWidget(_plan_box(rec.plan))
        layout.addStretch(1)


class ReconcileWindow(QWidget):
    """Reconciliation of one or more session logs, with CSV, JSON and PDF exports."""

    def __init__(self, paths: list[Path], parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Reconcile sessions")
        self.setObjectName("reconcileWindow")  # styled by the theme, as the table screen
        fit_to_screen(self)
        self.paths = [Path(p) for p in paths]
        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.verdict = _label("", bold=True)
        bar.addWidget(self.verdict, 1)
        self.buttons: dict[str, QPushButton] = {}
        for key, text in (("add", "Add logs…"), ("refresh", "Refresh"), ("csv", "Export CSV…"),
                          ("json", "Export JSON…"), ("pdf", "Export PDF…")):
            button = QPushButton(text)
            button.setMinimumHeight(touch_px())
            self.buttons[key] = button
            bar.addWidget(button)
        self.buttons["add"].clicked.connect(self.add_logs)
        self.buttons["refresh"].clicked.connect(self.refresh)
        for fmt in ("csv", "json", "pdf"):
            self.buttons[fmt].clicked.connect(lambda _=False, f=fmt: self.export_dialog(f))
        layout.addLayout(bar)
        self.tabs = QTabWidget()
        layout.addWidget(self.tabs, 1)
        self.rec: Reconciliation | None = None
        self.refresh()

    def refresh(self) -> None:
        """Reconcile the logs again (a session still being played may have moved on)."""
        self.rec = reconcile(self.paths)
        self.tabs.clear()
        for table in self.rec.tables:
            mark = "" if table.ok else " ⚠"
            self.tabs.addTab(TablePage(table), f"{table.path.name}{mark}")
        if len(self.rec.tables) > 1:
            self.tabs.addTab(AllTablesPage(self.rec), "All tables")
        ok = self.rec.ok
        self.verdict.setText(f"{len(self.rec.tables)} log(s): "
                             + ("all checks pass" if ok else "checks failed — see the marked tabs"))
        self.verdict.setStyleSheet(f"font-weight: bold; color: {tone('ok' if ok else 'bad')}")

    def add_logs(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Session logs to add", "",
                                                "Session logs (*.db);;All files (*)")
        if files:
            self.paths += [Path(f) for f in files if Path(f) not in self.paths]
            self.refresh()

    def export_to(self, fmt: str, path: Path) -> list[Path]:
        """Write the report as ``csv`` (a folder of files), ``json`` or ``pdf``."""
        assert self.rec is not None
        if fmt == "csv":
            return write_csv(self.rec, path)
        if fmt == "json":
            path.write_text(to_json(self.rec) + "\n", encoding="utf-8")
            return [path]
        return [write_pdf(self.rec, path)]

    def export_dialog(self, fmt: str) -> None:
        stem = self.paths[0].stem if self.paths else "session"
        if fmt == "csv":
            target = QFileDialog.getExistingDirectory(self, "Folder for the CSV files")
        else:
            target, _ = QFileDialog.getSaveFileName(
                self, f"Save the {fmt.upper()} report", f"{stem}-report.{fmt}",
                f"{fmt.upper()} (*.{fmt})")
        if not target:
            return
        try:
            written = self.export_to(fmt, Path(target))
        except OSError as exc:
            QMessageBox.warning(self, "Export", f"Could not write {target}: {exc.strerror}")
            return
        QMessageBox.information(self, "Export", "Wrote " + ", ".join(p.name for p in written))


def open_reconcile(parent: QWidget | None, paths: list[Path]) -> ReconcileWindow:
    """Open the reconciliation window for ``paths`` (from the start screen or a session)."""
    window = ReconcileWindow(paths, parent)
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    if parent is None:
        _open_windows.append(window)
    window.show()
    return window
