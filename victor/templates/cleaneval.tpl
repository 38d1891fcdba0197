# Victor's default template for the CleanEval task: which features of which
# blocks the CRF sees. Format: docs/templates.md. Offsets count blocks
# relative to the one being labelled (-1 is the block before it).
# docs/notes/results.md gives the cross-validated figures behind the choices.

# Markup: the elements around a block and the tags between it and its
# neighbours say most about headers, list items and where a paragraph breaks.
container.*             [-1..1]
split.*                 [-1..1]

# Content of the block and of its immediate neighbours. With the strong L2
# regularisation of configs/cleaneval.yaml the neighbours' content helps
# (cleaneval-dev, 6 folds, two fold draws: 78.0% / 77.2% full-label
# accuracy with it, 76.7% / 76.9% with the block's own content only); with
# weak regularisation it had overfitted.
char.*                  [-1..1]
token.*                 [-1..1]
sentence.*              [-1..1]
sentence-begin          [-1..1]
sentence-end            [-1..1]
regexp.*                [-1..1]
# A list is a run of blocks with the same bullet pattern.
bullet                  [-2..2]
# How much text stands around: a short block among long ones is part of
# the text (a link, a byline), one among short ones part of a menu.
token.alpha-abs         [-3..3]

# Repeated phrases ("read more", "permalink") are noise; the first copy of a
# quoted post is not.
first-duplicate         [0]
duplicate-count         [-1..1]

# Layout: the block's tag path as a whole (every post of a forum, every
# paragraph of a story sits on one): its share of the page's words, how
# linked, long and spread out it is. The errors are mostly whole paths
# kept or dropped (docs/notes/results.md). The thesis's div and td group
# ratios are left out: next to the path share they cost accuracy on
# every fold draw tried.
path.*                  [-1..1]

# Where the block is (in words: the block count of `position` added
# nothing beside it), how far the nearest running text is, and what kind
# of page it is on.
words-before            [-1..1]
nearest-text            [-1..1]
document.*              [0]

# Beyond the thesis: the block's class names, how linked its container is, how deep it sits.
class-words             [-1..1]
link-density*           [-1..1]
link-density.container  [-2..2]
depth                   [-1..1]

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
