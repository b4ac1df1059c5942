"""Play one deal of a game in a real window under Xvfb, with xdotool taps and keys; save a PNG
at each stage and print the end state.

    uv run python scripts/xdotool_play.py GAME [--size 1024x600] [--out DIR] [--dry-run]

GAME is trianta_ena, classic31, one_and_thirty (played with the Bone Ace option) or
sudden_death (Greek 31: scripts/xdotool_greek31.sh); classic31_six is 31 Classic with six long
names, where at 1024×600 the panel acts for one seat at a time (``#seatFor_N`` taps the seat
on the felt first; at 1920×1080 each row has a chip per seat, and it taps the seat too).
Where to tap is read from a shadow of the same window (offscreen, in this process, the same
size, given the same taps and keys just after the real window). At the end the real log must
match the shadow's (entries, rounds, money), so every real tap and key did what the plan meant.
``--dry-run`` plays the shadow only.
Needs xvfb, xdotool and imagemagick (scripts/setup.sh installs them).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ["QT_QPA_PLATFORM"] = "offscreen"  # this process: the shadow; the app gets DISPLAY
os.environ.setdefault("DEALER_ASSIST_DATA", tempfile.mkdtemp(prefix="dealer-assist-xdotool-"))

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPushButton, QWidget

from dealer_assist.gui.app import MainWindow, application
from dealer_assist.session.engine import Session
from dealer_assist.variants import get_variant

ROOT = Path(__file__).resolve().parent.parent
PAUSE = 0.6  # after each real tap or key: the app redraws; also past the double-tap guard

# a move: ("tap", what) what = an action's label (regex) or "#objectName" (card_9H, chip_5,
# key_ok); ("type", text) then Enter; ("key", name) an xdotool key name; ("fkey", label) the
# F-key of that action; ("shot", name) a screenshot
Move = tuple[str, str]

SIX = ("Maria", "Nikos", "Eleni", "Giorgos", "Sofia", "Dimitris")
SETUPS = {
    "trianta_ena": ({"min_bet": 5, "bank_multiple": 3},
                    [("Ann", 300), ("Bea", 100), ("Cy", 100), ("Dora", 100)], 1),
    "classic31": ({}, [("Ann", 100, 1), ("Bea", 100, 3), ("Cy", 100, 4)], None),
    "one_and_thirty": ({"stake": 1, "bone_ace": True},
                       [("Ann", 20, 2), ("Bea", 20, 4), ("Cy", 20, 1), ("Dora", 20, 3)], 1),
    "sudden_death": ({}, [("Ann", 20), ("Bea", 20), ("Cy", 20), ("Dora", 20)], 1),
    # six long names: at 1024×600 the panel acts for one seat at a time, chosen on the felt
    "classic31_six": ({}, [(name, 100, number) for number, name in enumerate(SIX, start=1)],
                      None),
}

PLANS: dict[str, list[Move]] = {
    # Ann banks; Bea, Cy, Dora play
    "trianta_ena": [
        ("shot", "start"),
        ("type", "9h"),  # the banker's face-up card (the line shows where it goes)
        ("tap", "^Face-down card to Bea$"), ("tap", "^Face-down card to Cy$"),
        ("tap", "^Face-down card to Dora$"),
        ("shot", "face-down-dealt"),
        ("tap", "#chip_5"), ("tap", "#chip_5"), ("tap", "#key_ok"),  # Bea bets 10 by chips
        ("type", "5"),  # Cy bets 5
        ("fkey", "^Dora folds$"),
        ("shot", "bets"),
        ("tap", "^Face-up card to Bea$"), ("tap", "#card_KD"), ("tap", "#card_2C"),
        ("type", "8s"), ("type", "5d"),  # Cy's two
        ("tap", "^Banker's face-down card$"),
        ("shot", "to-play"),
        ("type", "3h"),  # Bea hits: K 2 3 = 15
        ("type", "10c"),  # Bea hits: 25
        ("fkey", "^Bea stands$"),
        ("fkey", "^Cy shows"), ("type", "qs"),  # Cy shows the face-down card
        ("fkey", "^Cy stands$"),
        ("shot", "banker-to-play"),
        ("tap", "^Banker reveals"), ("type", "6d"),  # 9 + 6 = 15
        ("type", "5h"), ("type", "7s"),  # the banker draws to 27 (20, then 27)
        ("type", "4c"),  # Bea's face-down card: K 2 3 10 4 = 29 beats 27
    ],
    "classic31": [
        ("shot", "start"),
        ("tap", "^Ante: Ann"), ("tap", "#chip_5"), ("tap", "#key_ok"),
        ("tap", "^Ante: Bea"), ("type", "5"),
        ("fkey", "^Ante: Cy"), ("type", "5"),
        ("tap", "^Natural 31 Bonus: Bea"), ("type", "2"),
        ("shot", "wagers"),
        ("tap", "^Deal the hands"),
        ("tap", "^Play: Ann"), ("tap", "^Play: Bea"), ("tap", "^Fold: Cy"),
        ("shot", "play-or-fold"),
        ("tap", "^Card 1 of 3: Ann"), ("type", "9h"), ("type", "kh"), ("type", "2c"),
        ("tap", "^Card 1 of 3: Bea"), ("type", "ad"), ("type", "kd"), ("type", "qd"),
        ("shot", "hands"),
        ("tap", "^Draw card: Ann"), ("type", "qs"),
        ("tap", "^Draw card: Bea"), ("type", "js"),
        ("shot", "before-settle"),
    ],
    "classic31_six": [
        ("shot", "start"),
        *[move for seat in range(1, 7) for move in (("tap", f"#seatFor_{seat}"), ("type", "5"))],
        ("shot", "antes"),
        ("tap", "^Deal the hands"),
        ("tap", "#seatFor_1"), ("tap", "^Play: Maria"),
        ("tap", "#seatFor_3"), ("tap", "^Play: Eleni"),
        *[move for seat in (2, 4, 5, 6) for move in (("tap", f"#seatFor_{seat}"),
                                                     ("tap", f"^Fold: {SIX[seat - 1]}"))],
        ("shot", "play-or-fold"),
        ("tap", "#seatFor_1"), ("type", "9h"), ("type", "kh"), ("type", "2c"),
        ("tap", "#seatFor_3"), ("type", "ad"), ("type", "kd"), ("type", "qd"),
        ("shot", "hands"),
        ("tap", "#seatFor_1"), ("tap", "^Draw card: Maria"), ("type", "qs"),
        ("tap", "#seatFor_3"), ("tap", "^Draw card: Eleni"), ("type", "js"),
        ("shot", "before-settle"),
    ],
    "one_and_thirty": [
        ("shot", "start"),
        ("tap", "^Stakes in"),
        ("type", "9h"), ("type", "kd"), ("type", "2c"), ("type", "8s"),  # first round, face down
        ("type", "5d"), ("type", "3c"), ("type", "4d"), ("type", "7c"),
        ("tap", "#card_2H"), ("tap", "#card_AH"), ("tap", "#card_6C"), ("tap", "#card_QS"),
        ("shot", "dealt"),  # Bone Ace: third cards face up; Cy's ace of hearts ranks highest
        ("tap", "^Have it$"), ("type", "10h"),
        ("tap", "^Stick"), ("tap", "^Stick"), ("tap", "^Stick"), ("tap", "^Stick"),
        ("shot", "before-settle"),
    ],
    "sudden_death": [
        ("shot", "start"),
        ("type", "ah"), ("type", "kh"), ("type", "2c"),  # Bea
        ("tap", "#card_8S"), ("tap", "#card_5D"), ("tap", "#card_3C"),  # Cy
        ("type", "4d"), ("type", "7c"), ("type", "2h"),  # Dora
        ("type", "3h"), ("type", "6c"), ("type", "9s"),  # Ann, the dealer
        ("tap", "^Opening bet"), ("tap", "#chip_2"), ("tap", "#key_ok"),
        ("shot", "opened"),
        ("type", "5s"), ("tap", "^Discard 5S"),  # Bea draws and throws it back
        ("tap", "^Take the 5S"), ("tap", "^Discard 3C"),  # Cy
        ("type", "js"), ("fkey", "^Discard 2H"),  # Dora
        ("type", "10c"), ("tap", "^Discard 3H"),  # Ann
        ("shot", "turns"),
        ("type", "qh"),  # Bea draws the queen: A K Q of hearts and the 2 of clubs
        ("shot", "before-31"),
        ("tap", "^Discard 2C"),  # 31: the round ends at once
    ],
}
# every deal ends by confirming the settlement (and one_and_thirty, classic31 and trianta_ena
# first tap their settle button in the costly row)
SETTLE = {"trianta_ena": "^Settle", "classic31": "^Settle", "one_and_thirty": "^Settle",
          "sudden_death": "", "classic31_six": "^Settle"}


def new_session(game: str, path: Path) -> Session:
    options, seats, first = SETUPS[game]
    specs = []
    for seat in seats:
        spec = {"name": seat[0], "money": seat[1]}
        if len(seat) > 2:
            spec["position" if game.startswith("classic31") else "age"] = seat[2]
        specs.append(spec)
    variant = get_variant(game.removesuffix("_six"))
    return Session.new(variant.NAME, options, specs, first, path=path)


class Player:
    """Sends each move to the real window (xdotool) and then to the shadow (QTest)."""

    def __init__(self, shadow: MainWindow, out: Path, env: dict | None) -> None:
        self.shadow = shadow
        self.out = out
        self.env = env  # None: dry run, the shadow only
        self.taps = 0
        self.keys = 0
        self.log: list[str] = []
        self.shots = 0
        self.slip_gone = False

    def xdo(self, *args: str) -> None:
        if self.env is not None:
            subprocess.run(["xdotool", *args], env=self.env, check=True)
        if self.env is not None or args[0] == "mousemove":  # a dealer's pace
            time.sleep(PAUSE)

    def focus(self) -> QWidget:
        return QApplication.focusWidget() or self.shadow.table.input.entry

    def target(self, what: str) -> QWidget:
        table = self.shadow.table
        if what.startswith("#seatFor_") and not table.panel.chips.picker_lines:
            return table.table.seat_widget(int(what.removeprefix("#seatFor_")))  # no "For"
            # row here (up to six seats, or a chip per seat in every row): the dealer taps
            # the seat on the felt
        if what.startswith("#"):
            found = [b for b in self.shadow.findChildren(QPushButton, what[1:])
                     if b.isVisible()]  # not one on its way out (deleteLater)
            if not found:
                raise SystemExit(f"no visible {what} now")
            return found[0]
        for index, action in enumerate(table.actions):
            if re.search(what, action.label):
                return table.panel.buttons[index]
        raise SystemExit(f"no action {what!r} now; actions: "
                         f"{', '.join(a.label for a in table.actions)}")

    def play(self, kind: str, what: str) -> None:
        if kind == "shot":
            self.shot(what)
        elif kind == "tap":
            button = self.target(what)
            centre = button.mapTo(self.shadow, button.rect().center())
            self.xdo("mousemove", str(centre.x()), str(centre.y()), "click", "1")
            QTest.mouseClick(button, Qt.MouseButton.LeftButton, pos=button.rect().center())
            self.taps += 1
            self.log.append(f"tap {what.strip('^$#')}")
        elif kind == "type":
            self.xdo("type", "--delay", "60", what)
            self.xdo("key", "Return")
            QTest.keyClicks(self.focus(), what)
            QTest.keyClick(self.focus(), Qt.Key.Key_Return)
            self.keys += len(what) + 1
            self.log.append(f"{' '.join(what)} ⏎")
        elif kind == "fkey":
            table = self.shadow.table
            index = next(i for i, a in enumerate(table.actions) if re.search(what, a.label))
            number = table.panel.key_order.index(index) + 1
            self.key(f"F{number}", f"F{number} ({what.strip('^$')})")
        elif kind == "key":
            self.key(what, what)
        QApplication.processEvents()
        slip = self.shadow.slip
        self.slip_gone = slip is not None and not slip.isVisible()
        if self.env is None and kind != "shot":  # a dry run says where each move left the game
            print(f"{kind} {what}: {self.shadow.table.session.view().prompt}")

    def key(self, name: str, note: str) -> None:
        self.xdo("key", name)
        QTest.keyClick(self.focus(), getattr(Qt.Key, f"Key_{name}"))
        self.keys += 1
        self.log.append(note.replace("Return", "⏎"))

    def shot(self, name: str) -> None:
        self.shots += 1
        if self.env is None:
            return
        path = self.out / f"{self.shots:02d}-{name}.png"
        subprocess.run(["import", "-window", "root", str(path)], env=self.env, check=True)
        print(path)


def start_app(path: Path, size: str) -> tuple[dict, list[subprocess.Popen]]:
    display = f":{random.randint(150, 250)}"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", f"{size}x24", "-dpi", "96"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env["DISPLAY"] = display
    time.sleep(1)
    app = subprocess.Popen([sys.executable, "-m", "dealer_assist.cli", "gui", str(path)],
                           env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    window = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name",
                             "31 dealer assist"], env=env, capture_output=True, text=True,
                            timeout=60).stdout.split()[0]
    time.sleep(2)
    subprocess.run(["xdotool", "windowfocus", "--sync", window], env=env, check=True)
    time.sleep(0.5)
    return env, [app, xvfb]


def end_state(session: Session) -> str:
    view = session.view()
    lines = [f"rounds settled: {len(session.rounds)}  entries: {len(session.entries)}",
             "money: " + ", ".join(f"{s.name} {s.money}" for s in view.seats)]
    if session.rounds:
        result = session.rounds[-1]
        lines.append("last round: " + "; ".join(
            f"{session.names[r.seat - 1]} {r.outcome} {r.amount:+d}" for r in result.results))
    lines.append(f"prompt: {view.prompt}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=sorted(PLANS))
    parser.add_argument("--size", default="1024x600")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    out = args.out or Path(f"/tmp/xdotool-{args.game}-{args.size}")
    out.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="xdotool-logs-"))
    real_path, shadow_path = folder / "real.db", folder / "shadow.db"
    new_session(args.game, real_path).close()
    application()
    shadow = MainWindow("light")
    shadow.show()
    shadow.show_session(new_session(args.game, shadow_path))
    shadow.setGeometry(0, 0, width, height)
    for _ in range(20):
        QApplication.processEvents()
    env, processes = (None, []) if args.dry_run else start_app(real_path, args.size)
    player = Player(shadow, out, env)
    try:
        for kind, what in PLANS[args.game]:
            player.play(kind, what)
        if SETTLE[args.game]:
            player.play("tap", SETTLE[args.game])
        player.play("shot", "settlement")
        player.play("key", "Return")  # confirm the settlement
        player.play("shot", "settled")
        player.play("tap", "")  # the next round's first action: the slip puts itself away
        player.play("shot", "went-on")
    finally:
        for process in processes[:1]:
            process.terminate()
            process.wait(timeout=20)
        for process in processes[1:]:
            process.terminate()
    mine = shadow.session
    print("\n".join(f"  {line}" for line in player.log))
    print(f"{player.taps} taps and {player.keys} keys; {player.shots} screenshots in {out}")
    print("shadow:\n" + end_state(mine))
    if args.dry_run:
        return 0
    real = Session.open(real_path)
    print("real window's log:\n" + end_state(real))
    same = (len(real.entries), [s.money for s in real.seats]) == (
        len(mine.entries), [s.money for s in mine.seats]) and len(real.rounds) == 1
    same = same and player.slip_gone
    print("the real window did what the plan meant" if same else "MISMATCH with the shadow")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
