// Package layout writes a new document the way a repository writes the
// documents of its kind (canon new, MCP item_new; ADR-0072): the folder
// it goes in (a Kano backlog's number buckets included), its file name
// (Backlog.md's "task-12 - Title.md", Kano's "KB-TSK-0012_slug.md", an
// ADR series' "0012-slug.md"), its frontmatter (the fields in their
// order, each written as the samples write it: quotes, lists, dates) and
// its usual sections, all learned from the documents of that kind it is
// handed.
//
// It is pure: it reads no file, opens no database and runs no git. The
// caller (the use case) hands it the samples and writes what it composes
// through the edit engine.
package layout
