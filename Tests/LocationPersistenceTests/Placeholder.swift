// Tests arrive with issue #4's work.
