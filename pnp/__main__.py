"""Allow `python -m pnp`."""

from pnp.cli import main

raise SystemExit(main())
