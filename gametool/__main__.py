"""The ``gametool`` command (``python -m gametool`` too): the command line, started.

The modules the command line loads make objects that live as long as the process. The cyclic
garbage collector is off while they load (none of them is garbage: each collection then would
walk them all for nothing), and they are then set apart with :func:`gc.freeze`, so that no
later collection, nor the last one at exit, walks them again."""

import gc


def run() -> None:
    """Load the command line with the collector off, set its objects apart, then run it."""
    gc.disable()
    try:
        from gametool.cli import main
    finally:
        gc.freeze()
        gc.enable()
    main()


if __name__ == "__main__":
    run()
