// Loaded through NODE_OPTIONS: code agentty's fingerprint does not cover.
