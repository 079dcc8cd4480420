// Package lazyre is a regular expression compiled at its first use, not at
// start-up. Every canon process runs every package's initialisers, hooks
// included, and compiling the few dozen expressions canon keeps in package
// variables took about half a millisecond of each start (ADR-0021), for
// expressions most commands never use.
//
// A variable declared with MustCompile is used like a *regexp.Regexp; the
// expressions are checked by a test (cmd/canon's TestRegexpsCompile, which
// links every package) rather than at start-up.
//
// It owns nothing but its list of expressions; it imports nothing of
// canon's and sits at the bottom of the ladder (cmd → usecase → hooks →
// gitsync, workset → graph → index), under index, beside index/human.
package lazyre
