// Package usecase is the layer both front ends call: the use cases that
// canon's CLI (cmd/canon) and its MCP server (cmd/internal/mcpserver)
// share beyond one call of an owning package, and those that join several
// owners or have none below (ADR-0022, ADR-0059).
//
// It owns Context (a pack from a search and seeds, or for a task), Neighbors,
// Work and Elsewhere (the ready and blocked question, with what other
// branches and worktrees do), VersionsOn (show's versions on other refs),
// TemplateRun (a query template on an open session), the ids (Next, and
// RenameID and FixIDs: which references an id rename rewrites, planned
// over the session's index and configuration), check --fix (Fix: which
// edits a check's findings carry), Init (canon init with whether the
// hooks run canon) and the agents guide (WriteGuide). The use cases that
// write canonical Markdown decide what to write and hand it to the edit
// engine (index/edit), which edits, writes all files or none through the
// journal, tells git's index of a move and syncs the index: they join the
// session and the engine, so they sit here, above both (ADR-0060).
//
// Each takes what the front end was given, checks it and fills in the
// defaults from the configuration where there are any, refuses a bad
// argument with a gitsync.ArgsError in the command line's words (or a
// sentinel, ErrNamespace, ErrIDRename), and answers with a result type
// that renders itself (WriteText, its JSON).
//
// What it must not do: parse flags, print, or know which front end calls
// it (references come in already read in the caller's frame: Repo.Ref for
// a command line, Repo.RootRef for an agent); open a session (the front
// end opens it and sets hooks.TellWorksets and hooks.FinishWrites on it);
// or hold what one owning package can answer in one call: that stays in
// the package that owns it (gitsync.Session.Status, workset.Create,
// graph.Graph.Pack, hooks.Setup), and the front ends call it there.
//
// On the ladder cmd → usecase → hooks → gitsync, workset → graph → index
// (index/edit with index), it sits under the front ends and above every
// other package: it imports hooks for Init alone, and nothing below
// imports it.
package usecase
