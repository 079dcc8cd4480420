// Package workset materialises a slice of the graph for one task under
// .cache/worksets/NAME (docs/worksets.md): workset.db, a database with the
// index's own schema holding only the selected documents plus the
// workset's manifest, provenance, staleness and promotion records, and
// plan.md, notes.md and deliverable.md for the agent doing the task.
//
// It owns the folder and everything in it, and promote: the one path by
// which what a workset learned goes back into canonical documents
// (promote.go, docs/promote.md). Promote decides where each finding goes
// (its target, the climb of --to, the section of its kind, a new ADR's
// number and folder) and writes through the edit engine (index/edit),
// which makes the line edits that leave every other byte alone, writes
// all files or none and brings the index to them; the findings are
// recorded in the workset in the same journaled step (Records,
// RecordPromoted). It writes no other canonical file: id rename and
// check --fix are use cases of cmd/internal/usecase over the same engine.
// The repository's index is read, and written only through the
// Repository a session satisfies.
// Selection reuses the graph package (the same expansion,
// templates and context packs as canon context), and the rows are copied
// by index.Slice.Copy, so everything that reads an index reads a workset.
// The database's schema, the workset's tables included, belongs to the
// store (index/internal/slice): this one writes no SQL.
//
// It knows nothing of git, hooks or the CLI: the caller of a sync hands
// the changed node keys to Invalidate, which marks each workset holding
// one stale with the reason. Every path it builds is checked to stay
// inside .cache/worksets; names are validated before any path is built.
//
// On the ladder cmd → usecase → hooks → gitsync, workset → graph →
// index, it sits beside gitsync, under hooks, usecase and cmd, above graph
// and index; it never imports gitsync, hooks or usecase.
package workset
