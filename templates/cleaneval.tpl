# Victor's default template for the CleanEval task: which features of which
# blocks the CRF sees. Format: docs/templates.md. Offsets count blocks
# relative to the one being labelled (-1 is the block before it).

# Markup: the elements around a block and the tags between it and its
# neighbours say most about headers, list items and where a paragraph breaks.
container.*             [-1..1]
split.*                 [-1..1]

# Content of the block itself, plus whether its neighbours end or begin a
# sentence. Seeing the neighbours' other content features as well lowered
# label accuracy in cross-validation on cleaneval-dev (6 folds over whole
# pages, two different fold draws: 68.1% full-label and 77.5% content/noise
# accuracy with them, 70.0% and 80.4% without).
char.*                  [0]
token.*                 [0]
sentence.*              [0]
sentence-begin          [-1..1]
sentence-end            [-1..1]
regexp.*                [0]
# A list is a run of blocks with the same bullet pattern.
bullet                  [-2..2]

# Repeated phrases ("read more", "permalink") are noise; the first copy of a
# quoted post is not.
first-duplicate         [0]
duplicate-count         [0]

# Layout: the share of the page's words in the block's div and td groups.
div-group.word-ratio    [-2..2]
td-group.word-ratio     [-2..2]

# Where the block is and what kind of page it is on.
position                [0]
document.*              [0]

# Optional extras; absent from the feature dicts unless enabled upstream.
class-words             [0]
link-density*           [0]
depth                   [0]
perplexity              [0]

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
# Short, link-heavy blocks in a small group are menus.
link-density*[0] & div-group.word-ratio[0]
