"""Claims from the literature, each with its source and its statement as printed."""
