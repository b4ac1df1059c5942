"""The new-session wizard: the game, its options (each with its default and what it does),
the players in seat order with their money (and age or table position where the game needs
it), and the first dealer or banker. The engine checks the whole setup before it starts."""

from __future__ import annotations

import types
import typing
from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from dealer_assist.errors import RuleError
from dealer_assist.session.engine import start_event
from dealer_assist.variants import available_games, get_variant
from dealer_assist.variants.base import option_specs

SEAT_FIELD_LABELS = {"age": "age order (1 = oldest)", "position": "table position"}
BIG_MONEY = 1_000_000_000


def _optional(kind: Any) -> tuple[Any, bool]:
    """(the type, whether None is allowed)."""
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(kind) if a is not type(None)]
        return args[0], True
    return kind, False


class OptionEditor:
    """One option's widget; ``value()`` gives what the engine expects."""

    def __init__(self, spec: dict[str, Any], parent: QWidget) -> None:
        self.spec = spec
        kind, self.nullable = _optional(spec["type"])
        default = spec["default"]
        self.choices = spec.get("choices")
        if self.choices:
            self.widget: QWidget = QComboBox(parent)
            for choice in self.choices:
                self.widget.addItem(str(choice))
            self.widget.setCurrentIndex(list(self.choices).index(default))
        elif kind is bool:
            self.widget = QCheckBox(parent)
            self.widget.setChecked(bool(default))
        elif kind is int and not self.nullable:
            self.widget = QSpinBox(parent)
            self.widget.setRange(spec.get("min", -BIG_MONEY), spec.get("max", BIG_MONEY))
            self.widget.setValue(default)
        else:
            self.widget = QLineEdit("" if default is None else str(default), parent)
            self.widget.setPlaceholderText("none")
        self.kind = kind
        self.widget.setObjectName(f"option_{spec['name']}")
        self.widget.setMinimumHeight(44)
        if not isinstance(self.widget, QCheckBox):
            self.widget.setMinimumWidth(180)
            self.widget.setMaximumWidth(320)

    def value(self) -> Any:
        widget = self.widget
        if isinstance(widget, QComboBox):
            return self.choices[widget.currentIndex()]
        if isinstance(widget, QCheckBox):
            return widget.isChecked()
        if isinstance(widget, QSpinBox):
            return widget.value()
        text = widget.text().strip()
        if not text and self.nullable:
            return None
        if self.kind is int:
            try:
                return int(text)
            except ValueError:
                return text  # the engine explains the refusal
        return text


class GamePage(QWizardPage):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle("Which game?")
        layout = QVBoxLayout(self)
        self.games = QListWidget(self)
        self.games.setObjectName("gameList")
        for name in available_games():
            variant = get_variant(name)
            seats = f"{variant.MIN_SEATS}–{variant.MAX_SEATS} players"
            item = QListWidgetItem(f"{variant.TITLE}   ({seats}; rules: {variant.RULES_FILE})")
            item.setData(Qt.ItemDataRole.UserRole, name)
            item.setSizeHint(QSize(300, 56))
            self.games.addItem(item)
        self.games.setCurrentRow(0)
        self.games.currentRowChanged.connect(lambda _row: self.completeChanged.emit())
        layout.addWidget(self.games)

    def game(self) -> str:
        item = self.games.currentItem()
        return "" if item is None else item.data(Qt.ItemDataRole.UserRole)

    def isComplete(self) -> bool:
        return bool(self.game())


