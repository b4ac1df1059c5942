"""Finding ui/ files: the checkout's top-level ``ui/``, or ``dealer_assist/_ui`` in a wheel."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QFile, QIODevice
from PySide6.QtUiTools import QUiLoader
from PySide6.QtWidgets import QWidget

THEMES = ("light", "dark")
# the themes style these screens only, so that panels from other modules shown inside the
# window (the camera) keep their own fonts and sizes
SCOPES = ("#tableScreen", "#startScreenHost", "#sessionWizard", "#settlementDialog",
          "#historyDialog", "#voidDialog", "#standingsDialog", "#offerDialog",
          "#correctDialog", "#confirmDialog", "#settlementSlip", "#trainingWindow",
          "#reconcileWindow")
GLOBAL = ("QMenuBar", "QMenu", "QToolTip", "QStatusBar")
CONTAINERS = ("QWidget", "QDialog", "QWizard", "QWizardPage", "QMainWindow")


def ui_dir() -> Path:
    """The folder of forms and stylesheets."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "_ui", package.parent / "ui"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the ui/ folder is missing from this installation")


def ui_path(name: str) -> Path:
    return ui_dir() / name


def stylesheet(theme: str, scale: float = 1.0) -> str:
    """The Qt stylesheet of a theme (``light`` or ``dark``), its font sizes times ``scale``."""
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}; themes: {', '.join(THEMES)}")
    text = ui_path(f"{theme}.qss").read_text(encoding="utf-8")
    if scale != 1.0:
        text = re.sub(r"font-size: (\d+)px",
                      lambda m: f"font-size: {round(int(m.group(1)) * scale)}px", text)
    return scoped(text)


def scoped(text: str) -> str:
    """Each rule limited to the SCOPES (and the scope widgets themselves)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    rules = []
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", text):
        out: list[str] = []
        for selector in (s.strip() for s in selectors.split(",")):
            if selector.startswith(GLOBAL) or selector in SCOPES:
                out.append(selector)
                continue
            for scope in SCOPES:
                out.append(f"{scope} {selector}")
                if selector in CONTAINERS:
                    out.append(scope)
        rules.append(f"{', '.join(dict.fromkeys(out))} {{{body}}}")
    return "\n".join(rules)


def load_form(name: str, parent: QWidget | None = None) -> QWidget:
    """Load a Qt Designer form from ui/ (``name`` like ``start.ui``)."""
    file = QFile(str(ui_path(name)))
    if not file.open(QIODevice.OpenModeFlag.ReadOnly):
        raise FileNotFoundError(f"cannot read form {name}")
    try:
        widget = QUiLoader().load(file, parent)
    finally:
        file.close()
    if widget is None:
        raise RuntimeError(f"form {name} could not be loaded")
    return widget
