package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

// git's ids of the tree with nothing in it.
const (
	emptyTree       = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
	emptyTreeSHA256 = "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"
)

// StagedChange is one path the next commit changes.
type StagedChange struct {
	Status byte   // A, M, D or T (type change)
	Path   string // repo-relative
	OID    string // the staged blob ("" for a deletion)
	From   string // the blob before ("" for an addition)
}

// stagedEnv keeps GIT_INDEX_FILE — the index file this commit is built
// from: .git/index, index.lock under commit -a, next-index-*.lock under
// commit -- paths — and scrubs the rest. A relative path is made absolute,
// since git runs with -C.
func stagedEnv() []string {
	env := ScrubbedEnv("GIT_INDEX_FILE")
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GIT_INDEX_FILE="); ok && v != "" && !filepath.IsAbs(v) {
			if wd, err := os.Getwd(); err == nil {
				env[i] = "GIT_INDEX_FILE=" + filepath.Join(wd, v)
			}
		}
	}
	return env
}

// Staged lists what the next commit changes, asking git, which reads the
// index through its cache-tree (go-git decodes the whole index instead:
// about 260 ms at 100k entries). Renames come as a deletion and an addition.
func (r *Repo) Staged(ctx context.Context) ([]StagedChange, error) {
	head, _, err := r.Head()
	if err != nil {
		return nil, err
	}
	base := "HEAD"
	if head == "" {
		base = emptyTree
		if r.ObjectFormat() == "sha256" {
			base = emptyTreeSHA256
		}
	}
	out, err := r.GitEnv(ctx, stagedEnv(), "diff", "--cached", "--raw", "-z", "--no-abbrev", "--no-renames", "--no-ext-diff", "--end-of-options", base, "--")
	if err != nil {
		return nil, err
	}
	return parseRaw(out)
}

// parseRaw reads `git diff --raw -z`: ":mode mode oid oid status\0path\0".
func parseRaw(out []byte) ([]StagedChange, error) {
	var res []StagedChange
	for len(out) > 0 {
		if out[0] != ':' {
			return nil, fmt.Errorf("unexpected git diff output %q", truncate(out))
		}
		meta, rest, ok := bytes.Cut(out, []byte{0})
		if !ok {
			return nil, fmt.Errorf("unexpected git diff output %q", truncate(out))
		}
		p, rest, _ := bytes.Cut(rest, []byte{0})
		fields := strings.Fields(string(meta[1:]))
		if len(fields) < 5 {
			return nil, fmt.Errorf("unexpected git diff line %q", meta)
		}
		c := StagedChange{Status: fields[4][0], Path: string(p), OID: fields[3], From: fields[2]}
		// A submodule (mode 160000) is no file: a side holding one counts
		// as absent, so a file that becomes a submodule is deleted.
		if fields[1] == "160000" {
			c.OID = ""
		}
		if fields[0] == "160000" {
			c.From = ""
		}
		out = rest
		c, ok = rawChange(c)
		if !ok {
			continue
		}
		res = append(res, c)
	}
	return res, nil
}

// rawChange is a line of git's raw diff as canon takes it: an id of zeros
// is no blob; a change with none on either side is none, and one with a
// blob on one side only is a deletion or an addition.
func rawChange(c StagedChange) (StagedChange, bool) {
	if c.Status == 'D' || strings.Trim(c.OID, "0") == "" {
		c.OID = ""
	}
	if strings.Trim(c.From, "0") == "" {
		c.From = ""
	}
	switch {
	case c.OID == "" && c.From == "":
		return c, false
	case c.OID == "":
		c.Status = 'D'
	case c.From == "":
		c.Status = 'A'
	}
	return c, true
}

func truncate(b []byte) []byte {
	if len(b) > 80 {
		return b[:80]
	}
	return b
}

// loadStaged loads a staged blob as the document at path. Usually the
// working-tree file holds the very same bytes, which costs a read and a
// hash; otherwise git hands the blob over (loadBlob, through the cat-file
// cat starts). The working-tree file is read as every document is (inside
// the repository, a regular file, at most max_file_size); one that cannot
// be read so is asked of git.
func (s *Session) loadStaged(ctx context.Context, cat func() *CatFile, path, oid string) (*index.Loaded, error) {
	data, err := safepath.ReadFile(filepath.Join(s.Repo.Root, filepath.FromSlash(path)), int64(s.Cfg.MaxFileSize), s.Repo.Root)
	if err == nil && scan.BlobOID(data) == oid {
		return s.Loader.FromContent(scan.FileInfo{Path: path}, data), nil
	}
	return s.loadBlob(ctx, cat(), path, oid, s.Loader.FromContent)
}

