"""``python -m tricktaker.cli``: the same as the ``tricktaker`` script."""

from tricktaker.cli import main

main()
