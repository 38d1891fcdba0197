"""Training: annotated pages to examples, models fitted and cross-validated
by web site, and the scores they are judged by."""
