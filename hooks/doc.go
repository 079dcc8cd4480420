// Package hooks installs canon's git hook shims and is the entry point git
// calls through them. It asks git where hooks live, chains hooks that were
// there before, and never writes outside the repository's own folders.
//
// It owns the shims (an embedded template with a marker line, so that
// canon knows its own), install and uninstall (a foreign hook chained and
// put back byte for byte, core.hooksPath, the snippets for lefthook, husky
// and the pre-commit framework) and the post-* runs: Run opens a
// gitsync.Session, catches up or reconciles, and TellWorksets, the OnSync
// listener every session opener sets, hands the changed keys to the
// worksets.
//
// What it must not do: write git's index or stage files (index.lock is held
// while hooks run), or let a post-* hook fail the git command that ran it:
// Run returns an error for its caller to report on one line, and the
// caller exits 0. The pre-commit check, the one hook that may refuse, is
// gitsync's (CheckStaged).
//
// On the ladder cmd → hooks → gitsync, workset → graph → index, it sits
// under cmd and above gitsync and workset, the two it joins.
package hooks
