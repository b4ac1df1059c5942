"""Small CLI subcommands of the session layer."""
