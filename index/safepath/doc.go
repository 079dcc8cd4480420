// Package safepath proves that a path canon writes or deletes lies inside
// a folder it may touch (the repository's working tree, its git folder),
// after every symbolic link in the path is followed. A repository is input
// from whoever wrote it: it can commit .cache as a link to /home, or a
// hooks folder as a link to /etc, and a check of the path's text alone
// lets canon write there.
//
// The rules: the path's deepest existing ancestor, links resolved, must be
// inside one of the roots (links resolved too); for a write, the path
// itself must not be a link (renaming onto a link replaces the link, but
// opening one follows it); a removal removes a link itself, never what it
// points to, and proves the path again right before it deletes.
//
// It sits at the bottom of the ladder with index; it imports nothing of
// canon's.
package safepath
