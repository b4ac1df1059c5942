"""The legal actions of the moment as big buttons in steady places.

Actions are grouped by kind (event type, what they ask, their fixed fields, their wording with
the player's name taken out). A kind that names a player ("Ante: Ann", "Bea bets") is one row:
its title, then one chip per seat in that seat's own column; a kind that names nobody ("Bet",
"Stand") is one wide button. A row keeps its place while its kind is legal; when it goes, its
place stays blank rather than letting another row slide under the dealer's finger (see
``SlotRows``). Costly kinds (forfeit, misdeal, cash out) sit apart, in red, below a rule.

When the seats' chips need more than one line (many seats, long names, a narrow panel), a row
per kind would take two to four lines each and the rows would not fit: the panel then acts for
one seat at a time. Every kind that names a player is one wide button for that seat ("Play",
"Fold", "Card 1 of 3"), in its steady place, greyed where that kind is not the seat's now. With
more than six seats, a row of seat chips on top chooses the seat ("For"); with up to six, every
seat is in view on the felt (the seats never scroll), so a tap on the seat there chooses it, the
wide buttons name it ("Fold: Maria") and the "For" row's height stays with the felt.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFontMetrics
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
ONE_LINE_SEATS = 6  # up to this many seats the felt shows every seat, and the panel asks
# for room for one line of chips
CHIP_EDGES = 10  # a chip's border, padding and label margins around its widest word


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


def heading(group: Group) -> str:
    """A named kind's wording without the player: "Ante: …" → "Ante", "… bets" → "Bets"."""
    text = re.sub(r"\s+to …", "", group.title)  # "Face-down card to …, entered"
    text = re.sub(r"^…\s*", "", text)  # "… bets"
    text = re.sub(r"[:\s]*…", "", text).strip()  # "Ante: …", "Play: … (Play wager 1)"
    text = text[:1].upper() + text[1:]
    return text + (f" — {explain(group)}" if explain(group) else "")


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
    would not fit, every blank but the one last tapped closes.

    A row of seat chips may take several lines (many seats on a narrow panel): such a
    "tall" kind gets a blank row only if that row is as tall, else a new row at the end;
    a row never gets lower within a round, so nothing below it ever moves."""

    def __init__(self, limit: int) -> None:
        self.rows: list[tuple | None] = []
        self.heights: list[int] = []  # lines per row
        self.tall = 1  # the lines of a row of chips
        self.limit = limit  # in lines
        self.last_row: int | None = None

    def restart(self) -> None:
        """Forget the rows, but keep the one last tapped blank."""
        if self.last_row is not None and self.last_row < len(self.rows):
            self.rows = [None] * (self.last_row + 1)
            self.heights = self.heights[:self.last_row + 1]
        else:
            self.rows, self.heights = [], []

    def place(self, keys: list[tuple], tall: int = 1,
              tall_keys: frozenset = frozenset()) -> list[tuple | None]:
        """The rows for ``keys``; ``tall_keys`` take ``tall`` lines, the others one."""
        if tall != self.tall:  # the chips take other lines now: the rows start afresh
            self.rows, self.heights, self.last_row, self.tall = [], [], None, tall
        wanted = set(keys)
        rows = [k if k in wanted else None for k in self.rows]
        heights = list(self.heights) + [1] * (len(rows) - len(self.heights))
        last = self.last_row if self.last_row is not None and self.last_row < len(rows) else -1
        for key in keys:
            if key in rows:
                continue
            need = tall if key in tall_keys else 1
            free = [i for i, k in enumerate(rows) if k is None and i != last
                    and heights[i] >= need]
            if free:
                rows[free[0]] = key
            else:
                rows.append(key)
                heights.append(need)
        if sum(heights) > self.limit:  # too many: close every blank but the one just tapped
            keep = [i for i, k in enumerate(rows) if k is not None or i == last]
        else:  # the blanks below the row tapped last close up
            keep = [i for i, k in enumerate(rows) if k is not None or i <= last]
        rows, heights = [rows[i] for i in keep], [heights[i] for i in keep]
        while rows and rows[-1] is None:
            rows.pop()
            heights.pop()
        self.rows, self.heights = rows, heights
        return rows

    def row_at(self, line: int) -> int:
        """The row that grid line ``line`` belongs to."""
        for row in range(len(self.heights)):
            if line < self.top(row + 1):
                return row
        return len(self.heights) + line - self.top(len(self.heights))

    def top(self, row: int) -> int:
        """The first line of row ``row``."""
        return sum(self.heights[:row])


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

    def add(self, widget: QWidget, row: int, col: int, span: int = 1, rows: int = 1) -> None:
        widget.setFixedHeight(rows * row_px() + (rows - 1) * self.grid.spacing())
        for line in range(row, row + rows):
            self.grid.setRowMinimumHeight(line, row_px())
        self.grid.addWidget(widget, row, col, rows, span)
        widget.show()
        self.widgets.append(widget)


@dataclass(frozen=True)
class ChipLines:
    """How the seat chips of a row are laid out: ``per_line`` seats on each of ``lines``
    lines (seat s on line (s-1) // per_line, always the same place), in ``compact`` type."""

    per_line: int
    lines: int = 1
    compact: bool = False
    picker: bool = False  # acting for one seat at a time, chosen on a "For" row of chips

    def place(self, seat: int) -> tuple[int, int]:
        """The (line, column) of seat ``seat``'s chip; column 0 is the row's title."""
        return (seat - 1) // self.per_line, 1 + (seat - 1) % self.per_line

    @property
    def one_seat(self) -> bool:
        """Chips on more than one line: the panel acts for one seat at a time."""
        return self.lines > 1

    @property
    def picker_lines(self) -> int:
        """The lines of the "For" row (none where the seats on the felt choose)."""
        return self.lines if self.one_seat and self.picker else 0

    @property
    def felt_chooses(self) -> bool:
        """One seat at a time, chosen by a tap on the seat on the felt (no "For" row)."""
        return self.one_seat and not self.picker


class ActionPanel(QWidget):
    """``triggered(index)`` when the dealer taps the button of ``actions[index]``;
    ``collapsed(type)`` for a button that stands for several actions (Cash out…);
    ``double_tap(index)`` when a tap is ignored because it came within DOUBLE_TAP_S of the
    place's action changing under the finger (the keyboard is never held back);
    ``lines_changed()`` when a row of seat chips starts taking more or fewer lines (many
    seats on a narrow panel), so that the screen gives the panel the height it needs;
    ``seat_chosen(seat)`` when the dealer taps a seat's chip on the "For" row (one seat at a
    time: see the module's docstring)."""

    triggered = Signal(int)
    seat_chosen = Signal(int)
    collapsed = Signal(str)
    double_tap = Signal(int)
    lines_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("actionPanel")
        self.actions_list: list[Action] = []
        self.buttons: dict[int, ActionButton] = {}  # action index -> its button or chip
        self.key_order: list[int | str] = []  # what F1, F2, ... trigger: an index or a type
        self.seat_count = 0
        self.chips = ChipLines(1)
        self.names: tuple[str, ...] = ()
        self.selected: Action | None = None
        self.focus: int | None = None  # the seat acted for, one seat at a time
        self.seat_chips: dict[int, ActionButton] = {}
        self._metrics: dict[tuple, QFontMetrics] = {}
        self.costly_named = 0  # rows of per-seat costly actions kept this round
        self.round_key: object = None
        self.shown: dict[tuple, tuple] = {}  # place (board, row, column) -> action identity
        self.changed_at: dict[tuple, float] = {}  # place -> when its action last changed
        self.tapped_place: tuple | None = None
        self.entries_since_tap = 0
        outer = QVBoxLayout(self)
        # the panel's width is what minimumSizeHint asks, not the rows' widest (the rows are
        # laid out for the width the panel gets: more lines of chips when it is narrow)
        outer.setSizeConstraint(QVBoxLayout.SizeConstraint.SetNoConstraint)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(4)
        self.picker = Board("seatPicker", 0, self)
        outer.addWidget(self.picker)
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
                    tapped: int | None = None, focus: int | None = None) -> None:
        """Show ``actions``; ``tapped`` is the index (in the previous list) last tapped;
        ``focus`` the seat acted for when the panel acts for one seat at a time."""
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
        if names != self.names:
            self.names = names
            self.updateGeometry()  # the room one line of chips needs
        self.selected = selected
        self.focus = focus
        self.buttons = {}
        self.key_order = []
        chips = self.chip_lines(names)
        if chips.picker_lines != self.chips.picker_lines:
            self.chips = chips
            self.lines_changed.emit()  # the screen makes room first: the rows fit below
        self.chips = chips
        lines = chips.lines
        groups = group_actions(actions, names)
        costly = [g for g in groups if g.costly]
        named_rows = max(self.costly_named, sum(1 for g in costly if g.named))
        row_lines = 1 if chips.one_seat else lines  # the lines of a row of a named kind
        costly_lines = named_rows * row_lines + 1 if costly else 0
        rows_here = max(1, (self.height() - 12) // (row_px() + 4))  # less the rule
        picker_lines = chips.picker_lines
        self.board.slots.limit = max(1, rows_here - costly_lines - picker_lines)
        self._show_picker(names)
        board = self.board
        board.clear()
        for line in range(board.grid.rowCount()):
            board.grid.setRowMinimumHeight(line, 0)
        mine = [g for g in groups if not g.costly]
        by_key = {g.key: g for g in mine}
        tall = frozenset(g.key for g in mine if (g.named and not chips.one_seat)
                         or (not g.named and len(g.items) > 1))
        slots = board.slots
        for slot, key in enumerate(slots.place([g.key for g in mine], lines, tall)):
            height = slots.heights[slot]
            if key is None:  # a blank keeps its height: nothing below it moves
                board.add(QWidget(board), slots.top(slot), 0, rows=height)
                continue
            self._show_group(board, by_key[key], slots.top(slot), selected, names,
                             lines=height)
        self._show_costly(costly, selected, names)
        self.rule.setVisible(bool(self.costly.widgets))
        self.costly.setVisible(bool(self.costly.widgets))
        for board in (self.picker, self.board, self.costly):  # empty columns keep their width
            for col in range(max(board.grid.columnCount(), chips.per_line + 1)):
                board.grid.setColumnStretch(col, 1 if 0 < col <= chips.per_line else 0)
                board.grid.setColumnMinimumWidth(  # never wider than the panel's room
                    col, self.title_width() if col == 0 else
                    mm_px(TOUCH_MM) if col <= chips.per_line else 0)
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

    def chip_lines(self, names: tuple[str, ...]) -> ChipLines:
        """One line of chips in the row type if every name fits, else in the compact type,
        else as many lines as the compact chips need (a name is never cut or replaced)."""
        seats = max(1, len(names))
        room = self.width() - self.title_width(1)
        if room <= 0:  # not laid out yet
            return ChipLines(seats)
        for compact in (False, True):
            if seats * (self.chip_width(names, compact) + 4) <= room:
                return ChipLines(seats, 1, compact)
        room = self.width() - self.title_width(2)
        per_line = max(1, room // (self.chip_width(names, True) + 4))
        lines = -(-seats // per_line)
        return ChipLines(-(-seats // lines), lines, True,  # balanced: 5 + 5, not 8 + 2
                         picker=seats > ONE_LINE_SEATS)  # else the felt chooses the seat

    def chip_width(self, names: tuple[str, ...], compact: bool) -> int:
        """The narrowest chip that shows every word of every name, and 9 mm at least."""
        metrics = self._chip_metrics(compact)
        words = [w for name in names for w in name.split()] or ["0"]
        return max(mm_px(TOUCH_MM), max(metrics.horizontalAdvance(w) for w in words) + CHIP_EDGES)

    def _chip_metrics(self, compact: bool) -> QFontMetrics:
        """The chip label's type as the theme sets it (measured on a hidden chip)."""
        key = (compact, hash(self.window().styleSheet()))  # the theme is set on the window
        if key not in self._metrics:
            self._metrics[key] = self._measure(compact)
        return self._metrics[key]

    def _measure(self, compact: bool) -> QFontMetrics:
        probe = ActionButton("", "chipProbe", self)
        probe.setProperty("seatChip", True)
        probe.setProperty("compact", compact)
        probe.layout().setContentsMargins(1, 1, 1, 1)
        probe.hide()
        probe.ensurePolished()
        probe.label.ensurePolished()
        metrics = probe.label.fontMetrics()
        probe.setParent(None)
        return metrics

    def minimumSizeHint(self) -> QSize:
        """Up to six seats, room for one line of chips in the compact type (the cards beside
        give way down to 9 mm) if the window has that room; else three chips a line."""
        least = touch_px() * 3 + 3 * (self.chip_width(self.names, True) + 4) + 2
        hint = QSize(least, super().minimumSizeHint().height())
        if not 0 < len(self.names) <= ONE_LINE_SEATS:
            return hint
        one_line = touch_px() * 3 + len(self.names) * (self.chip_width(self.names, True) + 4) + 2
        return QSize(max(least, min(one_line, self._room_beside())), hint.height())

    def _room_beside(self) -> int:
        """The width the row beside leaves the panel (the cards and tools at their least)."""
        parent = self.parentWidget()
        layout = parent.layout() if parent is not None else None
        if layout is None:
            return 0
        others = sum(layout.itemAt(i).minimumSize().width() + layout.spacing()
                     for i in range(layout.count()) if layout.itemAt(i).widget() is not self)
        margins = layout.contentsMargins()
        return parent.width() - others - margins.left() - margins.right()

    def action_lines(self, rows: int) -> int:
        """The lines of buttons ``rows`` rows of actions take: one each, and the "For" row's
        lines when the panel acts for one seat at a time."""
        return rows + self.chips.picker_lines

    def _show_costly(self, groups: list[Group], selected: Action | None,
                     names: tuple[str, ...]) -> None:
        """Costly actions sit at the bottom, each kind in a fixed place: the per-seat ones
        (forfeits) in rows above one row where settle, cash out and misdeal keep their slots."""
        board = self.costly
        board.clear()
        named = [g for g in groups if g.named]
        wide = [g for g in groups if not g.named]
        lines = 1 if self.chips.one_seat else self.chips.lines
        columns = self.chips.per_line + 1
        span = max(1, columns // 2)
        for line in range(board.grid.rowCount()):
            board.grid.setRowMinimumHeight(line, 0)
        # per-seat rows once shown keep their place (blank) until the round ends
        self.costly_named = max(self.costly_named, len(named)) if groups else self.costly_named
        above = self.costly_named * lines
        for row, group in enumerate(named):
            self._show_group(board, group, above - lines * (1 + row), selected, names)
        for row in range(len(named), self.costly_named):
            board.add(QWidget(board), above - lines * (1 + row), 0, rows=lines)
        for group in wide:
            kind = group.items[0][1].type
            slot = WIDE_SLOTS.get(kind, 1)
            self._show_group(board, group, above, selected, names, slot * span,
                             span if slot == 0 else columns + 1 - span)
        for row in range(above + 1):
            board.grid.setRowMinimumHeight(row, row_px())
        for col in range(columns):
            board.grid.setColumnMinimumWidth(col, 0)

    def _show_picker(self, names: tuple[str, ...]) -> None:
        """One seat at a time: the "For" row, a chip per seat in its own place (greyed when
        the seat has nothing to do now), the seat acted for marked."""
        board = self.picker
        board.clear()
        self.seat_chips = {}
        for line in range(board.grid.rowCount()):
            board.grid.setRowMinimumHeight(line, 0)
        chips = self.chips
        board.setVisible(chips.picker_lines > 0)
        if not chips.picker_lines:
            return
        title = QLabel("For", board)
        title.setObjectName("groupTitle")
        title.setFixedWidth(self.title_width())
        board.add(title, 0, 0, rows=chips.lines)
        busy = {action.seat for action in self.actions_list if action.seat}
        for seat, name in enumerate(names, start=1):
            chip = ActionButton(name, f"seatFor_{seat}", board)
            chip.setProperty("seatChip", True)
            chip.setProperty("compact", chips.compact)
            chip.setProperty("focused", seat == self.focus)
            chip.layout().setContentsMargins(1, 1, 1, 1)  # CHIP_EDGES
            chip.setEnabled(seat in busy)
            chip.setToolTip(f"The buttons below act for {name}")
            chip.setAccessibleName(f"act for {name}")
            chip.clicked.connect(lambda _=False, s=seat: self.seat_chosen.emit(s))
            line, column = chips.place(seat)
            board.add(chip, line, column)
            self.seat_chips[seat] = chip

    def _show_for_seat(self, board: Board, group: Group, row: int, selected: Action | None,
                       col: int, span: int) -> None:
        """A named kind, one seat at a time: one wide button for the seat acted for; greyed
        (and in its place still) when that seat has no such action now."""
        text = heading(group)
        mine = [(index, action) for index, action in group.items if action.seat == self.focus]
        if not mine:
            button = ActionButton(text, "actionNotNow", board)
            button.setProperty("costly", group.costly)
            button.setEnabled(False)
            who = self.names[self.focus - 1] if self.focus and self.focus <= len(self.names) \
                else "this seat"
            button.setToolTip(f"{text}: not for {who} now")
            board.add(button, row, col, span)
            return
        index, action = mine[0]
        if action.asks == "amount":
            text += f" ({range_text(action)})"
        if self.chips.felt_chooses:  # the button says for whom
            text += f": {self.names[action.seat - 1]}"
        button = self._button(text, index, action, selected, group.costly, board)
        board.add(button, row, col, span)

    def title_width(self, lines: int | None = None) -> int:
        """The title column: wider on a wide panel, where the type is bigger too; narrower
        when rows of chips take two lines or more (a title then has that height to wrap in)."""
        if (self.chips.lines if lines is None else lines) > 1:
            return max(touch_px() * 2, int(self.width() * 0.18))
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
                    board.slots.last_row = board.slots.row_at(
                        board.grid.getItemPosition(position)[0])

    def _show_group(self, board: Board, group: Group, row: int, selected: Action | None,
                    names: tuple[str, ...], col: int = 0, span: int | None = None,
                    lines: int | None = None) -> None:
        """A group from grid row ``row``, ``lines`` lines tall (a row of chips: as many as
        the chips take; a wide button fills its place)."""
        chips = self.chips
        columns = chips.per_line
        whole = span or columns + 1
        lines = lines or (1 if span is not None or not group.named else chips.lines)
        first_index, first = group.items[0]
        if group.key[0] == "collapsed":
            button = self._button(group.title, first_index, first, selected, group.costly, board)
            button.clicked.connect(lambda _=False, t=first.type: self.collapsed.emit(t))
            self._key(button, first.type, f"{group.title}")
            for index, _action in group.items:
                self.buttons[index] = button
            board.add(button, row, col, whole, lines)
            return
        if not group.named and len(group.items) == 1:
            index, action = group.items[0]
            text = action.label + (f" ({range_text(action)})" if action.asks == "amount" else "")
            hint = explain(group)
            button = self._button(text + (f" — {hint}" if hint else ""), index, action,
                                  selected, group.costly, board)
            board.add(button, row, col, whole, lines)
            return
        if not group.named:  # "Discard 5H", "Discard KD": title "Discard", chips 5H, KD
            labels = [a.label for _i, a in group.items]
            prefix = common_words(labels)
            title = QLabel(prefix.strip() or group.title, board)
            title.setObjectName("groupTitle")
            title.setWordWrap(True)
            title.setFixedWidth(self.title_width())
            board.add(title, row, 0, rows=lines)
            for k, (index, action) in enumerate(group.items):
                button = self._button(action.label[len(prefix):], index, action, selected,
                                      group.costly, board)
                button.setToolTip(action.label)
                line, column = chips.place(min(k + 1, columns * lines))
                board.add(button, row + line, column)
            return
        if self.chips.one_seat:
            self._show_for_seat(board, group, row, selected, col, whole)
            return
        title = QLabel(heading(group), board)
        title.setObjectName("groupTitle")
        title.setWordWrap(True)
        title.setTextFormat(Qt.TextFormat.PlainText)
        title.setToolTip(group.title)
        title.setFixedWidth(self.title_width())
        title.setToolTip(group.title + ": the card is entered later, when it is shown"
                         if explain(group) else group.title)
        board.add(title, row, 0, rows=lines)
        for index, action in sorted(group.items, key=lambda item: item[1].seat or 0):
            seat = action.seat or 1
            name = names[seat - 1] if seat <= len(names) else str(seat)
            button = self._button(name, index, action, selected, group.costly, board)
            button.setProperty("seatChip", True)
            button.setProperty("compact", chips.compact)
            button.layout().setContentsMargins(1, 1, 1, 1)  # CHIP_EDGES
            button.setToolTip(action.label + (f" ({range_text(action)})"
                                              if action.asks == "amount" else ""))
            line, column = chips.place(seat)
            board.add(button, row + line, column)

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
        """After a resize: the chips' lines and type again, if the names no longer fit."""
        names = self.names
        if names and self.chip_lines(names) != self.chips:
            self.set_actions(self.actions_list, self.selected, names, self.round_key,
                             focus=self.focus)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        for board in (self.picker, self.board, self.costly):
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
