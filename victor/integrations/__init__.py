"""Victor inside the pipelines corpus builders run: each module adapts a
Cleaner to one pipeline's interface (victor.integrations.datatrove) and is
imported only by its users, so that the pipeline it needs is imported only
then."""