// loadBlob loads the blob oid as the document at path, parsed by parse
// (Loader.FromContent for the index's rows, Loader.Fields for the fields
// alone). A blob over max_file_size is not read: it comes back skipped, as
// a working-tree file over the cap does, whatever size a commit gives it.
func (s *Session) loadBlob(ctx context.Context, cat *CatFile, path, oid string, parse func(scan.FileInfo, []byte) *index.Loaded) (*index.Loaded, error) {
	content, err := s.Repo.readBlob(ctx, cat, oid, int64(s.Cfg.MaxFileSize))
	if big := (*BlobTooLargeError)(nil); errors.As(err, &big) {
		return s.Loader.Oversized(scan.FileInfo{Path: path, Size: big.Size}, oid), nil
	}
	if err != nil {
		return nil, err
	}
	return parse(scan.FileInfo{Path: path}, content), nil
}

// readBlob reads a blob by id, through cat when there is one, reading at
// most limit bytes: a larger blob is a *BlobTooLargeError.
func (r *Repo) readBlob(ctx context.Context, cat *CatFile, oid string, limit int64) ([]byte, error) {
	if cat != nil {
		return cat.Blob(oid, limit)
	}
	if !index.IsObjectID(oid) {
		return nil, fmt.Errorf("%w: %q", ErrNotObjectID, oid)
	}
	out, err := r.Git(ctx, "cat-file", "-s", "--end-of-options", oid)
	if err != nil {
		return nil, err
	}
	size, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("git cat-file -s %s said %q", oid, out)
	}
	if size > limit {
		return nil, &BlobTooLargeError{OID: oid, Size: size}
	}
	return r.Git(ctx, "cat-file", "blob", "--end-of-options", oid)
}

// GitTree answers which paths exist in the tree git records: the next
// commit's (the index file git uses, GIT_INDEX_FILE in a hook), or a
// commit's.
type GitTree struct {
	Repo *Repo
	// Rev, when set, names the commit whose tree answers (HEAD before a
	// staged change, the merge base for --new-from).
	Rev string
	// Staged, when set, is the staged set (path → present after the
	// commit): then a path's presence is the staged change, else HEAD's
	// tree, read with git cat-file, which does not load the index file
	// (32 ms at 100k entries for ls-files).
	Staged map[string]bool
	// Cat, when set, answers the lookups in a commit's tree (one git
	// process for the whole check).
	Cat *CatFile
	// startCat, when set and Cat is not, starts the git cat-file that
	// answers them, on the first lookup that needs it (sharing it with
	// whoever else asked for it).
	startCat func() *CatFile
	// trees, when set, answers lookups in a commit's tree in process,
	// before git is asked (revTrees).
	trees *revTrees
	// NoSuggest skips looking for a path that exists but for case: the
	// state before a change only says what problems it had.
	NoSuggest bool
	all       map[string]bool // every tracked path, once listed
	subs      *[]string       // the submodules' paths, once read
}

// Lookup reports which paths exist (exactly) and, for those that do not, a
// tracked path equal but for case. A handful of paths are looked up one by
// one; many at once list the whole tree.
func (t *GitTree) Lookup(ctx context.Context, paths []string) (map[string]bool, map[string]string, error) {
	exists := map[string]bool{}
	folded := map[string]string{}
	if len(paths) == 0 {
		return exists, folded, nil
	}
	if t.Rev != "" {
		if len(paths) <= 200 && t.all == nil {
			exists, missing, err := t.lookupRev(ctx, t.Rev, paths)
			if err != nil || len(missing) == 0 || t.NoSuggest {
				return exists, folded, err
			}
		}
		if err := t.listRev(ctx); err != nil {
			return nil, nil, err
		}
		return lookupIn(t.all, paths)
	}
	if t.Staged != nil && len(paths) <= 200 && t.all == nil {
		exists, missing, err := t.lookupHead(ctx, paths)
		if err == nil {
			if len(missing) == 0 || t.NoSuggest {
				return exists, folded, nil
			}
			// Something is missing: an error is coming, so take the time
			// to find what it may have meant (git's case).
			_, folded, err = t.lookupIndex(ctx, missing)
			return exists, folded, err
		}
	}
	return t.lookupIndex(ctx, paths)
}

