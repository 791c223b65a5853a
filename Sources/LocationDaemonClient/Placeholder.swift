// Placeholder: filled by issue #4's work.
