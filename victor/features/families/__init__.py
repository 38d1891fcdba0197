"""The feature families, one module a family (features/registry.py lists
them)."""
