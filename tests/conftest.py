"""What every test shares: the engine-parameter cache (pnp.rules.cache) of this run, in a
folder of its own, so the suite neither reads nor fills the user's."""

from __future__ import annotations

import os
import tempfile

os.environ["PNP_CACHE"] = tempfile.mkdtemp(prefix="pnp-test-cache-")
