package gitsync

import (
	"context"
	"errors"
	"fmt"
	"path"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// ErrMissingCommit says a commit the index remembers is no longer in the
// repository (garbage-collected, or beyond a shallow clone's edge).
var ErrMissingCommit = errors.New("commit not in the repository")

// Objects reads commits and trees through go-git's object storage only: no
// worktree, no index file, no config, so none of go-git's gaps around
// worktreeConfig, skipHash or sparse indexes apply.
type Objects struct {
	st *filesystem.Storage
}

// OpenObjects opens the object database of the repository. Pack files stay
// open until Close.
func OpenObjects(r *Repo) *Objects {
	fs := osfs.New(r.CommonDir)
	st := filesystem.NewStorageWithOptions(fs, cache.NewObjectLRU(32*cache.MiByte),
		filesystem.Options{KeepDescriptors: true, AlternatesFS: osfs.New("/")})
	return &Objects{st: st}
}

// Close releases the pack files.
func (o *Objects) Close() error { return o.st.Close() }

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
	err := o.diff("", a, b, f, &out)
	return out, err
}

func (o *Objects) entries(h plumbing.Hash) (map[string]object.TreeEntry, []string, error) {
	if h.IsZero() {
		return nil, nil, nil
	}
	t, err := object.GetTree(o.st, h)
	if err != nil {
		return nil, nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	m := make(map[string]object.TreeEntry, len(t.Entries))
	names := make([]string, 0, len(t.Entries))
	for _, e := range t.Entries {
		m[e.Name] = e
		names = append(names, e.Name)
	}
	return m, names, nil
}

func (o *Objects) diff(dir string, a, b plumbing.Hash, f Filter, out *[]TreeChange) error {
	if a == b {
		return nil
	}
	ea, na, err := o.entries(a)
	if err != nil {
		return err
	}
	eb, nb, err := o.entries(b)
	if err != nil {
		return err
	}
	// Names in a's order, then b's new ones: git keeps entries sorted, so
	// the output comes out in tree order.
	names := append([]string{}, na...)
	for _, n := range nb {
		if _, ok := ea[n]; !ok {
			names = append(names, n)
		}
	}
	for _, name := range names {
		x, inA := ea[name]
		y, inB := eb[name]
		if inA && inB && x.Hash == y.Hash && x.Mode == y.Mode {
			continue
		}
		p := path.Join(dir, name)
		xTree := inA && x.Mode == filemode.Dir
		yTree := inB && y.Mode == filemode.Dir
		if xTree || yTree {
			if f.Dir != nil && !f.Dir(p) {
				continue
			}
			var ha, hb plumbing.Hash
			if xTree {
				ha = x.Hash
			}
			if yTree {
				hb = y.Hash
			}
			if err := o.diff(p, ha, hb, f, out); err != nil {
				return err
			}
		}
		xFile := inA && isFile(x.Mode)
		yFile := inB && isFile(y.Mode)
		if !xFile && !yFile {
			continue // submodules and folders
		}
		if f.File != nil && !f.File(p) {
			continue
		}
		c := TreeChange{Path: p}
		if xFile {
			c.From = x.Hash.String()
		}
		if yFile {
			c.To = y.Hash.String()
		}
		if c.From != c.To {
			*out = append(*out, c)
		}
	}
	return nil
}

func isFile(m filemode.FileMode) bool {
	return m == filemode.Regular || m == filemode.Executable || m == filemode.Symlink || m == filemode.Deprecated
}

// DiffTreesGit asks git for the same list (git diff-tree -r, no renames):
// the fallback when go-git cannot read the repository's objects, such as a
// SHA-256 repository.
func DiffTreesGit(ctx context.Context, r *Repo, from, to string, f Filter) ([]TreeChange, error) {
	if from == "" {
		from = emptyTree
		if r.ObjectFormat() == "sha256" {
			from = emptyTreeSHA256
		}
	}
	out, err := r.Git(ctx, "diff-tree", "-r", "-z", "--no-renames", "--raw", from, to, "--")
	if err != nil {
		return nil, err
	}
	raw, err := parseRaw(out)
	if err != nil {
		return nil, err
	}
	var changes []TreeChange
	for _, c := range raw {
		if !keepPath(c.Path, f) {
			continue
		}
		changes = append(changes, TreeChange{Path: c.Path, From: c.From, To: c.OID})
	}
	return changes, nil
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