class OptionsPage(QWizardPage):
    def __init__(self, wizard: SessionWizard) -> None:
        super().__init__(wizard)
        self.session_wizard = wizard
        self.setTitle("Options")
        self.setSubTitle("Each option starts at the rule's default.")
        layout = QVBoxLayout(self)
        self.scroll = QScrollArea(self)
        self.scroll.setWidgetResizable(True)
        layout.addWidget(self.scroll)
        self.editors: list[OptionEditor] = []
        self.game = ""

    def initializePage(self) -> None:
        game = self.session_wizard.game()
        if game == self.game:
            return
        self.game = game
        holder = QWidget()
        form = QFormLayout(holder)
        form.setVerticalSpacing(4)
        self.editors = []
        for spec in option_specs(get_variant(game).Options):
            editor = OptionEditor(spec, holder)
            label = QLabel(spec["name"].replace("_", " "), holder)
            label.setBuddy(editor.widget)
            doc = QLabel(f"{spec.get('doc', '')} Default: {spec['default']}.", holder)
            doc.setObjectName("optionDoc")
            doc.setWordWrap(True)
            form.addRow(label, editor.widget)
            form.addRow("", doc)
            self.editors.append(editor)
        self.scroll.setWidget(holder)

    def options(self) -> dict[str, Any]:
        return {e.spec["name"]: e.value() for e in self.editors}


class SeatRow(QWidget):
    """One player: name, money and the game's seat fields, with move and remove buttons."""

    def __init__(self, page: PlayersPage, fields: tuple[str, ...], name: str, money: int,
                 extra: dict[str, int]) -> None:
        super().__init__()
        self.page = page
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.number = QLabel(self)
        self.number.setMinimumWidth(28)
        self.name = QLineEdit(name, self)
        self.name.setPlaceholderText("name")
        self.name.setMinimumWidth(160)  # never squeezed by the spin boxes beside it
        self.money = QSpinBox(self)
        self.money.setRange(0, BIG_MONEY)
        self.money.setValue(money)
        self.money.setPrefix("money ")
        self.fields: dict[str, QSpinBox] = {}
        layout.addWidget(self.number)
        layout.addWidget(self.name, 2)
        layout.addWidget(self.money, 1)
        for field in fields:
            box = QSpinBox(self)
            box.setRange(1, 99)
            box.setValue(extra.get(field, 1))
            box.setPrefix(f"{field} ")
            box.setToolTip(SEAT_FIELD_LABELS.get(field, field))
            self.fields[field] = box
            layout.addWidget(box)
        for text, tip, slot in (("▲", "Move up one seat", lambda: page.move(self, -1)),
                                ("▼", "Move down one seat", lambda: page.move(self, 1)),
                                ("✕", "Remove this player", lambda: page.remove(self))):
            button = QPushButton(text, self)
            button.setToolTip(tip)
            button.setFixedSize(56, 56)
            button.clicked.connect(slot)
            layout.addWidget(button)
        for widget in (self.name, self.money, *self.fields.values()):
            widget.setMinimumHeight(44)
        for box in (self.money, *self.fields.values()):  # a spin box's own hint is too wide
            box.setMinimumWidth(140)
            box.setMaximumWidth(240)

    def seat(self) -> dict[str, Any]:
        body: dict[str, Any] = {"name": self.name.text().strip(), "money": self.money.value()}
        body.update({k: box.value() for k, box in self.fields.items()})
        return body


