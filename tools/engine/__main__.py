import sys

from tools.engine.cli import main

# Guarded: the arena's worker processes start afresh and import this module again.
if __name__ == "__main__":
    sys.exit(main())
