"""Run the simulator's command line: ``python -m simulator play ...``."""

import sys

from simulator.cli import main

sys.exit(main())