// lookupHead answers from the staged set and HEAD's tree.
func (t *GitTree) lookupHead(ctx context.Context, paths []string) (map[string]bool, []string, error) {
	exists := map[string]bool{}
	var ask []string
	for _, p := range Distinct(paths) {
		if present, staged := t.Staged[p]; staged {
			exists[p] = present
			continue
		}
		if t.stagedUnder(p) {
			exists[p] = true // a folder that gains a staged file
			continue
		}
		ask = append(ask, p)
	}
	if len(ask) > 0 {
		head, _, err := t.Repo.Head()
		if err != nil {
			return nil, nil, err
		}
		if head != "" {
			inHead, _, err := t.lookupRev(ctx, head, ask)
			if err != nil {
				return nil, nil, err
			}
			for p, ok := range inHead {
				exists[p] = ok
			}
		}
	}
	var missing []string
	for _, p := range Distinct(paths) {
		if !exists[p] {
			missing = append(missing, p)
		}
	}
	return exists, missing, nil
}

// cat is the git cat-file that answers lookups: Cat, or the one startCat
// starts (nil when there is none: each lookup starts git on its own).
func (t *GitTree) cat() *CatFile {
	if t.Cat == nil && t.startCat != nil {
		t.Cat = t.startCat()
	}
	return t.Cat
}

// lookupRev asks which paths the commit rev's tree has (a file, or a folder
// holding one): in process where trees can tell, else through Cat when
// there is one, else one git cat-file --batch-check for all of them.
func (t *GitTree) lookupRev(ctx context.Context, rev string, paths []string) (map[string]bool, []string, error) {
	exists := map[string]bool{}
	paths = Distinct(paths)
	all := paths
	if t.trees != nil {
		var ask []string
		for _, p := range paths {
			if strings.ContainsAny(p, "\n") {
				ask = append(ask, p) // skipped below, as git cannot be asked
			} else if found, ok := t.trees.has(rev, p); ok {
				exists[p] = found
			} else {
				ask = append(ask, p)
			}
		}
		paths = ask
	}
	if len(paths) == 0 {
		// every path answered in process
	} else if cat := t.cat(); cat != nil {
		for _, p := range paths {
			if strings.ContainsAny(p, "\n") {
				continue // not a path a link can name; counts as missing
			}
			_, _, found, err := cat.Object(rev + ":" + p)
			if err != nil {
				return nil, nil, err
			}
			exists[p] = found
		}
	} else {
		var in strings.Builder
		var asked []string
		for _, p := range paths {
			if strings.ContainsAny(p, "\n") {
				continue
			}
			asked = append(asked, p)
			in.WriteString(rev + ":" + p + "\n")
		}
		if len(asked) > 0 {
			cmd := exec.CommandContext(ctx, "git", "-C", t.Repo.Root, "cat-file", "--batch-check")
			cmd.Env = ScrubbedEnv()
			cmd.Stdin = strings.NewReader(in.String())
			out, err := cmd.Output()
			if err != nil {
				return nil, nil, err
			}
			lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
			if len(lines) != len(asked) {
				return nil, nil, fmt.Errorf("git cat-file answered %d lines for %d paths", len(lines), len(asked))
			}
			for i, line := range lines {
				exists[asked[i]] = !strings.HasSuffix(line, " missing") && strings.Contains(line, " ")
			}
		}
	}
	var missing []string
	for _, p := range all {
		if !exists[p] {
			missing = append(missing, p)
		}
	}
	return exists, missing, nil
}

// listRev lists every file of the commit's tree, once.
func (t *GitTree) listRev(ctx context.Context) error {
	if t.all != nil {
		return nil
	}
	out, err := t.Repo.Git(ctx, "ls-tree", "-r", "-z", "--name-only", "--end-of-options", t.Rev)
	if err != nil {
		return err
	}
	t.all = map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			t.all[p] = true
		}
	}
	return nil
}

// stagedUnder reports a staged addition inside the folder p.
func (t *GitTree) stagedUnder(p string) bool {
	for s, present := range t.Staged {
		if present && strings.HasPrefix(s, p+"/") {
			return true
		}
	}
	return false
}

