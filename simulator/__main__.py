"""Run the simulator's command line: ``python -m simulator play ...``."""

import signal
import sys

from simulator.cli import main

if hasattr(signal, "SIGPIPE"):
    # `... | head`: when the reader stops early, end quietly as Unix tools do, not with
    # a BrokenPipeError's traceback.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
sys.exit(main())
