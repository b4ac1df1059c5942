"""The dealer's table screen: the table, the legal actions, card and amount entry.

It shows ``session.view()`` and ``session.legal_actions()`` and sends commands; every value,
payout and turn comes from the game. A refused command shows the game's sentence and changes
nothing. An event that would complete a round is first shown as its settlement (the game's own
``apply``, run without recording), and recorded only when the dealer confirms it; a costly
one (forfeit, misdeal, cash out) is first confirmed with its consequence spelled out.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget

from dealer_assist.errors import RuleError, StorageError
from dealer_assist.gui.action_panel import (
    SHORTCUT_KEYS,
    ActionPanel,
    big_button,
    row_px,
    same_action,
)
from dealer_assist.gui.confirm import ConfirmDialog, consequence
from dealer_assist.gui.head_widget import add_head, session_head
from dealer_assist.gui.history import HistoryDialog
from dealer_assist.gui.input_panel import InputPanel
from dealer_assist.gui.metrics import seats_scroll, touch_px
from dealer_assist.gui.offer_dialog import ChooserDialog, OfferDialog, offer_actions
from dealer_assist.gui.prompt_bar import PromptBar
from dealer_assist.gui.settlement_dialog import SettlementDialog, next_dealer_text
from dealer_assist.gui.storage_dialog import show_storage_error
from dealer_assist.gui.table_view import LEAST_HEIGHT, TableWidget
from dealer_assist.gui.void_dialog import EntryDialog, correctable, describe
from dealer_assist.session.engine import Session
from dealer_assist.variants.base import Action, RoundResult

ACTION_ROWS = 6  # rows of action buttons the bottom always has room for
SEATS_LEAST = 96  # the seats keep this much height (and scroll) under a "For" row
SEAT_PREFIX = re.compile(r"(\d)\s+(\S+)")  # "3 7c": seat 3, card 7c


def function_key(event) -> int:
    """1 for F1 … 12 for F12 (without Ctrl or Alt), else 0."""
    number = event.key() - Qt.Key.Key_F1 + 1
    if not 1 <= number <= len(SHORTCUT_KEYS) or event.modifiers() & (
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier):
        return 0
    return number


class TableScreen(QWidget):
    """One session's table. ``round_settled(result)`` and ``game_over()`` tell the window."""

    round_settled = Signal(object)
    game_over = Signal()
    changed = Signal()
    went_on = Signal()  # the dealer's next tap, key or typed character on the table

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tableScreen")
        # paint the theme's background (a plain QWidget ignores a stylesheet's): in the dark
        # theme its light labels were on light grey
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.session = session
        self.actions: list[Action] = []
        self.selected: Action | None = None
        self.settlement: SettlementDialog | None = None
        self.offer: OfferDialog | None = None
        self.dialog: Any = None
        self._pending: dict[str, Any] | None = None
        self._tapped: int | None = None
        self.focus_seat: int | None = None  # chosen by a tap on a seat, until the next entry
        self.slip: QWidget | None = None  # the last round's slip (MainWindow.show_slip)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 6)
        layout.setSpacing(4)
        self.table = TableWidget(self)
        self.table.seat_clicked.connect(self.choose_seat)
        layout.addWidget(seats_scroll(self.table), 1)  # many seats scroll, the actions never
        self.panel = ActionPanel(self)
        self.panel.lines_changed.connect(self.fit_bottom)
        self.panel.triggered.connect(self.trigger)
        self.panel.collapsed.connect(self.choose_collapsed)
        self.panel.double_tap.connect(self._double_tap)
        self.panel.seat_chosen.connect(self.choose_seat)
        self.input = InputPanel(self)
        self.input.card.connect(self.enter_card)
        self.input.amount.connect(self.enter_amount)
        self.input.entry.textChanged.connect(lambda text: text and self.went_on.emit())
        self.went_on.connect(self._put_slip_away)
        self.bar = PromptBar(self.input.entry, self)
        layout.addWidget(self.bar)
        self.bottom = QWidget(self)
        self.bottom.setObjectName("controls")
        bottom = QHBoxLayout(self.bottom)
        bottom.setContentsMargins(0, 0, 0, 0)
        bottom.setSpacing(8)
        bottom.addWidget(self.panel, 45)
        bottom.addWidget(self.input, 55)
        tools = QVBoxLayout()
        tools.setSpacing(4)
        self.undo_button = big_button("Undo", "undoButton", self)
        self.undo_button.setToolTip("Withdraw the last entry of this round (Ctrl+Z)")
        self.undo_button.clicked.connect(self.undo)
        self.correct_button = big_button("Correct…", "correctButton", self)
        self.correct_button.setToolTip("Replace a card or an amount entered earlier in this "
                                       "round; the later entries are kept (Ctrl+K)")
        self.correct_button.clicked.connect(self.open_correct)
        self.void_button = big_button("Void…", "voidButton", self)
        self.void_button.setToolTip("Void an earlier entry of this round, with a reason (Ctrl+D)")
        self.void_button.clicked.connect(self.open_void)
        self.history_button = big_button("History", "historyButton", self)
        self.history_button.setToolTip("The rounds so far and their settlements (Ctrl+H)")
        self.history_button.clicked.connect(self.open_history)
        for button in (self.undo_button, self.correct_button, self.void_button,
                       self.history_button):
            tools.addWidget(button)
        tools.addStretch(1)
        bottom.addLayout(tools)
        layout.addWidget(self.bottom)
        self._shortcuts()
        self.refresh()

    def _shortcuts(self) -> None:
        """Ctrl keys are window shortcuts. F-keys are key presses that bubble up to this
        screen (``keyPressEvent``) from whichever widget has the focus: unlike QShortcut they
        also work right after a dialog closed, before the window is active again."""
        context = Qt.ShortcutContext.WindowShortcut
        bindings = (("Ctrl+Z", self.undo), ("Ctrl+D", self.open_void),
                    ("Ctrl+K", self.open_correct), ("Ctrl+H", self.open_history),
                    ("Escape", self.input.entry.clear))
        for key, slot in bindings:
            QShortcut(QKeySequence(key), self, context=context).activated.connect(slot)

    def keyPressEvent(self, event) -> None:
        number = function_key(event)
        if number:
            self.shortcut(number)
            event.accept()
            return
        super().keyPressEvent(event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit_bottom()
        self.fit_tools()

    def fit_bottom(self) -> None:
        """Room for the rows of actions (taller when a row of seat chips takes two lines)."""
        pitch = row_px() + 4
        wanted = self.panel.action_lines(ACTION_ROWS) * pitch + 12
        seats = SEATS_LEAST if self.panel.chips.picker_lines else LEAST_HEIGHT
        room = self.height() - self.bar.sizeHint().height() - seats - 20  # margins, spacing
        self.bottom.setFixedHeight(max(min(wanted, room), ACTION_ROWS * pitch + 12,
                                       int(self.height() * 0.4)))
        self.layout().activate()  # the panel has its new height before its rows are placed
        self.bottom.layout().activate()

    def fit_tools(self) -> None:
        """The tool buttons as wide as their words at the type size in use."""
        tools = (self.undo_button, self.correct_button, self.void_button, self.history_button)
        self.undo_button.ensurePolished()
        words = max(b.fontMetrics().horizontalAdvance(b.text()) for b in tools)
        for button in tools:
            button.setFixedWidth(max(int(touch_px() * 2.5), words + 24))

    # ------------------------------------------------------------ showing

    def refresh(self) -> None:
        view = self.session.view()
        self.actions = self.session.legal_actions()
        keep = next((a for a in self.actions if same_action(a, self.selected)), None)
        self.selected = keep or self._default_action(view.to_act)
        self.table.show_view(view)
        pot = (f"Pot {view.pot}",) if view.pot is not None else ()
        self.bar.show_prompt(view.prompt, pot + tuple(view.info))
        self._show_actions(view.round_number, tapped=self._tapped)
        self._tapped = None
        entries = self.session.round_entries
        self.undo_button.setEnabled(bool(entries))
        self.void_button.setEnabled(bool(entries))
        self.correct_button.setEnabled(any(correctable(e) for e in entries))
        self._show_input()
        self._offer(view.prompt)
        self.changed.emit()

    def _show_actions(self, round_key: object, tapped: int | None = None) -> None:
        focus = self.acting_for()
        self.panel.set_actions(self.actions, self.selected, self.session.names,
                               round_key=round_key, tapped=tapped, focus=focus)
        # one seat at a time, chosen on the felt: the felt shows which
        self.table.mark_acting_for(focus if self.panel.chips.felt_chooses else None)

    def acting_for(self) -> int | None:
        """The seat the panel acts for when it shows one seat at a time: the seat the dealer
        tapped (until the next entry), else the seat the entry goes to, else the seat on turn,
        else the first seat with something to do."""
        busy = [a.seat for a in self.actions if a.seat]
        view = self.session.view()
        for seat in (self.focus_seat, self.selected.seat if self.selected else None,
                     view.to_act):
            if seat in busy:
                return seat
        return busy[0] if busy else None

    def _show_input(self) -> None:
        self.input.set_action(self.selected, self.session.view().usable_cards)
        seat = self.selected.seat if self.selected is not None else None
        names = self.session.names
        self.bar.show_target(f"→ {names[seat - 1]}" if seat and seat <= len(names) else "")
        self.input.entry.setFocus()

    def _offer(self, prompt: str) -> None:
        """A bank offer (or another yes/no put to one player) is asked in a dialog."""
        offers = offer_actions(self.actions)
        if self.offer is not None and [a.label for a in self.offer.actions] != [
                a.label for a in offers]:
            self.offer.close()
            self.offer = None
        if offers and self.offer is None:
            self.offer = OfferDialog(prompt, offers, self)
            self.offer.chosen.connect(self._offer_chosen)
            self.offer.rejected.connect(self._offer_closed)
            self.offer.open()

    def _offer_chosen(self, action: Action) -> None:
        self.offer = None
        self.request(action.event())

    def _offer_closed(self) -> None:
        self.offer = None  # the same answers stay in the action panel

    def _default_action(self, to_act: int | None) -> Action | None:
        asking = [a for a in self.actions if a.asks]
        for action in asking:
            if action.seat == to_act:
                return action
        return asking[0] if asking else None

    def dealer_role(self) -> str:
        """The game's word for the dealer seat's role ("dealer", "banker", ...)."""
        view = self.session.view()
        roles = [s.role for s in view.seats if s.seat == view.dealer_seat and s.role]
        return roles[0] if roles else "dealer"

    def say(self, text: str, error: bool = False) -> None:
        self.bar.show_message(text, error)
        if error:  # the next keystroke replaces what was refused
            self.input.entry.selectAll()

    # ------------------------------------------------------------ input

    def shortcut(self, number: int) -> None:
        """F``number``: the action in that place, counted as the buttons are laid out."""
        target = self.panel.shortcut_target(number)
        if isinstance(target, str):
            self.choose_collapsed(target)
        elif target is not None:
            self.trigger(target)

    def trigger(self, index: int) -> None:
        """A tap on the button of ``actions[index]``: send it, or choose it for the entry."""
        if not 0 <= index < len(self.actions):
            return
        action = self.actions[index]
        self._tapped = index
        self.went_on.emit()
        if action.type == "stand" and self._choose_hidden(action):
            return
        if action.asks:
            self.selected = action
            self._show_actions(self.session.view().round_number, tapped=index)
            self._tapped = None
            self._show_input()
            self.changed.emit()
            return
        self.request(action.event())

    def _double_tap(self, index: int) -> None:
        action = self.actions[index]
        names = self.session.names
        who = f" ({names[action.seat - 1]})" if action.seat and action.seat <= len(names) else ""
        self.say(f"Second tap ignored: that button has just become “{action.label}”{who}. "
                 "Tap again to do it.")

    def _choose_hidden(self, action: Action) -> bool:
        """A dealer who stands may choose which of the cards stays hidden, where the game
        takes that choice (the engine is asked which ``hide`` it accepts): a chooser, with
        the game's default (the last card) as the default button."""
        view = self.session.view()
        if action.seat is None or action.seat != view.dealer_seat:
            return False
        cards = view.seats[action.seat - 1].cards
        choices = []
        for index, code in enumerate(cards):
            if code is None:
                return False  # an unentered card is the hidden one anyway
            event = action.event(hide=index)
            try:
                self.session.preview_round(event)
            except RuleError:
                continue
            choices.append(Action(action.type, f"Keep {code} hidden", action.seat,
                                  fixed=(*action.fixed, ("hide", index))))
        if len(choices) < 2:
            return False
        self.dialog = ChooserDialog("Dealer stands", "Which card stays hidden?", choices, self)
        self.dialog.buttons[-1].setDefault(True)  # Enter: the last card, as the rules say
        self.dialog.chosen.connect(lambda chosen: self.request(chosen.event()))
        self.dialog.open()
        return True

    def choose_collapsed(self, kind: str) -> None:
        """One button for many actions (Cash out…): the dealer picks one in a dialog."""
        actions = [a for a in self.actions if a.type == kind]
        if not actions:
            return
        self.went_on.emit()
        self.dialog = ChooserDialog("Cash out", "Who cashes out, and how much?", actions, self)
        self.dialog.chosen.connect(self._collapsed_chosen)
        self.dialog.open()

    def _collapsed_chosen(self, action: Action) -> None:
        self.dialog = None
        index = next(i for i, a in enumerate(self.actions) if same_action(a, action))
        self.trigger(index)

    def choose_seat(self, seat: int) -> None:
        """A tap on a seat (on the felt, or its chip on the panel's "For" row): the card or
        amount that seat is asked for, if any, is chosen for the entry, and the panel acts
        for that seat when it shows one seat at a time."""
        self.went_on.emit()
        self.focus_seat = seat
        asking = next((a for a in self.actions if a.asks and a.seat == seat), None)
        if asking is not None:
            self.selected = asking
        self._show_actions(self.session.view().round_number)
        self._show_input()
        self.changed.emit()
        if self.panel.chips.one_seat and not any(a.seat == seat for a in self.actions):
            name = self.session.names[seat - 1]  # the buttons stay: say why
            self.say(f"{name} has nothing to do now.")

    def _for_seat(self, text: str, asks: str) -> tuple[Action | None, str]:
        """``"3 7c"`` sends to seat 3 what the chosen action would send to its own seat."""
        match = SEAT_PREFIX.fullmatch(text)
        if match is None:
            return self.selected, text
        seat, value = int(match.group(1)), match.group(2)
        chosen = self.selected
        candidates = [a for a in self.actions if a.asks == asks and a.seat == seat]
        same = [a for a in candidates if chosen is not None and a.type == chosen.type]
        action = (same or candidates or [None])[0]
        if action is None:
            names = self.session.names
            who = f"seat {seat} ({names[seat - 1]})" if 1 <= seat <= len(names) else \
                f"seat {seat}"
            self.say(f"Nothing can be entered for {who} now.", error=True)
        return action, value

    def enter_card(self, code: str) -> None:
        self.went_on.emit()
        action, code = self._for_seat(code.strip(), "card")
        if action is None:
            if self.selected is None or self.selected.asks != "card":
                self.say("No card is asked for now.", error=True)
            return
        if action.asks != "card":
            self.say("No card is asked for now.", error=True)
            return
        if not code:
            self.say("Type a card code like qs or 10h, or tap a card.", error=True)
            return
        self.request(action.event(card=code))

    def enter_amount(self, text: str) -> None:
        action, text = self._for_seat(text.strip(), "amount")
        if action is None or action.asks != "amount":
            return
        if not text.isdigit():
            self.say("Enter the amount as a whole number with the keypad.", error=True)
            return
        self.request(action.event(amount=int(text)))

    def deal_from_camera(self, seat: int, code: str) -> None:
        """A card the camera read and the dealer confirmed, for ``seat``."""
        for action in self.actions:
            if action.asks == "card" and action.seat == seat:
                self.request(action.event(card=code))
                return
        self.request({"type": "deal", "seat": seat, "card": code})

    # ------------------------------------------------------------ commands

    def request(self, event: dict[str, Any]) -> bool:
        """Send ``event``: a costly one is confirmed first; one that completes a round waits
        for the dealer's confirmation of its settlement."""
        try:
            result = self.session.preview_round(event)
        except RuleError as exc:
            self.say(str(exc), error=True)
            return False
        warning = consequence(event, self.session.names)
        if warning is not None:
            label = next((a.label for a in self.actions
                          if a.type == event.get("type") and a.seat == event.get("seat")),
                         event.get("type", ""))
            self.dialog = ConfirmDialog(f"{label}?", warning, f"Yes: {label}", self)
            self.dialog.accepted.connect(lambda e=event, r=result: self._confirmed(e, r))
            self.dialog.rejected.connect(lambda: self.say("Nothing was recorded."))
            self.dialog.open()
            return False
        return self._confirmed(event, result)

    def _confirmed(self, event: dict[str, Any], result: RoundResult | None) -> bool:
        self.dialog = None
        if result is None:
            return self.submit(event)
        self._pending = event
        self.settlement = SettlementDialog(result, self.session.names, confirm=True, parent=self,
                                           role=self.dealer_role())
        self.settlement.accepted.connect(self._confirm_settlement)
        self.settlement.rejected.connect(self._cancel_settlement)
        self.settlement.open()
        return False

    def _confirm_settlement(self) -> None:
        event, self._pending = self._pending, None
        self.settlement = None
        if event is not None:
            self.submit(event)

    def _cancel_settlement(self) -> None:
        self._pending, self.settlement = None, None
        self.say("Settlement not recorded: the round is still open.")

    def submit(self, event: dict[str, Any]) -> bool:
        """Record ``event``; a refusal shows the game's reason and changes nothing."""
        rounds = len(self.session.rounds)
        try:
            self.session.submit(event)
        except RuleError as exc:
            self.say(str(exc), error=True)
            return False
        except StorageError as exc:
            self.storage_fault(exc)
            return False
        self.after_change(rounds)
        if event.get("type") not in ("void", "end_session") and len(self.session.rounds) == rounds:
            self.say("")
        return True

    def storage_fault(self, exc: StorageError) -> str:
        """Full disk, read-only...: nothing was recorded and the table is unchanged; say so and
        show what to do."""
        text = f"Not recorded: {exc.what}"
        self.say(text, error=True)
        self.dialog = show_storage_error(self, exc)
        return text

    def after_change(self, rounds: int) -> None:
        """Redraw after the log grew; announce a settled round and the end of the game."""
        self.input.entry.clear()
        self.focus_seat = None  # the panel follows the play again
        self.refresh()
        if len(self.session.rounds) > rounds:
            result = self.session.rounds[-1]
            nxt = next_dealer_text(result, self.session.names, self.dealer_role(),
                                   self.session.state.finished)
            self.say(f"Round {result.number} settled. {nxt}".strip())
            self.round_settled.emit(result)
        if self.session.ended or self.session.state.finished:
            self.game_over.emit()

    def undo(self) -> None:
        entries = self.session.round_entries
        if not entries:
            self.say("Nothing to undo in this round (a settled round is final).", error=True)
            return
        last = describe(entries[-1], self.session.names)
        if self.submit({"type": "void"}):
            self.say(f"Undone: {last}")

    def open_void(self) -> None:
        entries = self.session.round_entries
        if not entries:
            self.say("Nothing to void in this round (a settled round is final).", error=True)
            return
        self.dialog = EntryDialog(entries, self.session.names, self._void, parent=self)
        self.dialog.open()

    def _void(self, target: int, reason: str, _value: str) -> str | None:
        event: dict[str, Any] = {"type": "void", "target": target}
        if reason:
            event["reason"] = reason
        try:
            self.session.submit(event)
        except RuleError as exc:
            return str(exc)
        except StorageError as exc:
            return self.storage_fault(exc)
        self.after_change(len(self.session.rounds))
        self.say(f"Voided entry #{target}" + (f": {reason}" if reason else ""))
        return None

    def open_correct(self) -> None:
        entries = self.session.round_entries
        if not any(correctable(e) for e in entries):
            self.say("No card or amount of this round to correct.", error=True)
            return
        self.dialog = EntryDialog(entries, self.session.names, self._correct, correcting=True,
                                  parent=self)
        self.dialog.open()

    def _correct(self, target: int, reason: str, value: str) -> str | None:
        entry = next(e for e in self.session.round_entries if e.seq == target)
        field = correctable(entry)
        if field is None:
            return "Only a card or an amount can be corrected; void this entry instead."
        if not value:
            return f"Enter the new {field}."
        if field == "amount" and not value.isdigit():
            return "The new amount is a whole number."
        replacement = dict(entry.body)
        replacement[field] = int(value) if field == "amount" else value
        try:
            self.session.correct(target, replacement, reason)
        except RuleError as exc:
            return str(exc)
        except StorageError as exc:
            return self.storage_fault(exc)
        self.after_change(len(self.session.rounds))
        self.say(f"Corrected entry #{target}: {field} {value} ({reason})")
        return None

    def _put_slip_away(self) -> None:
        """The slip closes itself once the dealer goes on; History shows it again."""
        if self.slip is not None and self.slip.isVisible():
            self.slip.hide()

    def open_history(self) -> None:
        self.dialog = HistoryDialog(self.session.rounds, self.session.names, self,
                                    role=self.dealer_role(), slip=self.slip)
        add_head(self.dialog, session_head(self.session))
        self.dialog.open()

    def end_session(self, reason: str = "") -> bool:
        event: dict[str, Any] = {"type": "end_session"}
        if reason:
            event["reason"] = reason
        return self.submit(event)
