package gitsync

import (
	"bytes"
	"encoding/hex"
	"path/filepath"
	"sort"
	"strings"

	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// maxStagedTrees is the most of HEAD's trees the staged diff reads in
// process before it leaves the diff to git: a folder's tree is read where
// the cache tree does not tell that the index's entries there are HEAD's,
// which after `git add` is the few folders above what was added. An index
// with no cache tree (some tools write none) would have every folder read.
const maxStagedTrees = 256

// stagedInProcess is what `git diff --cached --raw --no-renames HEAD` lists,
// worked out from the index file and HEAD's trees in process, as git's own
// diff does it (unpack_trees with the cache tree): a folder whose cache
// tree is HEAD's tree there is skipped, any other is merged entry by entry
// with HEAD's. git took 15 ms for it at 100k documents, nearly all of it
// reading the index into memory; this reads it in place. ok is false when
// it leaves the diff to git: no HEAD, an index it does not read
// (gitfile.ReadIndex refuses it), a tree not in the packs canon reads, a
// mode git would read its own way, or more trees than maxStagedTrees. A file where HEAD
// has a folder of that name sorts before it (git's order: "b" before
// "b/"), so it is an addition and the folder's files deletions, as git
// lists them.
func (r *Repo) stagedInProcess(rt *revTrees) (changes []StagedChange, ok bool) {
	defer func() {
		if recover() != nil { // a file this reads wrongly is git's to read, never a failed commit
			changes, ok = nil, false
		}
	}()
	root, ok := rt.root("HEAD")
	if !ok {
		return nil, false
	}
	ix, err := gitfile.ReadIndex(indexFile(r))
	if err != nil {
		return nil, false
	}
	defer ix.Close()
	w := &stagedWalk{ix: ix, rt: rt}
	if !w.dir(nil, 0, ix.Len(), ix.Tree(), root) {
		return nil, false
	}
	return w.out, true
}

// indexFile is the index git's diff would read: GIT_INDEX_FILE as the
// hooks are given it (stagedEnv), else the worktree's own.
func indexFile(r *Repo) string {
	for _, kv := range stagedEnv() {
		if v, ok := strings.CutPrefix(kv, "GIT_INDEX_FILE="); ok && v != "" {
			return v
		}
	}
	return filepath.Join(r.GitDir, "index")
}

// stagedWalk merges the index's entries with HEAD's trees.
type stagedWalk struct {
	ix    *gitfile.Index
	rt    *revTrees
	trees int
	out   []StagedChange
}

// dir merges the entries [lo, hi), those under the folder prefix (empty,
// or ending in a slash), with HEAD's tree there (zero: none); node is the
// folder's cache tree, nil if none.
func (w *stagedWalk) dir(prefix []byte, lo, hi int, node *gitfile.CacheTree, head plumbing.Hash) bool {
	if node.Covers(hi-lo, head) {
		return true // git's cache tree: these entries make HEAD's tree
	}
	tree, ok := w.tree(head)
	if !ok {
		return false
	}
	i := lo
	var te gitfile.TreeEntry
	haveT := len(tree) > 0
	if haveT {
		var err error
		if te, tree, err = gitfile.NextEntry(tree); err != nil {
			return false
		}
	}
	for i < hi || haveT {
		var ie gitfile.TreeEntry // the index's next name in this folder
		j := i
		if i < hi {
			j, ie = w.child(prefix, i, hi)
		}
		c := 0
		switch {
		case i == hi:
			c = 1
		case !haveT:
			c = -1
		default:
			c = gitfile.CompareEntries(&ie, &te)
		}
		if !w.pair(prefix, c, i, j, node, &ie, &te) {
			return false
		}
		if c <= 0 {
			i = j
		}
		if c >= 0 {
			haveT = len(tree) > 0
			if haveT {
				var err error
				if te, tree, err = gitfile.NextEntry(tree); err != nil {
					return false
				}
			}
		}
	}
	return true
}

// child is the index's next name in the folder prefix from entry i: a
// file (entry i) or a folder (entries i to j, found by binary search).
func (w *stagedWalk) child(prefix []byte, i, hi int) (int, gitfile.TreeEntry) {
	p := w.ix.Path(i)
	rest := p[len(prefix):]
	k := bytes.IndexByte(rest, '/')
	if k < 0 {
		return i + 1, gitfile.TreeEntry{Name: rest, Mode: filemode.FileMode(w.ix.Mode(i))}
	}
	dir := p[:len(prefix)+k+1]
	j := i + sort.Search(hi-i, func(n int) bool { return !bytes.HasPrefix(w.ix.Path(i+n), dir) })
	return j, gitfile.TreeEntry{Name: rest[:k], Mode: filemode.Dir}
}

// pair handles one name of the folder: c < 0 the index's only (entries
// i to j), c > 0 HEAD's only (te), else both.
func (w *stagedWalk) pair(prefix []byte, c, i, j int, node *gitfile.CacheTree, ie, te *gitfile.TreeEntry) bool {
	if c > 0 {
		if !canonMode(te.Mode) {
			return false
		}
		if te.Mode == filemode.Dir {
			return w.deleted(append(join(prefix, te.Name), '/'), plumbing.Hash(te.Hash))
		}
		w.emit(join(prefix, te.Name), uint32(te.Mode), 0, te.Hash, nil)
		return true
	}
	if c < 0 {
		for n := i; n < j; n++ {
			w.emit(w.ix.Path(n), 0, w.ix.Mode(n), nil, w.ix.OID(n))
		}
		return true
	}
	if !canonMode(te.Mode) {
		return false
	}
	if ie.Mode == filemode.Dir {
		return w.dir(append(join(prefix, ie.Name), '/'), i, j, node.Child(ie.Name), plumbing.Hash(te.Hash))
	}
	if uint32(te.Mode) != w.ix.Mode(i) || !bytes.Equal(te.Hash, w.ix.OID(i)) {
		w.emit(w.ix.Path(i), uint32(te.Mode), w.ix.Mode(i), te.Hash, w.ix.OID(i))
	}
	return true
}

// deleted lists every file of HEAD's folder p as deleted.
func (w *stagedWalk) deleted(p []byte, h plumbing.Hash) bool {
	tree, ok := w.tree(h)
	for ok && len(tree) > 0 {
		var e gitfile.TreeEntry
		var err error
		if e, tree, err = gitfile.NextEntry(tree); err != nil || !canonMode(e.Mode) {
			return false
		}
		if e.Mode == filemode.Dir {
			ok = w.deleted(append(join(p, e.Name), '/'), plumbing.Hash(e.Hash))
			continue
		}
		w.emit(join(p, e.Name), uint32(e.Mode), 0, e.Hash, nil)
	}
	return ok
}

// tree is HEAD's tree h, whole (nil for zero); false past maxStagedTrees
// or when it cannot be read in process.
func (w *stagedWalk) tree(h plumbing.Hash) ([]byte, bool) {
	if h.IsZero() {
		return nil, true
	}
	if w.trees++; w.trees > maxStagedTrees {
		return nil, false
	}
	lt := w.rt.tree(h)
	if lt == nil {
		return nil, false
	}
	return lt.All()
}

// emit adds a change as parseRaw makes it from git's line (a zero mode or
// nil oid: that side has no file).
func (w *stagedWalk) emit(p []byte, fromMode, toMode uint32, from, to []byte) {
	status := byte('M')
	switch {
	case from == nil:
		status = 'A'
	case to == nil:
		status = 'D'
	case fromMode&0o170000 != toMode&0o170000:
		status = 'T'
	}
	c := StagedChange{Status: status, Path: string(p)}
	if to != nil && toMode != 0o160000 {
		c.OID = hex.EncodeToString(to)
	}
	if from != nil && fromMode != 0o160000 {
		c.From = hex.EncodeToString(from)
	}
	if c, ok := rawChange(c); ok {
		w.out = append(w.out, c)
	}
}

// canonMode is a mode git's diff reads as it is: a folder, a file, an
// executable, a symbolic link, a submodule's commit.
func canonMode(m filemode.FileMode) bool {
	return m == filemode.Dir || gitfile.IndexMode(uint32(m))
}

func join(prefix, name []byte) []byte {
	return append(append(make([]byte, 0, len(prefix)+len(name)+1), prefix...), name...)
}
