"""The legal actions of the moment as big buttons in steady places.

Actions are grouped by kind (event type, what they ask, their fixed fields, their wording with
the player's name taken out). A kind that names a player ("Ante: Ann", "Bea bets") is one row:
its title, then one chip per seat in that seat's own column; a kind that names nobody ("Bet",
"Stand") is one wide button. A row keeps its place while its kind is legal; when it goes, its
place stays blank rather than letting another row slide under the dealer's finger (see
``SlotRows``). Costly kinds (forfeit, misdeal, cash out) sit apart, in red, below a rule.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.gui.input_panel import range_text
from dealer_assist.gui.metrics import TOUCH_MM, mm_px, touch_px
from dealer_assist.variants.base import Action

SHORTCUT_KEYS = tuple(f"F{n}" for n in range(1, 13))
# red and set apart; settle is confirmed by its settlement, the others by a dialog
COSTLY = ("handled_draw", "misdeal", "cash_out", "settle")
WIDE_SLOTS = {"settle": 0, "cash_out": 1, "misdeal": 1}  # fixed slots, left and right
COLLAPSED = {"cash_out": "Cash out…"}  # one button opens a chooser instead of a row per player
# a second tap on a place whose action changed this long ago or less is a double tap, ignored:
# the next player's "Stick" takes this player's place, so it would stick two players
DOUBLE_TAP_S = 0.4


def same_action(a: Action | None, b: Action | None) -> bool:
    """The same command (type, seat, fixed fields), whatever its limits are now."""
    if a is None or b is None:
        return False
    return (a.type, a.seat, a.fixed, a.asks) == (b.type, b.seat, b.fixed, b.asks)


def identity(action: Action) -> tuple:
    """What a tap on the action does, whatever its limits are now."""
    return (action.type, action.seat, action.fixed, action.asks)


def without_name(label: str, name: str) -> str:
    """``"Face-down card to Bea, entered"`` → ``"Face-down card to …, entered"``."""
    if not name:
        return label
    return re.sub(rf"\b{re.escape(name)}('s)?\b", "…", label, count=1)


def names_seat(action: Action, names: tuple[str, ...]) -> bool:
    """Whether the action's wording names its seat's player."""
    if action.seat is None or not 1 <= action.seat <= len(names):
        return False
    return without_name(action.label, names[action.seat - 1]) != action.label


@dataclass
class Group:
    """One kind of action: a row of seat chips (``named``) or one wide button."""

    key: tuple
    title: str
    named: bool
    costly: bool
    items: list[tuple[int, Action]] = field(default_factory=list)  # (index in actions, action)


def group_actions(actions: list[Action], names: tuple[str, ...]) -> list[Group]:
    """The actions grouped by kind, in the order each kind first appears."""
    groups: dict[tuple, Group] = {}
    for index, action in enumerate(actions):
        named = names_seat(action, names)
        if action.type in COLLAPSED:
            key: tuple = ("collapsed", action.type)
            title, named = COLLAPSED[action.type], False
        elif named:
            title = without_name(action.label, names[action.seat - 1])  # type: ignore[index]
            key = (action.type, action.asks, _fixed_key(action), re.sub(r"\s*\(.*?\)", "", title))
        else:
            title = action.label
            key = (action.type, action.asks, _fixed_key(action))  # the next player's
            # "Stick" takes the place of this one's: each kind has one place
        group = groups.get(key)
        if group is None:
            group = groups[key] = Group(key, title, named, action.type in COSTLY)
        elif group.title != title:  # the same kind worded differently per seat: "(...)" differs
            group.title = re.sub(r"\s*\(.*?\)", "", group.title)
        group.items.append((index, action))
    return list(groups.values())


def common_words(labels: list[str]) -> str:
    """The words every label starts with, with their trailing space ("Discard ")."""
    words = [label.split(" ") for label in labels]
    same = 0
    while all(len(w) > same + 1 and w[same] == words[0][same] for w in words):
        same += 1
    return " ".join(words[0][:same]) + " " if same else ""


def row_px() -> int:
    """The height of every row of actions: rows never change height, so they never move."""
    return touch_px() + 2


def _fixed_key(action: Action) -> tuple:
    return tuple((k, v) for k, v in action.fixed if k != "card" or v is None)


def explain(group: Group) -> str:
    """A line under the title where the wording alone leaves the dealer guessing."""
    action = group.items[0][1]
    if ("card", None) in action.fixed:
        return "not seen"
    return ""


def big_button(text: str, name: str, parent: QWidget) -> QPushButton:
    """A plain touch-sized button (undo, correct, void, history)."""
    button = QPushButton(text, parent)
    button.setObjectName(name)
    button.setMinimumHeight(touch_px())
    button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    return button


class ActionButton(QPushButton):
    """A big button whose label wraps onto two lines instead of being cut off."""

    def __init__(self, text: str, name: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.setFixedHeight(row_px())
        self.setMinimumWidth(mm_px(TOUCH_MM))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.label = QLabel(text, self)
        self.label.setObjectName("actionLabel")
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(3, 1, 3, 1)
        layout.addWidget(self.label)
        self.setAccessibleName(text)

    def sizeHint(self) -> QSize:  # every row the same height, whatever the style says
        return QSize(mm_px(TOUCH_MM), row_px())

    def minimumSizeHint(self) -> QSize:
        return QSize(mm_px(TOUCH_MM), row_px())

    def label_text(self) -> str:
        return self.label.text()


class SlotRows:
    """Row places that stay put under the finger: a kind keeps its row while it is legal; a
    row left blank is given to a new kind (never the row last tapped). Blanks below the row
    last tapped close up at once (nothing there is under the finger), so they do not pile up
    in a round; the row tapped last and the blanks above it stay (closing one above would
    slide the rows below it under the finger) until a tap above them, an entry made away from
    the panel (``ActionPanel``: ``last_row`` is then None) or the round's end. When the rows
    would not fit, every blank but the one last tapped closes."""

    def __init__(self, limit: int) -> None:
        self.rows: list[tuple | None] = []
        self.limit = limit
        self.last_row: int | None = None

    def restart(self) -> None:
        """Forget the rows, but keep the one last tapped blank."""
        self.rows = [None] * (self.last_row + 1) if self.last_row is not None else []

    def place(self, keys: list[tuple]) -> list[tuple | None]:
        wanted = set(keys)
        rows = [k if k in wanted else None for k in self.rows]
        last = self.last_row if self.last_row is not None and self.last_row < len(rows) else -1
        for key in keys:
            if key in rows:
                continue
            free = [i for i, k in enumerate(rows) if k is None and i != last]
            if free:
                rows[free[0]] = key
            else:
                rows.append(key)
        if len(rows) > self.limit:  # too many: close every blank but the one just tapped
            rows = [k for i, k in enumerate(rows) if k is not None or i == last]
        else:  # the blanks below the row tapped last close up
            rows = [k for i, k in enumerate(rows) if k is not None or i <= last]
        while rows and rows[-1] is None:
            rows.pop()
        self.rows = rows
        return rows


class Board(QWidget):
    """One grid of action rows: a title column, then one column per seat."""

    def __init__(self, name: str, limit: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(4)
        self.grid.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.slots = SlotRows(limit)
        self.widgets: list[QWidget] = []

    def clear(self) -> None:
        for widget in self.widgets:
            self.grid.removeWidget(widget)
            widget.hide()
            widget.deleteLater()
        self.widgets = []

    def add(self, widget: QWidget, row: int, col: int, span: int = 1) -> None:
        widget.setFixedHeight(row_px())
        self.grid.setRowMinimumHeight(row, row_px())
        self.grid.addWidget(widget, row, col, 1, span)
        widget.show()
        self.widgets.append(widget)


class ActionPanel(QWidget):
    """``triggered(index)`` when the dealer taps the button of ``actions[index]``;
    ``collapsed(type)`` for a button that stands for several actions (Cash out…);
    ``double_tap(index)`` when a tap is ignored because it came within DOUBLE_TAP_S of the
    place's action changing under the finger (the keyboard is never held back)."""

    triggered = Signal(int)
    collapsed = Signal(str)
    double_tap = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("actionPanel")
        self.actions_list: list[Action] = []
        self.buttons: dict[int, ActionButton] = {}  # action index -> its button or chip
        self.key_order: list[int | str] = []  # what F1, F2, ... trigger: an index or a type
        self.seat_count = 0
        self.costly_named = 0  # rows of per-seat costly actions kept this round
        self.round_key: object = None
        self.shown: dict[tuple, tuple] = {}  # place (board, row, column) -> action identity
        self.changed_at: dict[tuple, float] = {}  # place -> when its action last changed
        self.tapped_place: tuple | None = None
        self.entries_since_tap = 0
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(4)
        self.board = Board("actionBoard", 5, self)
        outer.addWidget(self.board)
        outer.addStretch(1)
        self.rule = QFrame(self)
        self.rule.setObjectName("costlyRule")
        self.rule.setFrameShape(QFrame.Shape.HLine)
        outer.addWidget(self.rule)
        self.costly = Board("costlyBoard", 0, self)
        outer.addWidget(self.costly)

    def set_actions(self, actions: list[Action], selected: Action | None,
                    names: tuple[str, ...] = (), round_key: object = None,
                    tapped: int | None = None) -> None:
        """Show ``actions``; ``tapped`` is the index (in the previous list) last tapped."""
        if tapped is not None:
            self._remember_tap(tapped)
            self.entries_since_tap = 0
        else:  # an entry typed or tapped on the grid or keypad
            self.entries_since_tap += 1
            if self.entries_since_tap > 1:  # not the one the tap asked for: the finger has
                for board in (self.board, self.costly):  # left the panel, blanks may close
                    board.slots.last_row = None
        if round_key != self.round_key or len(names) != self.seat_count:
            self.costly_named = 0
            self.board.slots.restart()  # a new round: afresh, but the place last tapped blank
            self.round_key, self.seat_count = round_key, len(names)
        self.actions_list = list(actions)
        self.buttons = {}
        self.key_order = []
        groups = group_actions(actions, names)
        costly = [g for g in groups if g.costly]
        named_rows = max(self.costly_named, sum(1 for g in costly if g.named))
        costly_rows = named_rows + 1 if costly else 0
        rows_here = max(1, (self.height() - 12) // (row_px() + 4))  # less the rule
        self.board.slots.limit = max(1, rows_here - costly_rows)
        board = self.board
        board.clear()
        mine = [g for g in groups if not g.costly]
        by_key = {g.key: g for g in mine}
        for row, key in enumerate(board.slots.place([g.key for g in mine])):
            if key is None:
                spacer = QWidget(board)
                spacer.setFixedHeight(row_px())
                board.add(spacer, row, 0)
                continue
            self._show_group(board, by_key[key], row, selected, names)
        self._show_costly(costly, selected, names)
        self.rule.setVisible(bool(self.costly.widgets))
        self.costly.setVisible(bool(self.costly.widgets))
        for board in (self.board, self.costly):  # empty columns keep their width too
            for col in range(len(names) + 1):
                board.grid.setColumnStretch(col, 1 if col else 0)
                board.grid.setColumnMinimumWidth(col, mm_px(TOUCH_MM) if col else
                                                 self.title_width())
        self._note_changes()
        QTimer.singleShot(0, self, self.fit_names)

    def place_of(self, button: QWidget) -> tuple | None:
        """(board, row, column) of a button: what stays under the finger."""
        for board in (self.board, self.costly):
            position = board.grid.indexOf(button)
            if position >= 0:
                row, col, _rows, _cols = board.grid.getItemPosition(position)
                return (board.objectName(), row, col)
        return None

    def _note_changes(self) -> None:
        """Remember when each place's action changed (the next player's Stick, say)."""
        now = time.monotonic()
        shown = {}
        for index, button in self.buttons.items():
            place = self.place_of(button)
            if place is None:
                continue
            shown[place] = identity(self.actions_list[index])
            if self.shown.get(place) != shown[place]:
                self.changed_at[place] = now
        self.shown = shown

    def _tap(self, index: int, button: QWidget) -> None:
        """A tap: ignored when it lands again on the place just tapped whose action has just
        changed to another (a double tap), else ``triggered``."""
        place = self.place_of(button)
        if (place is not None and place == self.tapped_place
                and time.monotonic() - self.changed_at.get(place, 0.0) < DOUBLE_TAP_S):
            self.double_tap.emit(index)
            return
        self.tapped_place = place
        self.triggered.emit(index)

    def _show_costly(self, groups: list[Group], selected: Action | None,
                     names: tuple[str, ...]) -> None:
        """Costly actions sit at the bottom, each kind in a fixed place: the per-seat ones
        (forfeits) in rows above one row where settle, cash out and misdeal keep their slots."""
        board = self.costly
        board.clear()
        named = [g for g in groups if g.named]
        wide = [g for g in groups if not g.named]
        columns = max(1, len(names)) + 1
        span = max(1, columns // 2)
        # per-seat rows once shown keep their place (blank) until the round ends
        self.costly_named = max(self.costly_named, len(named)) if groups else self.costly_named
        above = self.costly_named
        for row, group in enumerate(named):
            self._show_group(board, group, above - 1 - row, selected, names)
        for row in range(len(named), above):
            spacer = QWidget(board)
            board.add(spacer, above - 1 - row, 0)
        for group in wide:
            kind = group.items[0][1].type
            slot = WIDE_SLOTS.get(kind, 1)
            self._show_group(board, group, above, selected, names, slot * span,
                             span if slot == 0 else columns + 1 - span)
        for row in range(above + 1):
            board.grid.setRowMinimumHeight(row, row_px())

    def title_width(self) -> int:
        """The title column: wider on a wide panel, where the type is bigger too."""
        return max(touch_px() * 3, int(self.width() * 0.26))

    def _remember_tap(self, index: int) -> None:
        for board in (self.board, self.costly):
            board.slots.last_row = None
        button = self.buttons.get(index)
        if button is None:
            return
        for board in (self.board, self.costly):
            if button in board.widgets:
                position = board.grid.indexOf(button)
                if position >= 0:
                    board.slots.last_row = board.grid.getItemPosition(position)[0]

    def _show_group(self, board: Board, group: Group, row: int, selected: Action | None,
                    names: tuple[str, ...], col: int = 0, span: int | None = None) -> None:
        columns = max(1, len(names))
        whole = span or columns + 1
        first_index, first = group.items[0]
        if group.key[0] == "collapsed":
            button = self._button(group.title, first_index, first, selected, group.costly, board)
            button.clicked.connect(lambda _=False, t=first.type: self.collapsed.emit(t))
            self._key(button, first.type, f"{group.title}")
            for index, _action in group.items:
                self.buttons[index] = button
            board.add(button, row, col, whole)
            return
        if not group.named and len(group.items) == 1:
            index, action = group.items[0]
            text = action.label + (f" ({range_text(action)})" if action.asks == "amount" else "")
            hint = explain(group)
            button = self._button(text + (f" — {hint}" if hint else ""), index, action,
                                  selected, group.costly, board)
            board.add(button, row, col, whole)
            return
        if not group.named:  # "Discard 5H", "Discard KD": title "Discard", chips 5H, KD
            labels = [a.label for _i, a in group.items]
            prefix = common_words(labels)
            title = QLabel(prefix.strip() or group.title, board)
            title.setObjectName("groupTitle")
            title.setWordWrap(True)
            title.setFixedWidth(self.title_width())
            board.add(title, row, 0)
            for k, (index, action) in enumerate(group.items):
                button = self._button(action.label[len(prefix):], index, action, selected,
                                      group.costly, board)
                button.setToolTip(action.label)
                board.add(button, row, min(1 + k, columns))
            return
        heading = re.sub(r"\s+to …", "", group.title)  # "Face-down card to …, entered"
        heading = re.sub(r"[:\s]*…$", "", heading).strip()  # "Ante: …" → "Ante"
        heading = re.sub(r"^…\s*", "", heading)  # "… bets" → "bets"
        heading = heading[:1].upper() + heading[1:]
        if explain(group):
            heading += f" — {explain(group)}"
        title = QLabel(heading, board)
        title.setObjectName("groupTitle")
        title.setWordWrap(True)
        title.setTextFormat(Qt.TextFormat.PlainText)
        title.setToolTip(group.title)
        title.setFixedWidth(self.title_width())
        title.setToolTip(group.title + ": the card is entered later, when it is shown"
                         if explain(group) else group.title)
        board.add(title, row, 0)
        for index, action in sorted(group.items, key=lambda item: item[1].seat or 0):
            seat = action.seat or 1
            name = names[seat - 1] if seat <= len(names) else str(seat)
            text = name
            button = self._button(text, index, action, selected, group.costly, board)
            button.setProperty("seatChip", True)
            button.setProperty("full", text)
            button.setToolTip(action.label + (f" ({range_text(action)})"
                                              if action.asks == "amount" else ""))
            board.add(button, row, seat)

    def _button(self, text: str, index: int, action: Action, selected: Action | None,
                costly: bool, board: Board) -> ActionButton:
        button = ActionButton(text, f"action_{index}", board)
        button.setProperty("asks", action.asks or "")
        button.setProperty("selected", same_action(action, selected))
        button.setProperty("costly", costly)
        if not (costly and action.type in COLLAPSED):
            button.clicked.connect(lambda _=False, i=index, b=button: self._tap(i, b))
            self._key(button, index, action.label)
        self.buttons[index] = button
        return button

    def _key(self, button: ActionButton, target: int | str, label: str) -> None:
        if target in self.key_order:
            return
        self.key_order.append(target)
        number = len(self.key_order)
        key = SHORTCUT_KEYS[number - 1] if number <= len(SHORTCUT_KEYS) else ""
        button.setToolTip(f"{label} ({key})" if key else label)
        button.setProperty("key", key)

    def fit_names(self) -> None:
        """A chip too narrow for its player's name shows the seat number instead."""
        for index, button in self.buttons.items():
            if not button.property("seatChip"):
                continue
            action = self.actions_list[index]
            full = button.property("full") or button.label.text()
            metrics = button.label.fontMetrics()
            room = button.label.contentsRect().width()
            fits = all(metrics.horizontalAdvance(w) <= room for w in full.split())
            button.label.setText(full if fits else str(action.seat))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        for board in (self.board, self.costly):
            board.grid.setColumnMinimumWidth(0, self.title_width())
            for title in board.findChildren(QLabel, "groupTitle"):
                title.setFixedWidth(self.title_width())
        self.fit_names()

    def shown_text(self, index: int) -> str:
        """What the dealer reads for ``actions[index]``: its row's title and its button."""
        button = self.buttons[index]
        for board in (self.board, self.costly):
            position = board.grid.indexOf(button)
            if position < 0:
                continue
            row = board.grid.getItemPosition(position)[0]
            item = board.grid.itemAtPosition(row, 0)
            title = item.widget() if item is not None else None
            if isinstance(title, QLabel):
                return f"{title.text()} {button.label_text()}"
        return button.label_text()

    def button_for(self, label: str) -> ActionButton:
        """The button of the first action with this label (tests, camera)."""
        for index, action in enumerate(self.actions_list):
            if action.label == label:
                return self.buttons[index]
        raise LookupError(f"no action {label!r}; actions: "
                          f"{', '.join(a.label for a in self.actions_list)}")

    def shortcut_target(self, number: int) -> int | str | None:
        """What F``number`` (1-based) triggers: an action index, or a collapsed type."""
        return self.key_order[number - 1] if 0 < number <= len(self.key_order) else None
