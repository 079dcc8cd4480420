// Package safepath proves that a path canon reads, writes or deletes lies
// inside a folder it may touch (the repository's working tree, its git
// folder), after every symbolic link in the path is followed. A repository
// is input from whoever wrote it: it can commit .cache as a link to /home,
// a hooks folder as a link to /etc, a workset's plan.md as a link to
// /proc/self/environ or its configuration as one to /dev/zero, and a check
// of the path's text alone lets canon write there or read that.
//
// The rules: for a write, the path's deepest existing ancestor, links
// resolved, must be inside one of the roots (links resolved too), and the
// path itself must not be a link (renaming onto a link replaces the link,
// but opening one follows it); a removal removes a link itself, never what
// it points to, and proves the path again right before it deletes. A read
// (ReadFile, the one way canon reads a repository's file) opens the file,
// proves the opened file regular and inside, and reads at most a limit for
// its kind (ADR-0031). Within, CleanRel and Join are the one containment
// test by text.
//
// A write to several files goes through a Journal (journal.go,
// ADR-0058; the edit engine, index/edit, is its one user): written under
// the git folder before the first file is
// touched, it lets the next command finish a write whose process was
// killed, or undo it around a file someone changed since. A journal is
// read as any file of the repository: bounded, every path proven again,
// set aside when it does not read as canon writes it.
//
// It sits at the bottom of the ladder with index; it imports nothing of
// canon's but lazyre.
package safepath
