"""Victor: a web-page cleaner that labels text blocks with a linear-chain CRF."""
