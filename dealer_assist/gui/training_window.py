"""The training window: pick a trainee, a drill and a level; answer by touch or keyboard.

Every question, answer and explanation comes from dealer_assist.training (the engine); this
window only shows them and takes the trainee's input. ``open_training(parent)`` opens it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.errors import RuleError
from dealer_assist.gui.action_panel import ActionButton
from dealer_assist.gui.metrics import fit_to_screen, touch_px, touch_scroll
from dealer_assist.training.drills import (
    AMOUNT,
    KINDS,
    ORDER,
    Question,
    drill_games,
    format_answer,
    kinds_for,
)
from dealer_assist.training.levels import LEVELS
from dealer_assist.training.render import SEAT_COLUMNS, seat_rows
from dealer_assist.training.runner import DrillRun, Feedback
from dealer_assist.training.store import TrainingStore
from dealer_assist.variants import get_variant

GUEST = "(guest — not saved)"
CHIPS = (1, 5, 10, 25, 100)


def _button(text: str, slot: Callable[[], None]) -> QPushButton:
    """A touch-sized button (9 mm at the screen's density); its type comes from the theme."""
    button = QPushButton(text)
    button.setMinimumHeight(touch_px())
    button.setMinimumWidth(touch_px())
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys go to the window, not the button
    button.clicked.connect(lambda _checked=False: slot())
    return button


def _stepper(box: QSpinBox) -> QHBoxLayout:
    """A spin box between touch-sized − and + buttons (its own arrows are too small)."""
    box.setAlignment(Qt.AlignmentFlag.AlignCenter)
    box.setStyleSheet("QSpinBox { padding-right: 8px; }"  # no arrows: − and + beside it
                      "QSpinBox::up-button, QSpinBox::down-button { width: 0px; border: none; }")
    row = QHBoxLayout()
    row.addWidget(_button("−", box.stepDown))
    row.addWidget(box, 1)
    row.addWidget(_button("+", box.stepUp))
    return row


def _grid(table: QTableWidget, headers: tuple[str, ...], rows: list[tuple[str, ...]],
          stretch: int | None = None) -> None:
    """Fill a read-only table; column ``stretch`` takes the spare width (else all share it)."""
    table.clear()
    table.setColumnCount(len(headers))
    table.setHorizontalHeaderLabels(list(headers))
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            table.setItem(r, c, QTableWidgetItem(text))
    table.resizeColumnsToContents()
    header = table.horizontalHeader()
    header.setStretchLastSection(stretch is None)
    for c in range(len(headers)):
        mode = (QHeaderView.ResizeMode.Stretch if stretch is None or c == stretch
                else QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(c, mode)


def _read_only_table() -> QTableWidget:
    table = QTableWidget()
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(touch_px())
    table.horizontalHeader().setStretchLastSection(True)
    return table


class AnswerPad(QWidget):
    """Chip buttons and a numeric keypad (amounts), or one button per choice (seats, order)."""

    def __init__(self, submit: Callable[[object], None]) -> None:
        super().__init__()
        self.submit = submit
        self.question: Question | None = None
        self.sign = 1
        self.digits = ""
        self.order: list[int] = []
        self.display = QLabel()  # the answer so far: a long order wraps rather than scrolls
        self.display.setWordWrap(True)
        self.display.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.display.setObjectName("answerDisplay")
        self.display.setMinimumHeight(touch_px())
        self.pages = QStackedWidget()
        self.pages.addWidget(self._amount_page())
        self.choice_page = QWidget()
        self.choice_grid = QGridLayout(self.choice_page)
        self.pages.addWidget(self.choice_page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.display)
        layout.addWidget(self.pages, 1)
        self.ok = _button("OK  ⏎", self.confirm)
        self.ok.setObjectName("ok")
        layout.addWidget(self.ok)

    def _amount_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        signs = QHBoxLayout()
        signs.addWidget(_button("+ wins", lambda: self.set_sign(1)))
        signs.addWidget(_button("− loses", lambda: self.set_sign(-1)))
        chips = QHBoxLayout()
        for chip in CHIPS:
            b = _button(f"+{chip}", lambda c=chip: self.add_chip(c))
            b.setObjectName(f"chip{chip}")
            b.setToolTip(f"add a {chip} chip")
            chips.addWidget(b)
        grid = QGridLayout()
        keys = ["7", "8", "9", "4", "5", "6", "1", "2", "3", "C", "0", "⌫"]
        for i, key in enumerate(keys):
            b = _button(key, lambda k=key: self.key(k))
            b.setObjectName(f"key{key}" if key.isdigit() else {"C": "clear", "⌫": "back"}[key])
            grid.addWidget(b, i // 3, i % 3)
        layout.addLayout(signs)
        layout.addLayout(chips)
        layout.addLayout(grid)
        layout.addStretch(1)
        return page

    # ------------------------------------------------------------ input

    def ask(self, question: Question) -> None:
        self.question = question
        self.sign, self.digits, self.order = 1, "", []
        if question.answer_type == AMOUNT:
            self.pages.setCurrentIndex(0)
        else:
            self._choices(question)
            self.pages.setCurrentIndex(1)
        self.ok.setVisible(question.answer_type in (AMOUNT, ORDER))
        self.setEnabled(True)
        self._show()

    def _choices(self, question: Question) -> None:
        while self.choice_grid.count():
            item = self.choice_grid.takeAt(0)
            if item.widget():
                item.widget().setParent(None)  # gone now, not at the next event loop
        # the table's big buttons, whose labels wrap onto a second line rather than being cut
        buttons = [ActionButton(label, f"choice_{value}", self.choice_page)
                   for value, label in question.choices]
        metrics = buttons[0].label.fontMetrics() if buttons else None
        widest = max((metrics.horizontalAdvance(label) + 24 for _v, label in question.choices),
                     default=touch_px()) if metrics else touch_px()
        room = self.pages.width() or self.width()
        columns = max(1, min(3, len(buttons), room // (widest + 8)))
        if len(buttons) <= 4:
            columns = min(columns, 2)
        for i, ((value, _label), b) in enumerate(zip(question.choices, buttons, strict=True)):
            b.clicked.connect(lambda _=False, v=value: self.choose(v))
            self.choice_grid.addWidget(b, i // columns, i % columns)
            b.show()
        if question.answer_type == ORDER:
            row = (len(question.choices) + columns - 1) // columns
            self.choice_grid.addWidget(_button("Clear", self.clear_order), row, 0)
            self.choice_grid.addWidget(_button("⌫", self.back_order), row, 1)
        self.choice_grid.setRowStretch(self.choice_grid.rowCount(), 1)

    def set_sign(self, sign: int) -> None:
        self.sign = sign
        self._show()

    def add_chip(self, chip: int) -> None:
        self.digits = str(int(self.digits or "0") + chip)
        self._show()

    def key(self, key: str) -> None:
        if key == "C":
            self.sign, self.digits = 1, ""
        elif key == "⌫":
            self.digits = self.digits[:-1]
        elif key.isdigit() and len(self.digits) < 7:
            self.digits = (self.digits + key).lstrip("0") or "0"
        self._show()

    def choose(self, value: str) -> None:
        q = self.question
        if q is None:
            return
        if q.answer_type == ORDER:
            self.order.append(int(value))
            self._show()
        elif q.answer_type == AMOUNT:
            return
        else:
            self.submit(int(value) if q.answer_type == "seat" else value)

    def clear_order(self) -> None:
        self.order = []
        self._show()

    def back_order(self) -> None:
        self.order = self.order[:-1]
        self._show()

    def value(self) -> object:
        q = self.question
        if q is not None and q.answer_type == ORDER:
            return tuple(self.order)
        return self.sign * int(self.digits or "0")

    def confirm(self) -> None:
        q = self.question
        if q is None or not self.isEnabled():
            return
        if q.answer_type == AMOUNT and not self.digits:
            return
        if q.answer_type == ORDER and not self.order:
            return
        self.submit(self.value())

    def _show(self) -> None:
        q = self.question
        if q is None:
            self.display.setText("")
        elif q.answer_type == AMOUNT:
            self.display.setText(format_answer(q, self.value()) if self.digits else
                                 ("+" if self.sign > 0 else "−"))
        elif q.answer_type == ORDER:
            self.display.setText(format_answer(q, tuple(self.order)))
        else:
            self.display.setText("")
        width = self.display.width() or self.width()  # as tall as the wrapped answer
        self.display.setMinimumHeight(max(touch_px(), self.display.heightForWidth(width)))

    def keyboard(self, event: QKeyEvent) -> bool:
        """Keys: digits, +/-, Backspace, Delete, Enter; for choices, 1..9 pick one."""
        q = self.question
        if q is None or not self.isEnabled():
            return False
        text, key = event.text(), event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.confirm()
        elif q.answer_type == AMOUNT:
            if text.isdigit():
                self.key(text)
            elif text == "-":
                self.set_sign(-1)
            elif text == "+":
                self.set_sign(1)
            elif key == Qt.Key.Key_Backspace:
                self.key("⌫")
            elif key in (Qt.Key.Key_Delete, Qt.Key.Key_Escape):
                self.key("C")
            else:
                return False
        elif text.isdigit() and text != "0":
            index = int(text) - 1
            if q.answer_type == ORDER:
                if any(v == text for v, _ in q.choices):
                    self.choose(text)
            elif index < len(q.choices):
                self.choose(q.choices[index][0])
        elif q.answer_type == ORDER and key == Qt.Key.Key_Backspace:
            self.back_order()
        else:
            return False
        return True


class DrillPage(QWidget):
    """Setup, then the questions one by one, then the run's summary."""

    def __init__(self, window: TrainingWindow) -> None:
        super().__init__()
        self.window_ = window
        self.run: DrillRun | None = None
        self.trainee: str | None = None
        self.feedback_shown = False
        self.stack = QStackedWidget()
        self.stack.addWidget(self._setup())
        self.stack.addWidget(self._question())
        layout = QVBoxLayout(self)
        layout.addWidget(self.stack)

    # ------------------------------------------------------------ setup

    def _setup(self) -> QWidget:
        page = QWidget()
        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.trainee_box = QComboBox()
        self.new_name = QLineEdit()
        self.new_name.setPlaceholderText("new name")
        add = _button("Add trainee", self.add_trainee)
        add.setObjectName("add_trainee")
        row = QHBoxLayout()
        row.addWidget(self.trainee_box, 1)
        row.addWidget(self.new_name, 1)
        row.addWidget(add)
        self.game_box = QComboBox()
        for game in drill_games():
            self.game_box.addItem(get_variant(game).TITLE, game)
        self.game_box.currentIndexChanged.connect(self._fill_kinds)
        self.kind_box = QComboBox()
        self.level_box = QComboBox()
        for level in LEVELS.values():
            timing = f"timed, {level.time_limit:.0f} s" if level.timed else "untimed, hints"
            self.level_box.addItem(f"{level.title} ({timing})", level.name)
        self.count_box = QSpinBox()
        self.count_box.setRange(1, 100)
        self.count_box.setValue(10)
        self.seed_box = QSpinBox()
        self.seed_box.setRange(0, 999999)
        self.seed_box.setValue(int(time.time()) % 1000)
        for widget in (self.trainee_box, self.game_box, self.kind_box, self.level_box,
                       self.count_box, self.seed_box, self.new_name):
            widget.setMinimumHeight(touch_px())
        numbers = _stepper(self.count_box)
        numbers.addSpacing(16)
        numbers.addWidget(QLabel("Seed"))
        numbers.addLayout(_stepper(self.seed_box), 1)
        form.addRow("Trainee", row)
        form.addRow("Game", self.game_box)
        form.addRow("Drill", self.kind_box)
        form.addRow("Level", self.level_box)
        form.addRow("Questions", numbers)
        start = _button("Start drill", self.start)
        start.setObjectName("start")
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        box = QGroupBox("New drill")
        box.setMaximumWidth(860)
        inner = QVBoxLayout(box)
        inner.addLayout(form)
        inner.addWidget(start)
        column = QWidget()
        column.setMaximumWidth(860)
        inner = QVBoxLayout(column)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.addWidget(box)
        inner.addWidget(self.summary)
        inner.addStretch(1)
        layout = QHBoxLayout(page)
        layout.addStretch(1)
        layout.addWidget(column, 100)
        layout.addStretch(1)
        self._fill_kinds()
        return page

    def _fill_kinds(self) -> None:
        self.kind_box.clear()
        self.kind_box.addItem("All drills (mixed)", None)
        game = self.game_box.currentData()
        if game:
            for kind in kinds_for(game):
                extra = " — irregularity" if KINDS[kind].irregular else ""
                self.kind_box.addItem(KINDS[kind].title + extra, kind)

    def fill_trainees(self, names: list[str], current: str | None = None) -> None:
        self.trainee_box.clear()
        self.trainee_box.addItem(GUEST, None)
        for name in names:
            self.trainee_box.addItem(name, name)
        if current:
            self.trainee_box.setCurrentIndex(self.trainee_box.findData(current))

    def add_trainee(self) -> None:
        name = self.new_name.text().strip()
        try:
            self.window_.store.add_trainee(name)
        except RuleError as exc:
            QMessageBox.warning(self, "Trainee", str(exc))
            return
        self.new_name.clear()
        self.window_.refresh(current=name)

    def start(self) -> None:
        kind = self.kind_box.currentData()
        try:
            self.run = DrillRun(self.game_box.currentData(), self.level_box.currentData(),
                                self.count_box.value(), self.seed_box.value(),
                                [kind] if kind else None, clock=self.window_.clock)
        except RuleError as exc:
            QMessageBox.warning(self, "Drill", str(exc))
            return
        self.trainee = self.trainee_box.currentData()
        self.stack.setCurrentIndex(1)
        self.next_question()

    # ------------------------------------------------------------ questions

    def _question(self) -> QWidget:
        page = QWidget()
        self.header = QLabel()
        self.header.setObjectName("drillHeader")
        self.header.setWordWrap(True)
        self.timer_label = QLabel()
        self.timer_label.setAlignment(Qt.AlignmentFlag.AlignRight)
        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        top.addWidget(self.timer_label)
        self.table = _read_only_table()
        self.table.setObjectName("seatTable")
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        self.prompt.setObjectName("drillPrompt")
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.feedback = QLabel()
        self.feedback.setWordWrap(True)
        self.feedback.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.feedback.setObjectName("feedback")
        self.reveal = _button("Show answer", self.show_answer)
        self.next_button = _button("Next question  ⏎", self.next_question)
        self.next_button.setObjectName("next")
        self.stop_button = _button("Stop", self.finish)
        self.stop_button.setObjectName("stop")
        # the question and its feedback scroll on a small screen; the buttons never do
        reading = QWidget()
        text = QVBoxLayout(reading)
        text.setContentsMargins(0, 0, 0, 0)
        text.addWidget(self.table)
        text.addWidget(self.info)
        text.addSpacing(8)
        text.addWidget(self.prompt)
        text.addWidget(self.hint)
        text.addSpacing(8)
        text.addWidget(self.feedback)
        text.addStretch(1)
        self.reading = touch_scroll(reading)
        left = QVBoxLayout()
        left.addLayout(top)
        left.addWidget(self.reading, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.reveal)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)
        buttons.addWidget(self.next_button)
        left.addLayout(buttons)
        self.pad = AnswerPad(self.submit)
        self.pad.setMinimumWidth(7 * touch_px())
        layout = QHBoxLayout(page)
        layout.addLayout(left, 3)
        layout.addWidget(self.pad, 2)
        self.ticker = QTimer(self)
        self.ticker.setInterval(500)
        self.ticker.timeout.connect(self._tick)
        return page

    def next_question(self) -> None:
        run = self.run
        if run is None:
            return
        q = run.next_question()
        if q is None:
            self.finish()
            return
        self.feedback_shown = False
        self.header.setText(f"Question {len(run.attempts) + 1} of {run.count} — "
                            f"{KINDS[q.kind].title} — {run.level.title}")
        _grid(self.table, SEAT_COLUMNS, seat_rows(q.table), stretch=2)
        header = self.table.horizontalHeader()
        for column in (2, 3, 5):  # cards, value and status share the width and wrap
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self.table.resizeRowsToContents()
        for row in range(self.table.rowCount()):  # breathing room, and a touch target
            self.table.setRowHeight(row, max(40, self.table.rowHeight(row) + 10))
        height = header.height() + 2 * self.table.frameWidth() + 2 + sum(
            self.table.rowHeight(r) for r in range(self.table.rowCount()))
        self.table.setFixedHeight(height)
        self.info.setText(" · ".join((q.table.title, *q.table.info)))
        self.prompt.setText(q.prompt)
        self.hint.setText(f"Hint: {q.hint}" if run.level.hints and q.hint else "")
        self.hint.setVisible(bool(run.level.hints and q.hint))
        self.reveal.setVisible(run.level.hints)
        self.feedback.setText("")
        self.next_button.setEnabled(False)
        self.next_button.setText("Next question  ⏎")
        self.pad.ask(q)
        self.fit_reading()
        self._tick()
        self.ticker.start()
        self.window_.setFocus()

    def fit_reading(self) -> None:
        self.reading.fit()

    def _tick(self) -> None:
        run = self.run
        if run is None or run.current is None:
            return
        limit = run.level.time_limit
        if limit is None:
            self.timer_label.setText("untimed")
        else:
            left = max(0.0, limit - (self.window_.clock() - run.asked_at))
            self.timer_label.setText(f"{left:.0f} s left")

    def show_answer(self) -> None:
        run = self.run
        if run and run.current:
            self.hint.setText(f"Answer: {run.current.answer_text()}")
            self.hint.setVisible(True)
            self.fit_reading()

    def submit(self, given: object) -> None:
        run = self.run
        if run is None or run.current is None:
            return
        fb: Feedback = run.answer(given)
        self.ticker.stop()
        verdict = ("✔ Right" if fb.correct else
                   ("✔ Right, but too slow" if fb.right else "✘ Wrong"))
        self.feedback.setText(f"<b>{verdict}</b> ({fb.seconds:.1f} s) — you: {fb.given}; "
                              f"answer: <b>{fb.expected}</b><br>"
                              + fb.explanation.replace("\n", "<br>"))
        self.pad.setEnabled(False)
        self.next_button.setEnabled(True)
        self.feedback_shown = True
        self.fit_reading()
        if run.done:
            self.next_button.setText("See results  ⏎")
        else:
            self.next_button.setText("Next question  ⏎")

    def finish(self) -> None:
        run = self.run
        self.ticker.stop()
        if run is None:
            return
        s = run.summary()
        saved = ""
        if self.trainee and run.attempts:
            self.window_.store.record(self.trainee, run.attempts)
            saved = f" Saved for {self.trainee}."
        spots = [KINDS[k].title if k in KINDS else k for k in s.weak_spots]  # titles, not ids
        weak = f" Weak spots: {', '.join(spots)}." if spots else ""
        self.summary.setText(f"Last drill: {s.correct}/{s.count} right, grade {s.grade}, "
                             f"best streak {s.best_streak}.{weak}{saved}")
        self.run = None
        self.stack.setCurrentIndex(0)
        self.window_.refresh(current=self.trainee)

    def keyboard(self, event: QKeyEvent) -> bool:
        if self.stack.currentIndex() != 1:
            return False
        if self.feedback_shown and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.next_question()
            return True
        return self.pad.keyboard(event)


class ProgressPage(QWidget):
    """One trainee's grades per level, results per question type, streaks, weak spots."""

    def __init__(self, window: TrainingWindow) -> None:
        super().__init__()
        self.window_ = window
        self.trainee_box = QComboBox()
        self.trainee_box.setMinimumHeight(touch_px())
        self.trainee_box.currentIndexChanged.connect(self.show_progress)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.levels = _read_only_table()
        self.kinds = _read_only_table()
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(QLabel("Trainee"))
        top.addWidget(self.trainee_box, 1)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(QLabel("By level"))
        layout.addWidget(self.levels, 1)
        layout.addWidget(QLabel("By question type"))
        layout.addWidget(self.kinds, 2)

    def fill(self, names: list[str], current: str | None) -> None:
        self.trainee_box.blockSignals(True)
        self.trainee_box.clear()
        self.trainee_box.addItems(names)
        if current in names:
            self.trainee_box.setCurrentText(current)
        self.trainee_box.blockSignals(False)
        self.show_progress()

    def show_progress(self) -> None:
        name = self.trainee_box.currentText()
        if not name:
            self.summary.setText("No trainees yet: add one on the Drill tab.")
            _grid(self.levels, (), [])
            _grid(self.kinds, (), [])
            return
        p = self.window_.store.progress(name)
        o = p.overall
        weak = ", ".join(KINDS[k].title if k in KINDS else k for k in o.weak_spots) or "none"
        self.summary.setText(f"<b>{name}</b>: {o.count} answers, {o.accuracy:.0%} right, "
                             f"current streak {o.streak}, best {o.best_streak}. "
                             f"Weak spots: {weak}.")
        _grid(self.levels, ("Level", "Grade", "Right", "Accuracy", "Median time", "Best streak"),
              [(LEVELS[lv].title, s.grade, f"{s.correct}/{s.count}", f"{s.accuracy:.0%}",
                _seconds(s.median_seconds), str(s.best_streak)) for lv, s in p.levels.items()])
        _grid(self.kinds, ("Question type", "Right", "Accuracy", "Median time"),
              [(KINDS[k.kind].title if k.kind in KINDS else k.kind, f"{k.correct}/{k.count}",
                f"{k.accuracy:.0%}", _seconds(k.median_seconds)) for k in o.kinds])


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f} s"


class OverviewPage(QWidget):
    """Every trainee at a glance, for the trainer."""

    def __init__(self, window: TrainingWindow) -> None:
        super().__init__()
        self.window_ = window
        self.table = _read_only_table()
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)

    def fill(self) -> None:
        rows = self.window_.store.overview()
        _grid(self.table, ("Trainee", "Answers", "Accuracy", "Grade", "At level", "Weak spots",
                           "Last answer"),
              [(r.name, str(r.attempts), f"{r.accuracy:.0%}" if r.attempts else "—", r.grade,
                LEVELS[r.best_level].title if r.best_level else "—",
                ", ".join(KINDS[k].title if k in KINDS else k for k in r.weak_spots) or "—",
                r.last_at.replace("T", " ")[:16]) for r in rows], stretch=5)


class TrainingWindow(QWidget):
    """Dealer training: drills, a trainee's progress and the trainer's overview."""

    def __init__(self, parent: QWidget | None = None, store: TrainingStore | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Dealer training")
        self.setObjectName("trainingWindow")  # styled by the theme, as the table screen
        self.store = store or TrainingStore()
        self.clock = clock
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.tabs = QTabWidget()
        self.drill = DrillPage(self)
        self.progress = ProgressPage(self)
        self.overview = OverviewPage(self)
        self.tabs.addTab(self.drill, "Drill")
        self.tabs.addTab(self.progress, "Progress")
        self.tabs.addTab(self.overview, "Trainer overview")
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        fit_to_screen(self)
        self.refresh()

    def refresh(self, current: str | None = None) -> None:
        names = self.store.trainees()
        self.drill.fill_trainees(names, current)
        self.progress.fill(names, current)
        self.overview.fill()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.tabs.currentWidget() is self.drill and self.drill.keyboard(event):
            event.accept()
            return
        super().keyPressEvent(event)


def open_training(parent: QWidget | None = None) -> TrainingWindow:
    """Open the training window (used by the main window's menu)."""
    window = TrainingWindow(parent)
    window.show()
    window.raise_()
    return window
