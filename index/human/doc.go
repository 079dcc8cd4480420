// Package human writes numbers, counts, durations, times and commits the
// way canon's text output shows them to a person: "3 files", "20,000",
// "45ms", "3d 4h", "f469c8fdd4". Every package's text renderer uses it, so
// that one command and another say the same thing the same way, and the
// progress bar a long build shows on a terminal. It quotes what comes from
// a repository (Quote, QuotePath: control characters as git quotes them,
// invisible ones as \u escapes, ADR-0062) and guards the CLI's output with
// Terminal, so that no control character of a repository's text acts on a
// terminal (ADR-0033) and no name passes for another. It owns no state, writes
// nothing but what it is given, and imports nothing of canon's: it sits at
// the bottom of the ladder, under index.
package human
