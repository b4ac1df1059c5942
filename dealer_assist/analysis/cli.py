"""``dealer-assist analyze GAME``: exact odds of a game's wagers and its best strategy.

Only 31 Classic (a house-banked game with pay tables) has an analyser:
``dealer-assist analyze 31-classic [--play N] [--natural N] [--royal N] [--json] [--hands]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from typing import Any

from dealer_assist.errors import RuleError
from dealer_assist.variants import ALIASES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="the game to analyse: 31-classic")
    parser.add_argument("--play", type=int, default=1, metavar="N", help="Play pay table #1-#5")
    parser.add_argument("--natural", type=int, default=1, metavar="N",
                        help="Natural 31 Bonus pay table #1-#3")
    parser.add_argument("--royal", type=int, default=1, metavar="N",
                        help="4 Card Royal Family Bonus pay table #1-#3")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--hands", action="store_true",
                        help="also list the decision for every kind of starting hand")


def run(args: argparse.Namespace) -> int:
    if ALIASES.get(args.game, args.game) != "classic31":
        print(f"analyze: no analyser for {args.game!r}; available: 31-classic", file=sys.stderr)
        return 2
    from dealer_assist.analysis import classic31

    try:
        analysis = classic31.analyze(args.play, args.natural, args.royal)
    except RuleError as exc:
        print(f"analyze: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(to_json(analysis), indent=2, ensure_ascii=False))
    else:
        print(to_text(analysis, hands=args.hands))
    return 0


# ---------------------------------------------------------------- output


def fraction_text(x: Fraction) -> str:
    """An exact fraction always written p/q."""
    return f"{x.numerator}/{x.denominator}"


def _exact(name: str, x: Fraction) -> dict[str, Any]:
    return {name: fraction_text(x), f"{name}_float": float(x)}


def _wager_json(odds: Any) -> dict[str, Any]:
    return {
        "counted": odds.space,
        "categories": [
            {"category": line.category, "pays": line.pays, "count": line.count,
             "result_per_unit": line.result, **_exact("probability", line.probability)}
            for line in odds.lines],
        **_exact("return", odds.ret), **_exact("edge", odds.edge),
    }


def to_json(analysis: Any) -> dict[str, Any]:
    from dealer_assist.analysis.classic31 import strategy_card

    ap = analysis.ante_play
    play, natural, royal = analysis.tables
    return {
        "game": "classic31",
        "pay_tables": {"play": play, "natural": natural, "royal": royal},
        "natural": _wager_json(analysis.natural),
        "royal": _wager_json(analysis.royal),
        "ante_play": {
            **_wager_json(ap),
            **_exact("played_share", ap.played_share),
            **_exact("either_share", ap.either_share),
            **_exact("element_of_risk", ap.element_of_risk),
            **_exact("always_play_return", ap.always_play_return),
            "decisions": [
                {"cards": " ".join(c.code for c in d.cards), "hands": d.hands,
                 "choice": d.choice, **_exact("play_value", d.play_value)}
                for d in ap.decisions],
        },
        "strategy_card": strategy_card(analysis).splitlines(),
    }


def _percent(x: Fraction) -> str:
    return f"{float(x) * 100:.4f}%"


def _wager_text(odds: Any) -> list[str]:
    out = [odds.title, f"  counted: {odds.space}",
           f"  {'category':<20} {'pays':<22} {'count':>9}  probability"]
    from dealer_assist.variants.classic31_tables import LABELS

    for line in odds.lines:
        label = LABELS.get(line.category, line.category)
        probability = f"{float(line.probability):.8f}"
        out.append(f"  {label:<20} {line.pays:<22} {line.count:>9}  {probability}")
    out.append(f"  return per unit: {fraction_text(odds.ret)} = {_percent(odds.ret)}")
    out.append(f"  house edge:      {fraction_text(odds.edge)} = {_percent(odds.edge)}")
    return out


def to_text(analysis: Any, hands: bool = False) -> str:
    from dealer_assist.analysis.classic31 import strategy_card

    play, natural, royal = analysis.tables
    ap = analysis.ante_play
    out = ["31 Classic: exact odds for one position, one 52-card deck",
           f"Pay tables: Play #{play}, Natural 31 Bonus #{natural}, "
           f"4 Card Royal Family Bonus #{royal}", ""]
    out += _wager_text(analysis.natural) + [""]
    out += _wager_text(analysis.royal) + [""]
    out += _wager_text(ap)
    out += [
        "  (return and edge per unit of Ante, with the best play/fold decision)",
        f"  hands played:    {fraction_text(ap.played_share)} = {_percent(ap.played_share)}"
        f" (ties, folded: {fraction_text(ap.either_share)} = {_percent(ap.either_share)})",
        f"  element of risk: {fraction_text(ap.element_of_risk)} = "
        f"{_percent(ap.element_of_risk)}",
        f"  playing every hand would return {fraction_text(ap.always_play_return)} = "
        f"{_percent(ap.always_play_return)}", "",
        strategy_card(analysis)]
    if hands:
        out += ["", "Every kind of starting hand (suits renamed; 'hands' = how many of 22,100):",
                f"  {'cards':<12} {'hands':>5}  {'choice':<6} play value per ante"]
        for d in ap.decisions:
            cards = " ".join(c.label for c in d.cards)
            out.append(f"  {cards:<12} {d.hands:>5}  {d.choice:<6} "
                       f"{fraction_text(d.play_value)} = {float(d.play_value):+.5f}")
    return "\n".join(out)
