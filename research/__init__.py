"""Experiments and their command lines, kept out of the runtime package `victor`."""
