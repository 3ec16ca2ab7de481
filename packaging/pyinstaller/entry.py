"""Entry point of the frozen bundle: the same ``main()`` as the ``memdesk`` console script."""

import sys

from memdesk.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
