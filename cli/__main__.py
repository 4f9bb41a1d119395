"""`python -m adp2p.cli`."""

import sys

from adp2p.cli.main import main

sys.exit(main())