// lookupIndex answers from the index file git uses, with git ls-files.
func (t *GitTree) lookupIndex(ctx context.Context, paths []string) (map[string]bool, map[string]string, error) {
	var listed []string
	if len(paths) > 200 || t.all != nil {
		if t.all == nil {
			out, err := t.Repo.GitEnv(ctx, stagedEnv(), "ls-files", "-z", "--cached")
			if err != nil {
				return nil, nil, err
			}
			t.all = map[string]bool{}
			for _, p := range strings.Split(string(out), "\x00") {
				if p != "" {
					t.all[p] = true
				}
			}
		}
		return lookupIn(t.all, paths)
	}
	args := []string{"ls-files", "-z", "--cached", "--"}
	for _, p := range Distinct(paths) {
		args = append(args, ":(icase,literal)"+p)
	}
	out, err := t.Repo.GitEnv(ctx, stagedEnv(), args...)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			listed = append(listed, p)
		}
	}
	set := map[string]bool{}
	for _, p := range listed {
		set[p] = true
	}
	return lookupIn(set, paths)
}

// OnDisk reports whether the path exists in the working tree.
func (t *GitTree) OnDisk(path string) bool {
	_, err := os.Lstat(filepath.Join(t.Repo.Root, filepath.FromSlash(path)))
	return err == nil
}

// lookupIn answers Lookup from a set of tracked files: a path exists as a
// file or as a folder holding one.
func lookupIn(set map[string]bool, paths []string) (map[string]bool, map[string]string, error) {
	exists := map[string]bool{}
	folded := map[string]string{}
	lowerFiles := map[string]string{}
	dirs := map[string]bool{}
	lowerDirs := map[string]string{}
	keys := make([]string, 0, len(set))
	for p := range set {
		keys = append(keys, p)
	}
	sort.Strings(keys) // so that the "did you mean" pick is stable
	for _, p := range keys {
		if _, ok := lowerFiles[strings.ToLower(p)]; !ok {
			lowerFiles[strings.ToLower(p)] = p
		}
		for d := filepath.ToSlash(filepath.Dir(p)); d != "." && d != "/" && !dirs[d]; d = filepath.ToSlash(filepath.Dir(d)) {
			dirs[d] = true
			if _, ok := lowerDirs[strings.ToLower(d)]; !ok {
				lowerDirs[strings.ToLower(d)] = d
			}
		}
	}
	for _, p := range paths {
		if set[p] || dirs[p] {
			exists[p] = true
			continue
		}
		if f, ok := lowerFiles[strings.ToLower(p)]; ok {
			folded[p] = f
		} else if d, ok := lowerDirs[strings.ToLower(p)]; ok {
			folded[p] = d
		}
	}
	return exists, folded, nil
}

// Distinct returns s without its repeats, in the order of their first
// appearance.
func Distinct(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Sparse reports a sparse checkout: this worktree's info/sparse-checkout
// exists (no process when it does not) and git says core.sparseCheckout.
func (t *GitTree) Sparse(ctx context.Context) bool {
	if _, err := os.Stat(filepath.Join(t.Repo.GitDir, "info", "sparse-checkout")); err != nil {
		return false
	}
	out, err := t.Repo.Git(ctx, "config", "--bool", "core.sparseCheckout")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// Submodules lists the paths .gitmodules declares (read once): links into
// them are not checked.
func (t *GitTree) Submodules(ctx context.Context) ([]string, error) {
	if t.subs != nil {
		return *t.subs, nil
	}
	var subs []string
	data, err := safepath.ReadFile(filepath.Join(t.Repo.Root, ".gitmodules"), safepath.ConfigLimit, t.Repo.Root)
	if err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
			if ok && strings.TrimSpace(k) == "path" {
				if p := strings.Trim(strings.TrimSpace(v), `"/`); p != "" {
					subs = append(subs, p)
				}
			}
		}
	}
	sort.Strings(subs)
	t.subs = &subs
	return subs, nil
}

