"""The spec layer: components.yaml loaded safely into an immutable, validated model.

Import from the module that holds a name: `loader` (`load`, `loads`, `init`), `model` (`Spec`,
`Game`, `Track`, `Asset`), `source` (`bundled_spec_path`, `default_spec_path`). This package
imports nothing itself: the rulebooks and the referee import light parts of it (`options`,
`contract`, `source`) and should not pay for the model and its validation (pydantic).
"""
