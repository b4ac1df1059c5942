"""The dealer's table screen: the table, the legal actions, card and amount entry.

It shows ``session.view()`` and ``session.legal_actions()`` and sends commands; every value,
payout and turn comes from the game. A refused command shows the game's sentence and changes
nothing. An event that would complete a round is first shown as its settlement (the game's own
``apply``, run without recording), and recorded only when the dealer confirms it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget

from dealer_assist.errors import RuleError, StorageError
from dealer_assist.gui.action_panel import SHORTCUT_KEYS, ActionPanel, same_action
from dealer_assist.gui.head_widget import add_head, session_head
from dealer_assist.gui.history import HistoryDialog
from dealer_assist.gui.input_panel import InputPanel
from dealer_assist.gui.offer_dialog import OfferDialog, offer_actions
from dealer_assist.gui.prompt_bar import PromptBar
from dealer_assist.gui.settlement_dialog import SettlementDialog, next_dealer_text
from dealer_assist.gui.storage_dialog import show_storage_error
from dealer_assist.gui.table_view import TableWidget
from dealer_assist.gui.void_dialog import VoidDialog, describe
from dealer_assist.session.engine import Session
from dealer_assist.variants.base import Action


class TableScreen(QWidget):
    """One session's table. ``round_settled(result)`` and ``game_over()`` tell the window."""

    round_settled = Signal(object)
    game_over = Signal()
    changed = Signal()

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tableScreen")
        self.session = session
        self.actions: list[Action] = []
        self.selected: Action | None = None
        self.settlement: SettlementDialog | None = None
        self.offer: OfferDialog | None = None
        self.dialog: Any = None
        self._pending: dict[str, Any] | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 6)
        layout.setSpacing(6)
        self.table = TableWidget(self)
        self.table.seat_clicked.connect(self.select_seat)
        layout.addWidget(self.table, 1)
        bottom = QHBoxLayout()
        bottom.setSpacing(10)
        self.panel = ActionPanel(self)
        self.panel.triggered.connect(self.trigger)
        self.panel.undo.connect(self.undo)
        self.panel.void.connect(self.open_void)
        self.panel.history.connect(self.open_history)
        self.input = InputPanel(self)
        self.input.card.connect(self.enter_card)
        self.input.amount.connect(self.enter_amount)
        self.bar = PromptBar(self.input.entry, self)
        layout.addWidget(self.bar)
        bottom.addWidget(self.panel, 35)
        bottom.addWidget(self.input, 65)
        self.bottom = QWidget(self)
        self.bottom.setObjectName("controls")
        self.bottom.setLayout(bottom)
        bottom.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.bottom)
        self._shortcuts()
        self.refresh()

    def _shortcuts(self) -> None:
        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for index, key in enumerate(SHORTCUT_KEYS):
            shortcut = QShortcut(QKeySequence(key), self, context=context)
            shortcut.activated.connect(lambda i=index: self.trigger(i))
        bindings = (("Ctrl+Z", self.undo), ("Ctrl+D", self.open_void),
                    ("Ctrl+H", self.open_history), ("Escape", self.input.entry.clear))
        for key, slot in bindings:
            QShortcut(QKeySequence(key), self, context=context).activated.connect(slot)

    # ------------------------------------------------------------ showing

    def refresh(self) -> None:
        view = self.session.view()
        self.actions = self.session.legal_actions()
        keep = next((a for a in self.actions if same_action(a, self.selected)), None)
        self.selected = keep or self._default_action(view.to_act)
        self.table.show_view(view)
        self.bar.show_prompt(view.prompt, view.info)
        self.panel.set_actions(self.actions, self.selected)
        entries = bool(self.session.round_entries)
        self.panel.set_history_enabled(undo=entries, void=entries)
        self.input.set_action(self.selected, view.usable_cards)
        self.input.entry.setFocus()
        self._offer(view.prompt)
        self.changed.emit()

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

    # ------------------------------------------------------------ input

    def trigger(self, index: int) -> None:
        """A tap on the button of ``actions[index]``: send it, or choose it for the entry."""
        if not 0 <= index < len(self.actions):
            return
        action = self.actions[index]
        if action.asks:
            self.selected = action
            self.panel.set_actions(self.actions, self.selected)
            self.input.set_action(action, self.session.view().usable_cards)
            self.input.entry.setFocus()
            self.changed.emit()
            return
        self.request(action.event())

    def select_seat(self, seat: int) -> None:
        """A tap on a seat chooses the card or amount that seat is asked for, if any."""
        for index, action in enumerate(self.actions):
            if action.asks and action.seat == seat:
                self.trigger(index)
                return

    def enter_card(self, code: str) -> None:
        if self.selected is None or self.selected.asks != "card":
            self.say("No card is asked for now.", error=True)
            return
        if not code:
            self.say("Type a card code like qs or 10h, or tap a card.", error=True)
            return
        self.request(self.selected.event(card=code))

    def enter_amount(self, text: str) -> None:
        if self.selected is None or self.selected.asks != "amount":
            return
        if not text.isdigit():
            self.say("Enter the amount as a whole number with the keypad.", error=True)
            return
        self.request(self.selected.event(amount=int(text)))

    def deal_from_camera(self, seat: int, code: str) -> None:
        """A card the camera read and the dealer confirmed, for ``seat``."""
        for action in self.actions:
            if action.asks == "card" and action.seat == seat:
                self.request(action.event(card=code))
                return
        self.request({"type": "deal", "seat": seat, "card": code})

    # ------------------------------------------------------------ commands

    def request(self, event: dict[str, Any]) -> bool:
        """Send ``event``; one that completes a round waits for the dealer's confirmation."""
        try:
            result = self.session.preview_round(event)
        except RuleError as exc:
            self.say(str(exc), error=True)
            return False
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
        except StorageError as exc:  # full disk, read-only...: nothing recorded, table unchanged
            self.say(f"Not recorded: {exc.what}", error=True)
            self.dialog = show_storage_error(self, exc)
            return False
        if event.get("type") in ("void", "end_session"):
            self.say("")
        self.input.entry.clear()
        self.refresh()
        if len(self.session.rounds) > rounds:
            result = self.session.rounds[-1]
            self.say(f"Round {result.number} settled. "
                     + next_dealer_text(result, self.session.names, self.dealer_role()))
            self.round_settled.emit(result)
        elif event.get("type") not in ("void", "end_session"):
            self.say("")
        if self.session.ended or self.session.state.finished:
            self.game_over.emit()
        return True

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
        self.dialog = VoidDialog(entries, self.session.names, self)
        self.dialog.accepted.connect(self._void_chosen)
        self.dialog.open()

    def _void_chosen(self) -> None:
        dialog, self.dialog = self.dialog, None
        target = dialog.target()
        if target is None:
            return
        event: dict[str, Any] = {"type": "void", "target": target}
        if dialog.reason():
            event["reason"] = dialog.reason()
        if self.submit(event):
            reason = f": {dialog.reason()}" if dialog.reason() else ""
            self.say(f"Voided entry #{target}{reason}")

    def open_history(self) -> None:
        self.dialog = HistoryDialog(self.session.rounds, self.session.names, self)
        add_head(self.dialog, session_head(self.session))
        self.dialog.open()

    def end_session(self, reason: str = "") -> bool:
        event: dict[str, Any] = {"type": "end_session"}
        if reason:
            event["reason"] = reason
        return self.submit(event)
