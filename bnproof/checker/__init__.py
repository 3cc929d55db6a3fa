"""The independent certificate checker: standard library only, imports nothing
else from bnproof, never evaluates text as code."""

from .kernel import Rejected, check_bytes, check_document, check_file, main, program_digest

__all__ = ["Rejected", "check_bytes", "check_document", "check_file", "main", "program_digest"]
