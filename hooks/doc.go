// Package hooks installs canon's git hook shims and is the entry point git
// calls through them. It asks git where hooks live, chains hooks that were
// there before, and never writes outside the repository's own folders.
//
// It owns the shims (an embedded template with a marker line, so that
// canon knows its own), install and uninstall (a foreign hook chained and
// put back byte for byte, core.hooksPath, the snippets for lefthook, husky
// and the pre-commit framework, and the edits of their files), the status
// of the hooks (Inspect: whether canon will run, and what is in the way),
// the merge driver (its registration and its entry, MergeDriver), and the
// hook entry points: Dispatch for canon hook NAME, RunPreCommit,
// RunCheckAll, RunPrePush, and Run for the post-* hooks, which opens a
// gitsync.Session, catches up or reconciles, and tells which ids the sync
// made name two documents (ReportCollisions).
//
// Because Run opens a session of its own, hooks also holds what every
// session opener sets as it opens (session.go): TellWorksets, the OnSync
// listener that hands the changed keys to the worksets, and FinishWrites,
// which finishes the journaled writes a killed command left (the edit
// engine's Finish, index/edit, with the worksets' part of the records: a
// promote's findings; a hook only says one is left). The CLI and the MCP
// server set the same two.
//
// What it must not do: write git's index or stage files (index.lock is held
// while hooks run), or let a post-* hook fail the git command that ran it:
// Run returns an error for its caller to report on one line, and the
// caller exits 0. The pre-commit check, the one hook that may refuse, is
// gitsync's (CheckStaged). Nor does it hold the use cases the front ends
// share (a pack, the ready question, the ids, canon init): those are
// usecase's, one step above.
//
// On the ladder cmd → usecase → hooks → gitsync, workset → graph → index,
// it sits under usecase and above gitsync and workset, the two it joins; it
// never imports usecase.
package hooks
