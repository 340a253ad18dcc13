"""Geometry between drawings and paper: text fitting, imposition, tiling and sheet furniture."""
