"""Backends at the edge: the display list → PDF (reportlab), SVG (svgwrite), PNG (pypdfium2).

`fonts` holds the bundled fonts and the metrics that text fitting measures with. Import the
backend you need (`pnp.render.pdf`, `.svg`, `.png`); this package imports nothing heavy itself.
The PDF and SVG backends each fill one `dispatch.Dispatch`: their drawing function for every
kind of display item.
"""
