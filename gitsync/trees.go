package gitsync

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/canon-md/canon/gitsync/gitcache"
	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/canon-md/canon/index"
)

// ErrMissingCommit says a commit the index remembers is no longer in the
// repository (garbage-collected, or beyond a shallow clone's edge).
var ErrMissingCommit = errors.New("commit not in the repository")

// ErrNotObjectID is a value that should be an object id and is not: canon
// passes git only object ids it has checked (index.IsObjectID).
var ErrNotObjectID = errors.New("not an object id")

// Objects reads commits and trees from the object database only (packs and
// loose objects through gitfile.Store, anything else through go-git's object
// storage): no worktree, no index file, no config, so none of go-git's gaps
// around worktreeConfig, skipHash or sparse indexes apply.
type Objects struct {
	// packs reads the packs and loose objects without go-git's open cost
	// (gitfile.Store); gogit is go-git's storage, opened only if needed.
	packs *gitfile.Store
	gogit *filesystem.Storage
	dir   string
	// MaxTrees, when above zero, stops a walk that has read that many
	// trees with ErrLargeDiff.
	MaxTrees int
	trees    int
	// commits, when set, keeps the parents and times merge-base walks
	// read (gitcache.Commits).
	commits *gitcache.Commits
	// loadCommits, when set, loads commits once a walk that began
	// without them grows long (grewFrom).
	loadCommits func() *gitcache.Commits
	// ahead, when set, diffs on a second core what Overlays asks next
	// (overlay_ahead.go), started by newAhead at the first diff wanted;
	// diffs keeps the overlays' diffs (gitcache.Diffs).
	ahead    *diffAhead
	newAhead func() *diffAhead
	diffs    *gitcache.Diffs
}

// ErrLargeDiff stops a walk that passed Objects.MaxTrees.
var ErrLargeDiff = errors.New("the trees differ in many folders")

// OpenObjects opens the object database of the repository. Pack files stay
// open until Close.
func OpenObjects(r *Repo) *Objects {
	o := &Objects{dir: r.CommonDir}
	o.packs = gitfile.OpenStore(filepath.Join(r.CommonDir, "objects"))
	return o
}

// goGit opens go-git's object storage on first use: alternates, and packs
// whose index gitfile does not read.
func (o *Objects) goGit() storer.EncodedObjectStorer {
	if o.gogit == nil {
		o.gogit = filesystem.NewStorageWithOptions(osfs.New(o.dir), cache.NewObjectLRU(32*cache.MiByte),
			filesystem.Options{KeepDescriptors: true, AlternatesFS: osfs.New("/")})
	}
	return o.gogit
}

// Close releases the pack files.
func (o *Objects) Close() error {
	var err error
	if o.packs != nil {
		err = o.packs.Close()
	}
	if o.gogit != nil {
		if e := o.gogit.Close(); err == nil {
			err = e
		}
	}
	return err
}

// CommitTree returns the root tree of a commit.
func (o *Objects) CommitTree(commit string) (plumbing.Hash, error) {
	if commit == "" {
		return plumbing.ZeroHash, nil
	}
	t, data, err := o.raw(plumbing.NewHash(commit))
	if errors.Is(err, plumbing.ErrObjectNotFound) || err == nil && t != plumbing.CommitObject {
		return plumbing.ZeroHash, fmt.Errorf("%s: %w", short(commit), ErrMissingCommit)
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read commit %s: %w", short(commit), err)
	}
	tree, ok := gitfile.CommitTree(data)
	if !ok {
		return plumbing.ZeroHash, fmt.Errorf("read commit %s: it does not start with its tree", short(commit))
	}
	return tree, nil
}

// raw reads an object's type and content, which the caller must not
// change: from the packs and loose objects through gitfile.Store, else
// through go-git's storage.
func (o *Objects) raw(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	if o.packs != nil {
		t, data, err := o.packs.Read(h)
		if !errors.Is(err, plumbing.ErrObjectNotFound) {
			return t, data, err
		}
	}
	obj, err := o.goGit().EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	r, err := obj.Reader()
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	return obj.Type(), data, err
}

