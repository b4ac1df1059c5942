"""The one error type a refused input raises: its message is shown to the dealer as it is."""


class RuleError(ValueError):
    """A command the rules refuse (bad card, out of turn, bet out of limits...). Nothing changes."""
