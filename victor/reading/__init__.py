"""Stage 1: reading a page: bytes to an HTML5 tree, pre-cleaned, split into
text blocks, with what the page declares about itself."""
