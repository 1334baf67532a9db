"""``python -m gametool`` runs the command line."""

from gametool.cli import main

main()
