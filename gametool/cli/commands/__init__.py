"""The command groups of the command line, one module each (see :mod:`gametool.cli`)."""
