"""Certificates: the exact instance, witnesses and obligations, as JSON."""
