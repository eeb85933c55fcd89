"""``python -m tools.deploy``: Ctrl-C at any moment, even while the modules load, exits 130."""
import sys

try:
    from .cli import main

    code = main()
except KeyboardInterrupt:
    from .errors import Interrupted

    error = Interrupted()
    print("error: {}".format(error), file=sys.stderr, flush=True)
    code = error.exit_code
sys.exit(code)
