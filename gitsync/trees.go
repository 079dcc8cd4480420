package gitsync

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// ErrMissingCommit says a commit the index remembers is no longer in the
// repository (garbage-collected, or beyond a shallow clone's edge).
var ErrMissingCommit = errors.New("commit not in the repository")

// Objects reads commits and trees through go-git's object storage only: no
// worktree, no index file, no config, so none of go-git's gaps around
// worktreeConfig, skipHash or sparse indexes apply.
type Objects struct {
	st storer.EncodedObjectStorer
	// packs reads the packs and loose objects without go-git's open cost
	// (packindex.go); gogit is go-git's storage, opened only if needed.
	packs *packObjects
	gogit *filesystem.Storage
	dir   string
	// MaxTrees, when above zero, stops a walk that has read that many
	// trees with ErrLargeDiff.
	MaxTrees int
	trees    int
}

// ErrLargeDiff stops a walk that passed Objects.MaxTrees.
var ErrLargeDiff = errors.New("the trees differ in many folders")

// OpenObjects opens the object database of the repository. Pack files stay
// open until Close.
func OpenObjects(r *Repo) *Objects {
	o := &Objects{dir: r.CommonDir}
	if o.packs = openPackObjects(filepath.Join(r.CommonDir, "objects"), o.goGit); o.packs != nil {
		o.st = o.packs
	} else {
		o.st = o.goGit()
	}
	return o
}

// goGit opens go-git's object storage on first use: alternates, and packs
// whose index packObjects does not read.
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
	c, err := object.GetCommit(o.st, plumbing.NewHash(commit))
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return plumbing.ZeroHash, fmt.Errorf("%s: %w", short(commit), ErrMissingCommit)
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read commit %s: %w", short(commit), err)
	}
	return c.TreeHash, nil
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

// entries reads a tree's entries, checking that they are in git's order:
// the walk below merges two trees in that order.
func (o *Objects) entries(h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	if o.trees++; o.MaxTrees > 0 && o.trees > o.MaxTrees {
		return nil, ErrLargeDiff
	}
	t, err := object.GetTree(o.st, h)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	for i := 1; i < len(t.Entries); i++ {
		if compareEntries(&t.Entries[i-1], &t.Entries[i]) >= 0 {
			return nil, fmt.Errorf("tree %s is not sorted as git sorts trees", h)
		}
	}
	return t.Entries, nil
}

// compareEntries orders tree entries as git does: by name, a folder's name
// compared as if it ended in a slash.
func compareEntries(a, b *object.TreeEntry) int {
	n := min(len(a.Name), len(b.Name))
	if c := strings.Compare(a.Name[:n], b.Name[:n]); c != 0 {
		return c
	}
	return cmp.Compare(nameByte(a, n), nameByte(b, n))
}

func nameByte(e *object.TreeEntry, i int) byte {
	switch {
	case i < len(e.Name):
		return e.Name[i]
	case e.Mode == filemode.Dir:
		return '/'
	}
	return 0
}

// diff merges the sorted entries of two trees: an entry on one side only, or
// on both with another hash or mode, is a change; a folder is descended
// into only then.
func (o *Objects) diff(dir string, a, b plumbing.Hash, f Filter, emit func(TreeChange)) error {
	if a == b {
		return nil
	}
	ea, err := o.entries(a)
	if err != nil {
		return err
	}
	eb, err := o.entries(b)
	if err != nil {
		return err
	}
	i, j := 0, 0
	for i < len(ea) || j < len(eb) {
		var x, y *object.TreeEntry
		switch {
		case j >= len(eb):
			x, i = &ea[i], i+1
		case i >= len(ea):
			y, j = &eb[j], j+1
		default:
			switch c := compareEntries(&ea[i], &eb[j]); {
			case c < 0:
				x, i = &ea[i], i+1
			case c > 0:
				y, j = &eb[j], j+1
			default:
				x, y, i, j = &ea[i], &eb[j], i+1, j+1
			}
		}
		if err := o.change(dir, x, y, f, emit); err != nil {
			return err
		}
	}
	return nil
}

// change handles one name of a merged pair of trees; x or y is nil when the
// name is on one side only.
func (o *Objects) change(dir string, x, y *object.TreeEntry, f Filter, emit func(TreeChange)) error {
	if x != nil && y != nil && x.Hash == y.Hash && x.Mode == y.Mode {
		return nil
	}
	name := ""
	if x != nil {
		name = x.Name
	} else {
		name = y.Name
	}
	p := name
	if dir != "" {
		p = dir + "/" + name
	}
	xTree := x != nil && x.Mode == filemode.Dir
	yTree := y != nil && y.Mode == filemode.Dir
	if xTree || yTree {
		if f.Dir != nil && !f.Dir(p) {
			return nil
		}
		var ha, hb plumbing.Hash
		if xTree {
			ha = x.Hash
		}
		if yTree {
			hb = y.Hash
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
		c.From = x.Hash.String()
	}
	if yFile {
		c.To = y.Hash.String()
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
	args := []string{"diff-tree", "-r", "-z", "--no-renames", "--raw", from, to, "--"}
	return r.GitStream(ctx, args, func(out *bufio.Reader) error {
		for {
			meta, err := out.ReadBytes(0)
			if err == io.EOF && len(meta) == 0 {
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
