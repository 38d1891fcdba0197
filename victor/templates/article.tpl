# The article template (docs/article.md), grown from the CleanEval one: which features of which
# blocks the CRF sees. Format: docs/templates.md. Offsets count blocks
# relative to the one being labelled (-1 is the block before it).

# Markup: the elements around a block and the tags between it and its
# neighbours say most about headers, list items and where a paragraph breaks.
container.*             [-1..1]
split.*                 [-1..1]

# Content of the block and of its immediate neighbours.
char.*                  [-1..1]
token.*                 [-1..1]
sentence.*              [-1..1]
sentence-begin          [-1..1]
sentence-end            [-1..1]
regexp.*                [-1..1]
# A list is a run of blocks with the same bullet pattern.
bullet                  [-2..2]

# Repeated phrases ("read more", "permalink") are noise; the first copy of a
# quoted post is not.
first-duplicate         [0]
duplicate-count         [-1..1]

# Layout: the share of the page's words in the block's div and td groups.
div-group.word-ratio    [-2..2]
td-group.word-ratio     [-2..2]

# Where the block is and what kind of page it is on.
position                [0]
document.*              [0]

# Beyond the thesis: the block's class names.
class-words             [-1..1]

# Beyond the thesis (docs/article.md).
text-density.*          [-1..1]
size.*                  [0]
main-group.*            [-1..1]
title.*                 [-1..1]
# What HTML5, ARIA and schema.org say the block is, whether it sits in the
# page's best body of running text as readability would find it, and how
# much of it the page declares as its text (JSON-LD, og:description):
# signals that mean the same on every site (docs/article.md).
semantic.*              [-1..1]
candidate.*             [-1..1]
structured.*            [-1..1]

# Combinations. A block that does not begin a sentence after one that did
# not end one is a continuation, unless a tag in between breaks the text.
sentence-end[-1] & sentence-begin[0]
sentence-end[-1] & sentence-begin[0] & split.*[0]
# The kind of break before a block means different things in different
# elements (a <br> inside a <p> versus between table cells).
split.*[0] & container.*[0]
# Same or different bullet as the neighbours.
bullet[-1] & bullet[0]
bullet[0] & bullet[+1]
first-duplicate[0] & duplicate-count[0]