class PlayersPage(QWizardPage):
    def __init__(self, wizard: SessionWizard) -> None:
        super().__init__(wizard)
        self.session_wizard = wizard
        self.setTitle("Players")
        self.setSubTitle("Seat 1 first, then clockwise around the table.")
        layout = QVBoxLayout(self)
        self.scroll = QScrollArea(self)
        self.scroll.setWidgetResizable(True)
        holder = QWidget()
        self.rows_box = QVBoxLayout(holder)
        self.rows_box.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.scroll.setWidget(holder)
        layout.addWidget(self.scroll, 1)
        bottom = QHBoxLayout()
        self.add_button = QPushButton("Add player", self)
        self.add_button.setObjectName("addPlayer")
        self.add_button.clicked.connect(lambda: self.add_row("", 100, {}))
        bottom.addWidget(self.add_button)
        bottom.addWidget(QLabel("First dealer / banker:", self))
        self.dealer = QComboBox(self)
        self.dealer.setObjectName("firstDealer")
        self.dealer.setMinimumWidth(220)
        bottom.addWidget(self.dealer, 1)
        layout.addLayout(bottom)
        self.error = QLabel(self)
        self.error.setObjectName("wizardError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c53030; font-weight: 700;")
        layout.addWidget(self.error)
        self.rows: list[SeatRow] = []
        self.game = ""

    def initializePage(self) -> None:
        game = self.session_wizard.game()
        if game == self.game:
            return
        self.game = game
        for row in list(self.rows):
            self.remove(row)
        variant = get_variant(game)
        demo = getattr(variant, "DEMO", {})
        seats = demo.get("seats") or [{"name": f"Player {i}", "money": 100}
                                      for i in range(1, variant.MIN_SEATS + 1)]
        for index, seat in enumerate(seats, start=1):
            extra = {f: seat.get(f, index) for f in variant.SEAT_FIELDS}
            self.add_row(seat["name"], seat["money"], extra)

    def add_row(self, name: str, money: int, extra: dict[str, int]) -> None:
        fields = get_variant(self.session_wizard.game()).SEAT_FIELDS
        if not extra:
            extra = {f: len(self.rows) + 1 for f in fields}
        row = SeatRow(self, fields, name, money, extra)
        self.rows.append(row)
        self.rows_box.addWidget(row)
        self._renumber()

    def remove(self, row: SeatRow) -> None:
        self.rows.remove(row)
        self.rows_box.removeWidget(row)
        row.hide()
        row.deleteLater()
        self._renumber()

    def move(self, row: SeatRow, step: int) -> None:
        index = self.rows.index(row)
        other = index + step
        if not 0 <= other < len(self.rows):
            return
        self.rows[index], self.rows[other] = self.rows[other], self.rows[index]
        self.rows_box.removeWidget(row)
        self.rows_box.insertWidget(other, row)
        self._renumber()

    def _renumber(self) -> None:
        current = self.dealer.currentIndex()
        self.dealer.clear()
        self.dealer.addItem("the game's rule (seat 1 unless the rules say)", None)
        for index, row in enumerate(self.rows, start=1):
            row.number.setText(str(index))
            self.dealer.addItem(f"seat {index}", index)
        self.dealer.setCurrentIndex(max(0, min(current, self.dealer.count() - 1)))

    def seats(self) -> list[dict[str, Any]]:
        return [row.seat() for row in self.rows]

    def first_dealer(self) -> int | None:
        return self.dealer.currentData()

    def validatePage(self) -> bool:
        """The engine checks the whole setup; its sentence is shown if it refuses."""
        wizard = self.session_wizard
        try:
            start_event(wizard.game(), wizard.options(), self.seats(), self.first_dealer())
        except RuleError as exc:
            self.error.setText(str(exc))
            return False
        self.error.setText("")
        return True


class SessionWizard(QWizard):
    """``game()``, ``options()``, ``seats()`` and ``first_dealer()`` once accepted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sessionWizard")
        self.setWindowTitle("New session")
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.game_page = GamePage(self)
        self.options_page = OptionsPage(self)
        self.players_page = PlayersPage(self)
        for page in (self.game_page, self.options_page, self.players_page):
            self.addPage(page)
        for which in (QWizard.WizardButton.NextButton, QWizard.WizardButton.BackButton,
                      QWizard.WizardButton.FinishButton, QWizard.WizardButton.CancelButton):
            self.button(which).setMinimumSize(130, 52)
            self.button(which).setStyleSheet("font-size: 17px; font-weight: 600;")
        self.setButtonText(QWizard.WizardButton.FinishButton, "Start")
        self.resize(900, 560)

    def game(self) -> str:
        return self.game_page.game()

    def options(self) -> dict[str, Any]:
        return self.options_page.options()

    def seats(self) -> list[dict[str, Any]]:
        return self.players_page.seats()

    def first_dealer(self) -> int | None:
        return self.players_page.first_dealer()
