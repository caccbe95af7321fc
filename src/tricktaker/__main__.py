"""``python -m tricktaker``: the same as the ``tricktaker`` script."""

from tricktaker.cli import main

if __name__ == "__main__":
    main()
