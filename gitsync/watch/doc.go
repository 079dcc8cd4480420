// Package watch keeps one worktree's index in step with its files as they
// are saved: canon watch (docs/watch.md).
//
// It owns the file-system side of syncing: recursive fsnotify watches over
// the canonical roots (folders added and dropped as they come and go),
// the coalescing of bursts of events into one set of paths, the debounce,
// watches on HEAD and the branch refs so that a checkout or a reset made
// without hooks is caught, the periodic safety rescan, the one-watcher-
// per-worktree lock and the status file canon status reads.
//
// What a sync does is gitsync's and index's: a catch-up with HEAD goes
// through Session.CatchUp, a full rescan through Session.Reconcile, and an
// edit becomes an index.Batch of the changed paths only (stat, load,
// deletions, renames paired by blob id) applied with Store.Apply under the
// writer lock. The package never walks the whole tree for an edit and never
// imports workset: the caller hears about every sync through Options.OnSync
// and hands the changed keys on.
//
// On the ladder cmd → usecase → hooks → gitsync, workset → graph →
// index, it sits with gitsync, which it drives, under cmd (canon watch).
package watch
