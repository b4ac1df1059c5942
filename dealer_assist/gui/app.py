"""The main window: the start screen, then a session's table; menus for every screen.

``dealer-assist gui [FILE.db]`` and ``dealer-assist-gui`` start it.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QWidget,
)

from dealer_assist.errors import RuleError, StorageError
from dealer_assist.gui.confirm import ConfirmDialog
from dealer_assist.gui.metrics import fit_to_screen
from dealer_assist.gui.offer_dialog import ChooserDialog
from dealer_assist.gui.resources import THEMES, stylesheet
from dealer_assist.gui.slip import open_slip
from dealer_assist.gui.standings import StandingsDialog
from dealer_assist.gui.start_screen import StartScreen
from dealer_assist.gui.storage_dialog import show_storage_error
from dealer_assist.gui.sync_light import install as install_sync_light
from dealer_assist.gui.table_screen import TableScreen, function_key
from dealer_assist.gui.wizard import SessionWizard
from dealer_assist.session.engine import Session
from dealer_assist.session.store import new_session_path, sessions_dir
from dealer_assist.variants import available_games, get_variant
from dealer_assist.variants.base import Action

DOCK_SPACING = 16  # px a dock's frame and the separator add beside the table
FELT = {"light": ("#1f6b45", "#5a3b1e"), "dark": ("#123d29", "#3b2713")}
# menu entry -> (module written by another screen's author, what it needs)
TOOLS = {
    "camera": ("dealer_assist.gui.camera_panel", "Camera…"),
    "reconcile": ("dealer_assist.gui.reconcile", "Reconcile…"),
    "training": ("dealer_assist.gui.training_window", "Training…"),
    "cardroom": ("dealer_assist.gui.card_room", "Card room…"),
}


def module_available(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


class MainWindow(QMainWindow):
    """Holds at most one open session; ``table`` is its TableScreen."""

    def __init__(self, theme: str = "light") -> None:
        super().__init__()
        self.setWindowTitle("31 dealer assist")
        self.theme = theme
        self.scale = 1.0
        self.session: Session | None = None
        self.table: TableScreen | None = None
        self.dialog: QWidget | None = None
        self.slip: QWidget | None = None  # the last round's settlement slip
        self.camera: QDockWidget | None = None
        self.stack = QStackedWidget(self)
        self.stack.installEventFilter(self)  # the table's room sets the type size
        self.start = StartScreen(self.stack)
        self.start.new_requested.connect(self.new_session)
        self.start.open_requested.connect(self.open_file)
        self.start.demo_requested.connect(self.open_demo)
        self.start.reconcile_requested.connect(self.open_reconcile)
        self.start.resume_requested.connect(self.open_path)
        self.stack.addWidget(self.start)
        self.setCentralWidget(self.stack)
        self._menus()
        self.sync_light = install_sync_light(self)
        self.apply_theme(theme)
        self.fit_screen()
        self.players_display: QWidget | None = None

    def fit_screen(self) -> None:
        """Open at the screen's available size (a 1024×600 tablet, a desktop)."""
        fit_to_screen(self)

    # ------------------------------------------------------------ menus

    def _action(self, menu, text: str, slot, shortcut: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _menus(self) -> None:
        bar = self.menuBar()
        session = bar.addMenu("&Session")
        self._action(session, "New session…", self.new_session, "Ctrl+N")
        self._action(session, "Open session file…", self.open_file, "Ctrl+O")
        demos = session.addMenu("Demo table")
        for game in available_games():
            self._action(demos, get_variant(game).TITLE,
                         lambda _=False, g=game: self.open_demo(g))
        session.addSeparator()
        self.end_action = self._action(session, "End session…", self.end_session, "Ctrl+E")
        self.close_action = self._action(session, "Close table", self.close_table, "Ctrl+W")
        session.addSeparator()
        self._action(session, "Quit", self.close, "Ctrl+Q")
        view = bar.addMenu("&View")
        self.dark_action = self._action(view, "Dark theme", self.toggle_theme, "Ctrl+T")
        self.dark_action.setCheckable(True)
        self.full_action = self._action(view, "Full screen", self.toggle_full_screen,
                                        "Ctrl+Shift+F")  # F1-F12 are the action buttons
        self.players_action = self._action(view, "Players' display", self.open_players_display,
                                           "Ctrl+P")
        tools = bar.addMenu("&Tools")
        self.tool_actions: dict[str, QAction] = {}
        slots = {"camera": self.open_camera, "reconcile": self.open_reconcile,
                 "training": self.open_training, "cardroom": self.open_card_room}
        for key, (module, text) in TOOLS.items():
            action = self._action(tools, text, slots[key])
            if not module_available(module):
                action.setEnabled(False)
                action.setToolTip(f"not available in this build ({module} is missing)")
                action.setStatusTip(action.toolTip())
            self.tool_actions[key] = action
        tools.setToolTipsVisible(True)
        self.start.button("reconcileButton").setEnabled(self.tool_actions["reconcile"].isEnabled())
        self.start.button("reconcileButton").setToolTip(
            "Check a session log's money and settlements" if module_available(
                TOOLS["reconcile"][0]) else self.tool_actions["reconcile"].toolTip())
        self._update_actions()

    def _update_actions(self) -> None:
        open_table = self.table is not None
        self.end_action.setEnabled(open_table and not self.session.ended)  # type: ignore[union-attr]
        self.close_action.setEnabled(open_table)
        self.players_action.setEnabled(open_table)
        self.tool_actions["camera"].setEnabled(
            open_table and module_available(TOOLS["camera"][0]))

    # ------------------------------------------------------------ themes

    def apply_theme(self, theme: str) -> None:
        if theme not in THEMES:
            raise ValueError(f"unknown theme {theme!r}")
        self.theme = theme
        # on this window, not the QApplication: a restyle re-polishes this window's widgets
        # (its dialogs and tooltips too), not every widget of every window of the process
        self.setStyleSheet(stylesheet(theme, self.scale))
        self.dark_action.setChecked(theme == "dark")
        if self.table is not None:
            self._felt()
            self.table.table.relayout()
            self.table.fit_tools()  # the new type sizes change what fits in a seat

    def _felt(self) -> None:
        felt, rim = FELT[self.theme]
        self.table.table.setProperty("felt", felt)  # type: ignore[union-attr]
        self.table.table.setProperty("rim", rim)  # type: ignore[union-attr]
        self.table.table.update()  # type: ignore[union-attr]

    def keyPressEvent(self, event) -> None:
        """An F-key with the focus on the window itself goes to the table's actions."""
        if self.table is not None and function_key(event):
            self.table.keyPressEvent(event)
            return
        super().keyPressEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.stack and event.type() == QEvent.Type.Resize:
            self.follow_room()
        return super().eventFilter(watched, event)

    def follow_room(self) -> None:
        """Bigger type where the table has a big screen's room, so that it reads at arm's
        length there too; the normal type where a dock beside it (the camera) leaves it less,
        so that its titles stay whole."""
        room = self.stack.size()
        scale = 1.3 if room.width() >= 1500 and room.height() >= 850 else 1.0
        if scale != self.scale:
            self.scale = scale
            self.apply_theme(self.theme)

    def toggle_theme(self) -> None:
        self.apply_theme("light" if self.theme == "dark" else "dark")

    def toggle_full_screen(self) -> None:
        self.showNormal() if self.isFullScreen() else self.showFullScreen()

    # ------------------------------------------------------------ sessions

    def new_session(self) -> None:
        wizard = SessionWizard(self)
        self.dialog = wizard
        wizard.accepted.connect(lambda: self._start_from(wizard))
        wizard.open()

    def _start_from(self, wizard: SessionWizard) -> None:
        try:
            session = Session.new(wizard.game(), wizard.options(), wizard.seats(),
                                  wizard.first_dealer(), path=new_session_path(wizard.game()))
        except RuleError as exc:
            QMessageBox.warning(self, "Cannot start", str(exc))
            return
        except StorageError as exc:
            self.dialog = show_storage_error(self, exc)
            return
        self.show_session(session)

    def open_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a session log", str(sessions_dir()),
                                              "Session logs (*.db);;All files (*)")
        if path:
            self.open_path(Path(path))

    def open_path(self, path: Path) -> bool:
        """Open a session log and show its table exactly where it stood."""
        try:
            session = Session.open(path)
        except RuleError as exc:
            QMessageBox.warning(self, "Cannot open", f"{path}:\n{exc}")
            return False
        except StorageError as exc:  # not a log, locked by another window, read-only...
            self.dialog = show_storage_error(self, exc)
            return False
        self.show_session(session)
        return True

    def open_demo(self, game: str = "") -> None:
        """A demo table; from the start screen's button, the game is chosen first."""
        from dealer_assist.gui.demo import start_demo
        if game:
            self.show_session(start_demo(game))
            return
        games = available_games()
        chooser = ChooserDialog("Demo table", "Which game?",
                                [Action("demo", get_variant(g).TITLE, fixed=(("game", g),))
                                 for g in games], self)
        chooser.chosen.connect(lambda action: self.open_demo(dict(action.fixed)["game"]))
        self.dialog = chooser
        chooser.open()

    def show_session(self, session: Session) -> None:
        self.close_table()
        self.session = session
        self.table = TableScreen(session, self.stack)
        self.table.game_over.connect(self.show_standings)
        self.table.round_settled.connect(self.show_slip)
        self.table.changed.connect(self._follow_players_display)
        self.stack.addWidget(self.table)
        self.stack.setCurrentWidget(self.table)
        self.setWindowTitle(f"31 dealer assist — {session.view().title}")
        self._felt()
        self._update_actions()
        self.table.input.entry.setFocus()
        if session.ended or session.state.finished:
            self.show_standings()

    def show_slip(self, result: object) -> None:
        """The settled round with the log head and its QR (gui/slip.py)."""
        if self.session is not None and self.table is not None:
            if self.slip is not None:  # the next slip replaces it
                self.slip.close()
                self.slip.deleteLater()
            self.slip = open_slip(self.session, result, self, self.table.dealer_role(),
                                  beside=self.table.panel)
            self.table.slip = self.slip  # it closes itself when the dealer goes on

    def open_players_display(self) -> None:
        """A second window for a TV or second screen: what the players may see, big."""
        if self.table is None:
            return
        from dealer_assist.gui.players_display import PlayersDisplay
        if self.players_display is None:
            self.players_display = PlayersDisplay()
            screens = QApplication.screens()
            if len(screens) > 1:  # on the second screen, full screen
                self.players_display.setGeometry(screens[1].availableGeometry())
                self.players_display.showFullScreen()
            else:
                self.players_display.resize(self.size())
                self.players_display.show()
        self._follow_players_display()
        self.players_display.raise_()

    def _follow_players_display(self) -> None:
        if self.players_display is not None and self.session is not None:
            self.players_display.show_session(self.session)

    def close_table(self) -> None:
        if self.slip is not None:
            self.slip.close()
        if self.players_display is not None:
            self.players_display.close()
            self.players_display = None
        if self.camera is not None:
            self.camera.widget().shutdown()
            self.camera.close()
            self.camera.deleteLater()
            self.camera = None
        if self.table is not None:
            self.stack.removeWidget(self.table)
            self.table.deleteLater()
            self.table = None
        if self.session is not None:
            self.session.close()
            self.session = None
        self.stack.setCurrentWidget(self.start)
        self.start.refresh()
        self.setWindowTitle("31 dealer assist")
        self._update_actions()

    def end_session(self) -> None:
        if self.table is None:
            return
        dialog = ConfirmDialog(
            "End the session?", "No more rounds can be played in this session; the final "
            "standings are shown. This cannot be undone.", "Yes: end the session", self,
            reason="Reason (optional), e.g. players agree to stop")
        self.dialog = dialog

        def end() -> None:
            if self.table is not None:
                self.table.end_session(dialog.reason())
            self._update_actions()

        dialog.accepted.connect(end)
        dialog.open()

    def show_standings(self) -> None:
        if self.session is None:
            return
        self.dialog = StandingsDialog(self.session.view(),
                                      tuple(s.money for s in self.session.seats), parent=self)
        self.dialog.open()
        self._update_actions()

    # ------------------------------------------------------------ other screens

    def open_camera(self) -> None:
        """The camera panel beside the table; a card the dealer confirms there is dealt to
        the seat the table asks a card for (``TableScreen.deal_from_camera``). The camera is
        ``$DEALER_ASSIST_CAMERA`` if set (see :func:`camera_spec`), else the first one."""
        if self.table is None or self.session is None:
            return
        module = importlib.import_module(TOOLS["camera"][0])
        reader = None
        try:
            from dealer_assist.vision.live import LiveReader
            from dealer_assist.vision.sources import camera_spec, open_source

            reader = LiveReader(open_source(camera_spec(), loop=True))
        except Exception as exc:  # no camera here (any cause): the panel still opens
            self.table.say(f"No camera: {exc}")
        panel = module.CameraPanel(reader=reader, seats=len(self.session.seats), parent=self)
        panel.card_confirmed.connect(self.table.deal_from_camera)
        table = self.table

        def follow() -> None:
            if table.selected is not None and table.selected.seat is not None:
                panel.set_seat(table.selected.seat)

        table.changed.connect(follow)
        follow()
        beside = self.width() >= (table.minimumSizeHint().width()
                                  + panel.minimumSizeHint().width() + DOCK_SPACING)
        self.camera = QDockWidget("Camera", self)
        self.camera.setObjectName("cameraDock")
        self.camera.setWidget(panel)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.camera)
        if not beside:
            self._float_camera(panel)
        panel.start()

    def _float_camera(self, panel: QWidget) -> None:
        """A window too narrow for the table and the camera side by side (a 1024×600 tablet):
        the camera floats over the table's right part, where its card keys are (the camera
        enters the cards), as tall as the window, so that the table keeps its size and the
        panel's buttons stay on the screen. The dealer can move it, or dock it on a wider
        screen."""
        area = self.geometry()  # the window's inside, in screen coordinates
        width = min(area.width(), max(panel.minimumSizeHint().width(), area.width() // 2))
        self.camera.setFloating(True)
        self.camera.setGeometry(area.right() + 1 - width, area.top(), width, area.height())

    def open_reconcile(self) -> None:
        if not module_available(TOOLS["reconcile"][0]):
            return
        paths, _ = QFileDialog.getOpenFileNames(self, "Session logs to reconcile",
                                                str(sessions_dir()),
                                                "Session logs (*.db);;All files (*)")
        if paths:
            module = importlib.import_module(TOOLS["reconcile"][0])
            module.open_reconcile(self, [Path(p) for p in paths])

    def open_training(self) -> None:
        module = importlib.import_module(TOOLS["training"][0])
        opener = getattr(module, "open_training", None)
        if opener is None:
            QMessageBox.warning(self, "Training", "the training screens have no open_training")
            return
        opener(self)

    def open_card_room(self) -> None:
        self.dialog = importlib.import_module(TOOLS["cardroom"][0]).open_card_room(self)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", type=Path, help="a session log to resume")
    parser.add_argument("--theme", choices=THEMES, default="light", help="colour theme")
    parser.add_argument("--full-screen", action="store_true", help="fill the screen (tablets)")


def application() -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        app.setApplicationName("dealer-assist")
    return app  # type: ignore[return-value]


def run(args: argparse.Namespace) -> int:
    app = application()
    window = MainWindow(args.theme)
    window.showFullScreen() if getattr(args, "full_screen", False) else window.show()
    if getattr(args, "file", None):
        window.open_path(args.file)  # a file that cannot be opened: its dialog on the start screen
    return app.exec()


def main() -> int:
    parser = argparse.ArgumentParser(prog="dealer-assist-gui", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
