// Package scan finds and reads the files canon indexes (docs/architecture.md,
// "Documents, identity, edges"; ADR-0066): which repository paths are
// documents and the walk that lists them, and the reading of one file with
// the reasons a file is not a document.
//
// Walking (Scope, walk.go): a document is a .md file under a configured
// root, not excluded by the configuration, git's info/exclude or a
// .gitignore (nested ones as git reads them), never under .git or .cache,
// nor in a nested repository; a symbolic link is listed, not followed.
// Canon's own temporary files met on the way are debris (RemoveDebris).
// Ignore rules are worked out once per folder (folderRules, ignore.go:
// go-git's matcher, with one name match per rule); each folder is read
// once and its files stat'ed by name (ADR-0081). On Linux (amd64, arm64)
// walkTree (walk_fast.go) reads folders with getdents64 on two or more
// goroutines and stats by the names in the listing, at about the cost of
// the bare system calls (scripts/walkfloor); walkDir is the walk elsewhere
// and the reference its tests hold it to.
//
// Reading (Read, read.go): a file proven inside the repository, at most
// max_file_size, with git's blob id (BlobOID); what cannot be a document
// says why (a symbolic link, LinkedTarget reads its target back; over the
// size cap, OverSizeCap; binary or not UTF-8, Unreadable). ReadDocument
// reads a path the index or a workset holds, which a repository can forge.
// InOrder loads many files on every core and hands them on in order.
//
// What it must not do: parse (index.Loader parses what it reads, through
// index/markdown, and prepares the rows index writes), open a database or
// run git. On the ladder cmd → usecase → hooks → gitsync, workset → graph
// → index it sits at the bottom with index's other sub-packages, under
// index (which imports it); it imports index/config and index/safepath
// only.
package scan