// revTrees answers which paths a commit's tree holds from git's object
// files, in process: a pack index lookup and one read of each folder on
// the way, each folder read once. git cat-file takes a round trip and a
// walk from the root tree for every path (about 1 ms a path in a
// repository of 100k documents, three quarters of a one-file staged
// check beyond git's own diff). What it cannot tell (a repository of
// another object format, a path that is not plain, a submodule, an
// object kept elsewhere: an alternate store, a partial clone's promisor)
// is asked of git as before. The objects are opened on first use.
type revTrees struct {
	repo   *Repo
	opened bool
	objs   *Objects // nil once opened: nothing is answered in process
	roots  map[string]plumbing.Hash
	trees  map[plumbing.Hash]*gitfile.Tree
}

func newRevTrees(r *Repo) *revTrees {
	return &revTrees{repo: r, roots: map[string]plumbing.Hash{}, trees: map[plumbing.Hash]*gitfile.Tree{}}
}

// open opens the objects, once; false for a repository whose ids go-git's
// hashes cannot hold, or whose packs canon does not read itself.
func (rt *revTrees) open() bool {
	if !rt.opened {
		rt.opened = true
		if rt.repo.ObjectFormat() == "sha1" {
			rt.objs = OpenObjects(rt.repo)
			if rt.objs.packs == nil {
				rt.objs.Close()
				rt.objs = nil
			}
		}
	}
	return rt.objs != nil
}

// Close releases the object files.
func (rt *revTrees) Close() {
	if rt != nil && rt.objs != nil {
		rt.objs.Close()
		rt.objs = nil
	}
}

// root is the root tree of the commit rev (HEAD or a commit's id); ok is
// false when it cannot be read in process.
func (rt *revTrees) root(rev string) (plumbing.Hash, bool) {
	if !rt.open() {
		return plumbing.ZeroHash, false
	}
	if h, ok := rt.roots[rev]; ok {
		return h, !h.IsZero()
	}
	commit := rev
	if rev == "HEAD" {
		commit, _, _ = rt.repo.Head()
	}
	var h plumbing.Hash
	if len(commit) == 40 && plumbing.IsHash(commit) {
		if t, data, err := rt.objs.packs.Read(plumbing.NewHash(commit)); err == nil && t == plumbing.CommitObject {
			h, _ = gitfile.CommitTree(data) // zero when it does not start with its tree
		}
	}
	rt.roots[rev] = h
	return h, !h.IsZero()
}

// tree opens a tree's entries, once (gitfile.Store.Tree: a large tree is
// inflated as lookups need it). nil when the objects read in process do
// not hold it.
func (rt *revTrees) tree(h plumbing.Hash) *gitfile.Tree {
	if lt, ok := rt.trees[h]; ok {
		return lt
	}
	lt := rt.objs.packs.Tree(h)
	rt.trees[h] = lt
	return lt
}

// Modes as git reads them (canon_mode): a folder, a file, a symbolic
// link; anything else is a submodule's commit.
func isTreeMode(m filemode.FileMode) bool { return m&0o170000 == 0o040000 }
func isGitlinkMode(m filemode.FileMode) bool {
	switch m & 0o170000 {
	case 0o040000, 0o100000, 0o120000:
		return false
	}
	return true
}

// has answers as git cat-file does for REV:PATH (get_tree_entry, then the
// object): found when the tree holds the path, a file or a folder, and its
// object is there. ok is false when it cannot tell in process.
func (rt *revTrees) has(rev, p string) (found, ok bool) {
	if rt == nil || p == "" {
		return false, false
	}
	for _, part := range strings.Split(p, "/") {
		if part == "" || part == "." || part == ".." {
			return false, false // git reads such a path its own way
		}
	}
	h, ok := rt.root(rev)
	if !ok {
		return false, false
	}
	for name := p; ; {
		lt := rt.tree(h)
		if lt == nil {
			return false, false
		}
		e, hit, ok := lt.Find(name)
		if !ok || !hit {
			return false, ok
		}
		if len(e.Name) == len(name) {
			if isGitlinkMode(e.Mode) {
				return false, false // git looks for the commit itself
			}
			// The entry is there; so is its object, unless it is kept
			// where only git looks.
			if _, err := rt.objs.packs.Size(plumbing.Hash(e.Hash)); err != nil {
				return false, false
			}
			return true, true
		}
		if !isTreeMode(e.Mode) {
			return false, true // a file where the path wants a folder
		}
		h, name = plumbing.Hash(e.Hash), name[len(e.Name)+1:]
	}
}
