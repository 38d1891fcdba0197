# The default config's template (docs/templates.md): the cleaneval
# template's lines, and the signals below.
@include cleaneval

# path.blocks and path.span over element kinds, where a kind merges paths
# (victor/features/families/kind.py).
kind.*                  [-1..1]

# What HTML5, ARIA and schema.org say the block is, and whether it sits in
# the page's main body of running text as readability would find it:
# signals that mean the same on every site.
semantic.*              [-1..1]
candidate.*             [-1..1]
# What the page declares as its text (JSON-LD, og:description) and its
# title: the headline and the body say the same on every site.
structured.*            [-1..1]
title.*                 [0]
