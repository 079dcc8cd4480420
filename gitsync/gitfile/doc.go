// Package gitfile reads git's own files in place, as git wrote them,
// without running git and without a repository: an objects folder's pack
// indexes (.idx and .rev, searched where they are mapped, ADR-0013), its
// packs (object headers, zlib streams and delta chains decoded straight
// from the mapped file, ADR-0021) and loose objects (Store); the entries
// of a tree object (TreeEntry, Tree: a large tree inflated only as far as
// a lookup needs) and the header of a commit (ParseCommit, CommitTree);
// the index file, .git/index, with its cache tree (Index, ADR-0071); and
// the ref files, packed-refs and linked worktrees' HEADs (Refs).
//
// Everything it reads comes from a repository a stranger may have made:
// every size, offset, count and chain is bounded and checked, and a file
// it cannot read as git would is an error or "not here" (the caller then
// asks git), never a panic or an allocation of what the file claims.
//
// It knows nothing of canon's index, sessions or configuration: gitsync,
// above it, decides what to read and what a change means, and asks git
// for what this package leaves to it (a reftable, an alternate object
// store, an index of another version). Of canon's packages it imports
// only index/safepath, to read ref files inside the git folder.
package gitfile
