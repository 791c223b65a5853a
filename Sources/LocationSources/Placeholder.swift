// Sources (fixed, GPX, simulation) are being written.
