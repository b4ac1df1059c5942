"""``dealer-assist games``: the games of this build and every option with its default."""

from __future__ import annotations

import argparse

from dealer_assist.variants import available_games, get_variant
from dealer_assist.variants.base import option_specs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", help="show only this game")


def run(args: argparse.Namespace) -> int:
    for name in [args.game] if args.game else available_games():
        variant = get_variant(name)
        print(f"{variant.NAME}: {variant.TITLE} (rules: {variant.RULES_FILE})")
        for spec in option_specs(variant.Options):
            print(f"  {spec['name']} = {spec['default']!r}: {spec.get('doc', '')}")
    return 0
