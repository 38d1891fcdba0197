"""One exception type for everything a user can cause.

Scripts catch it and print its message as a single line, so every message
must name the file (or key) at fault and say what to do about it.
"""


class VictorError(Exception):
    """A problem with the user's input, config, model or output location."""
