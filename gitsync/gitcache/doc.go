// Package gitcache keeps, in small files of canon's folder beside the
// index (.git/canon), what canon worked out from git's objects and what
// never changes for the same objects: the parents and time of the commits
// the merge-base walks read, and of the tips of the refs past
// branches.max (Commits); the diffs between two commits the overlays
// worked out (Diffs). Each file is derived (deleting it loses nothing),
// written whole and atomically, bounded, and checked when read: a file
// that fails its checksum or its shape is no cache.
//
// It decides nothing about what to read or when: gitsync, above it, asks
// it before it reads git's objects and hands it what it read. It reads
// and writes only its own files, inside the canon folder (index/safepath);
// it runs no git and opens no database.
package gitcache
