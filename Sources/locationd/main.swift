// Placeholder: the daemon's entry point (issue #4).