// size returns an object's size without reading its content (the pack's
// or loose object's header, the head of a delta, else go-git's storage):
// what a caller checks before it reads a blob another ref holds.
func (o *Objects) size(h plumbing.Hash) (int64, error) {
	if o.packs != nil {
		n, err := o.packs.Size(h)
		if !errors.Is(err, plumbing.ErrObjectNotFound) {
			return n, err
		}
	}
	return o.goGit().EncodedObjectSize(h)
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// TreeChange is one file that differs between two trees: its blob ids,
// hex, "" when absent on that side.
type TreeChange struct {
	Path     string
	From, To string
}

// Filter prunes a diff: Dir is asked before descending into a folder, File
// before reporting a file.
type Filter struct {
	Dir  func(dir string) bool
	File func(file string) bool
}

// DiffTrees lists the files that differ between trees a and b (either may
// be zero: the empty tree). It is a merkle walk: it descends only where
// entry hashes differ, so the cost is the depth times the fan-out of the
// changed folders, not the size of the repository. No rename detection:
// callers pair deletions and additions by blob hash themselves.
func (o *Objects) DiffTrees(a, b plumbing.Hash, f Filter) ([]TreeChange, error) {
	var out []TreeChange
	err := o.DiffTreesEach(a, b, f, func(c TreeChange) { out = append(out, c) })
	return out, err
}

// DiffTreesEach is DiffTrees handing each change to fn as soon as it is
// found, so that reading the changed files can start while the walk goes on.
func (o *Objects) DiffTreesEach(a, b plumbing.Hash, f Filter, fn func(TreeChange)) error {
	o.trees = 0
	return o.diff("", a, b, f, fn)
}

// readTree reads a tree's entries as stored.
func (o *Objects) readTree(h plumbing.Hash) ([]byte, error) {
	if h.IsZero() {
		return nil, nil
	}
	if o.trees++; o.MaxTrees > 0 && o.trees > o.MaxTrees {
		return nil, ErrLargeDiff
	}
	t, data, err := o.raw(h)
	if err == nil && t != plumbing.TreeObject {
		err = plumbing.ErrObjectNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	return data, nil
}

// checked is what checkTree found besides errors: head is where the last
// entry ending at or before the byte keep ends (0 if none), beforeHead
// that entry; tail is where the first entry starting at or after the byte
// from starts (len(data) if none), atTail that entry.
type checked struct {
	head, tail         int
	beforeHead, atTail gitfile.TreeEntry
	hasBefore, hasAt   bool
}

// checkTree checks that the entries of data are well formed and in git's
// order (the walk below merges two trees in that order), after prev and
// before next when they are set.
func checkTree(h plumbing.Hash, data []byte, prev, next *gitfile.TreeEntry, keep, from int) (checked, error) {
	c := checked{tail: len(data)}
	at := 0
	var last gitfile.TreeEntry
	have := prev != nil
	if have {
		last = *prev
	}
	for rest := data; len(rest) > 0; {
		e, more, err := gitfile.NextEntry(rest)
		if err != nil {
			return c, fmt.Errorf("read tree %s: %w", h, err)
		}
		if have && gitfile.CompareEntries(&last, &e) >= 0 {
			return c, fmt.Errorf("tree %s is not sorted as git sorts trees", h)
		}
		end := len(data) - len(more)
		if end <= keep {
			c.head, c.beforeHead, c.hasBefore = end, e, true
		}
		if at >= from && !c.hasAt {
			c.tail, c.atTail, c.hasAt = at, e, true
		}
		last, have, rest, at = e, true, more, end
	}
	if next != nil && have && gitfile.CompareEntries(&last, next) >= 0 {
		return c, fmt.Errorf("tree %s is not sorted as git sorts trees", h)
	}
	return c, nil
}

// commonPrefix is how many bytes a and b share at their start.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && binary.LittleEndian.Uint64(a[i:]) == binary.LittleEndian.Uint64(b[i:]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix is how many bytes a and b share at their end, at most limit.
func commonSuffix(a, b []byte, limit int) int {
	i := 0
	for i+8 <= limit && binary.LittleEndian.Uint64(a[len(a)-i-8:]) == binary.LittleEndian.Uint64(b[len(b)-i-8:]) {
		i += 8
	}
	for i < limit && a[len(a)-i-1] == b[len(b)-i-1] {
		i++
	}
	return i
}

// treeCursor steps through entries that checkTree has checked.
type treeCursor struct{ rest []byte }

func (c *treeCursor) next() (gitfile.TreeEntry, bool) {
	if len(c.rest) == 0 {
		return gitfile.TreeEntry{}, false
	}
	e, rest, _ := gitfile.NextEntry(c.rest) // checked by entries
	c.rest = rest
	return e, true
}

// diff merges the sorted entries of two trees: an entry on one side only, or
// on both with another hash or mode, is a change; a folder is descended
// into only then.
//
// Two versions of a folder usually share most of their entries, byte for
// byte, at the start and at the end of the tree (a change of one document
// in a folder of thousands): those are checked once, in a, and skipped; the
// merge reads only what lies between.
func (o *Objects) diff(dir string, a, b plumbing.Hash, f Filter, emit func(TreeChange)) error {
	if a == b {
		return nil
	}
	ta, err := o.readTree(a)
	if err != nil {
		return err
	}
	tb, err := o.readTree(b)
	if err != nil {
		return err
	}
	// ta[:head] and tb[:head] are the same entries, as are ta[tail:] and
	// tb[len(tb)-len(ta)+tail:].
	p := commonPrefix(ta, tb)
	s := commonSuffix(ta, tb, min(len(ta), len(tb))-p)
	ca, err := checkTree(a, ta, nil, nil, p, len(ta)-s)
	if err != nil {
		return err
	}
	head, tail := ca.head, ca.tail
	midB := tb[head : len(tb)-(len(ta)-tail)]
	var before, after *gitfile.TreeEntry
	if ca.hasBefore {
		before = &ca.beforeHead
	}
	if ca.hasAt {
		after = &ca.atTail
	}
	if _, err := checkTree(b, midB, before, after, 0, len(midB)); err != nil {
		// The middle of b does not end where the shared end starts (an
		// entry straddles it), or b is malformed: check b whole.
		if _, err := checkTree(b, tb, nil, nil, 0, len(tb)); err != nil {
			return err
		}
		head, tail, midB = 0, len(ta), tb
	}
	return o.merge(dir, ta[head:tail], midB, f, emit)
}

// merge walks two checked runs of entries in git's order.
func (o *Objects) merge(dir string, ta, tb []byte, f Filter, emit func(TreeChange)) error {
	ca, cb := treeCursor{ta}, treeCursor{tb}
	ea, okA := ca.next()
	eb, okB := cb.next()
	for okA || okB {
		c := 0
		switch {
		case !okB:
			c = -1
		case !okA:
			c = 1
		default:
			c = gitfile.CompareEntries(&ea, &eb)
		}
		var x, y *gitfile.TreeEntry
		xa, yb := ea, eb
		if c <= 0 {
			x = &xa
			ea, okA = ca.next()
		}
		if c >= 0 {
			y = &yb
			eb, okB = cb.next()
		}
		if err := o.change(dir, x, y, f, emit); err != nil {
			return err
		}
	}
	return nil
}

// change handles one name of a merged pair of trees; x or y is nil when the
// name is on one side only.
func (o *Objects) change(dir string, x, y *gitfile.TreeEntry, f Filter, emit func(TreeChange)) error {
	if x != nil && y != nil && x.Mode == y.Mode && bytes.Equal(x.Hash, y.Hash) {
		return nil
	}
	var name []byte
	if x != nil {
		name = x.Name
	} else {
		name = y.Name
	}
	p := string(name)
	if dir != "" {
		p = dir + "/" + p
	}
	xTree := x != nil && x.Mode == filemode.Dir
	yTree := y != nil && y.Mode == filemode.Dir
	if xTree || yTree {
		if f.Dir != nil && !f.Dir(p) {
			return nil
		}
		var ha, hb plumbing.Hash
		if xTree {
			copy(ha[:], x.Hash)
		}
		if yTree {
			copy(hb[:], y.Hash)
		}
		return o.diff(p, ha, hb, f, emit)
	}
	xFile := x != nil && isFile(x.Mode)
	yFile := y != nil && isFile(y.Mode)
	if !xFile && !yFile {
		return nil // submodules
	}
	if f.File != nil && !f.File(p) {
		return nil
	}
	c := TreeChange{Path: p}
	if xFile {
		c.From = hex.EncodeToString(x.Hash)
	}
	if yFile {
		c.To = hex.EncodeToString(y.Hash)
	}
	if c.From != c.To {
		emit(c)
	}
	return nil
}

func isFile(m filemode.FileMode) bool {
	return m == filemode.Regular || m == filemode.Executable || m == filemode.Symlink || m == filemode.Deprecated
}

// DiffTreesGit asks git for the same list (git diff-tree -r, no renames):
// for a large diff, and when go-git cannot read the repository's objects,
// such as a SHA-256 repository. Each change goes to fn as git prints it.
func DiffTreesGit(ctx context.Context, r *Repo, from, to string, f Filter, fn func(TreeChange)) error {
	if from == "" {
		from = emptyTree
		if r.ObjectFormat() == "sha256" {
			from = emptyTreeSHA256
		}
	}
	for _, oid := range []string{from, to} {
		if !index.IsObjectID(oid) {
			return fmt.Errorf("git diff-tree: %w: %q", ErrNotObjectID, oid)
		}
	}
	return r.GitStream(ctx, []string{"diff-tree", "-r", "-z", "--no-renames", "--raw", "--end-of-options", from, to, "--"}, func(out *bufio.Reader) error {
		for {
			meta, err := out.ReadBytes(0)
			if errors.Is(err, io.EOF) && len(meta) == 0 {
				return nil
			}
			if err != nil {
				return fmt.Errorf("git diff-tree output ends early: %w", err)
			}
			p, err := out.ReadBytes(0)
			if err != nil {
				return fmt.Errorf("git diff-tree output ends early: %w", err)
			}
			raw, err := parseRaw(append(meta, p...))
			if err != nil {
				return err
			}
			for _, c := range raw {
				if keepPath(c.Path, f) {
					fn(TreeChange{Path: c.Path, From: c.From, To: c.OID})
				}
			}
		}
	})
}

// keepPath applies a Filter to a full path: every folder above it, then the
// file.
func keepPath(p string, f Filter) bool {
	if f.Dir != nil {
		for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
			if !f.Dir(d) {
				return false
			}
		}
	}
	return f.File == nil || f.File(p)
}
