"""ptovec's Python side: readers of ptovec's files (``ptovec.files``).

Standard library and numpy only; nothing to build. ``ptovec.files`` is documented there.
"""
