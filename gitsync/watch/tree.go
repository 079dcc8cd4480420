package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

// tree is the set of fsnotify watches: the worktree folders under (or
// above) the canonical roots, and the git folders whose files say where
// HEAD is. fsnotify is not recursive, so folders are added as they appear
// and dropped as they go. The caller serialises access.
type tree struct {
	repo  *gitsync.Repo
	cfg   *config.Config
	scope *scan.Scope // this side's own: a Scope is not safe for two goroutines
	fsw   *fsnotify.Watcher

	dirs    map[string]bool // watched worktree folders, repo-relative ("" is the root)
	gitDirs map[string]bool // watched git folders, absolute
	refs    string          // the branch refs folder (refs/heads), absolute

	warn      func(string)
	limitSaid bool
	// missed: a folder that should be watched is not (the system's
	// limit, an error), since the last resync.
	missed bool
}

func newTree(repo *gitsync.Repo, cfg *config.Config, fsw *fsnotify.Watcher, warn func(string)) *tree {
	t := &tree{repo: repo, fsw: fsw, dirs: map[string]bool{}, gitDirs: map[string]bool{},
		refs: filepath.Join(repo.CommonDir, "refs", "heads"), warn: warn}
	t.setConfig(cfg)
	return t
}

// setConfig takes a (re)loaded configuration; it also rereads every
// .gitignore, so call it when one changed.
func (t *tree) setConfig(cfg *config.Config) {
	t.cfg = cfg
	t.scope = scan.NewScope(t.repo.Root, cfg, t.repo.InfoExclude())
}

func (t *tree) abs(rel string) string {
	return filepath.Join(t.repo.Root, filepath.FromSlash(rel))
}

// rel turns an event's path into a repo-relative one; ok is false outside
// the worktree.
func (t *tree) rel(abs string) (string, bool) {
	r, err := filepath.Rel(t.repo.Root, abs)
	if err != nil || !safepath.Within(t.repo.Root, abs) {
		return "", false
	}
	if r == "." {
		return "", true
	}
	return filepath.ToSlash(r), true
}

// shouldWatch says whether a worktree folder gets a watch: the root, the
// configuration folder, and folders inside or above a root that are not
// excluded, ignored or another repository.
func (t *tree) shouldWatch(rel string) bool {
	switch {
	case rel == "" || rel == config.Dir:
		return true
	case !t.inOrAboveRoots(rel) || t.scope.Ignored(rel, true):
		return false
	}
	_, err := os.Lstat(filepath.Join(t.abs(rel), ".git"))
	return err != nil // a nested repository's files are not ours
}

func (t *tree) inOrAboveRoots(rel string) bool {
	for _, r := range t.cfg.Roots {
		if r == "." || safepath.Within(r, rel) || strings.HasPrefix(r, rel+"/") {
			return true
		}
	}
	return false
}

// isDocument says whether a repo path would be a document.
func (t *tree) isDocument(rel string) bool { return t.scope.IsDocumentPath(rel) }

// add watches one folder. Running out of inotify watches is said once, with
// the fix; the periodic rescan still catches what goes unwatched.
func (t *tree) add(abs string) bool {
	err := t.fsw.Add(abs)
	if err == nil {
		return true
	}
	if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		t.missed = true
	}
	switch {
	case errors.Is(err, syscall.ENOSPC):
		if !t.limitSaid {
			t.limitSaid = true
			t.warn(fmt.Sprintf("the system's limit on watched folders is reached (%s); edits in unwatched folders are found by the periodic rescan only. Raise it with: sudo sysctl fs.inotify.max_user_watches=524288", limitNow()))
		}
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		// gone again before the watch was set: its removal is an event too
	default:
		t.warn(fmt.Sprintf("cannot watch %s: %v", abs, err))
	}
	return false
}

func limitNow() string {
	data, err := os.ReadFile("/proc/sys/fs/inotify/max_user_watches")
	if err != nil {
		return "fs.inotify.max_user_watches"
	}
	return "fs.inotify.max_user_watches = " + strings.TrimSpace(string(data))
}

// addTree watches rel and every folder under it that should be watched,
// and returns how many folders it added.
func (t *tree) addTree(rel string) int {
	added := 0
	// The walk skips what it cannot read.
	_ = filepath.WalkDir(t.abs(rel), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		r, ok := t.rel(p)
		if !ok {
			return filepath.SkipDir
		}
		if !t.shouldWatch(r) {
			return filepath.SkipDir
		}
		if t.dirs[r] {
			return nil
		}
		if t.add(p) {
			t.dirs[r] = true
			added++
		}
		return nil
	})
	return added
}

// dropTree forgets rel and every watched folder under it. The kernel has
// dropped the watch of a deleted folder already; a folder moved away keeps
// its watch (and its old name in events) until it is removed here.
func (t *tree) dropTree(rel string) {
	for d := range t.dirs {
		if safepath.Within(rel, d) {
			_ = t.fsw.Remove(t.abs(d)) // a watch gone with its folder
			delete(t.dirs, d)
		}
	}
}

// resync makes the watches match the tree as it is: folders missed (an
// event overflow) are added, folders gone or now ignored dropped.
func (t *tree) resync() {
	t.missed = false
	seen := map[string]bool{}
	// The walk skips what it cannot read.
	_ = filepath.WalkDir(t.repo.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		r, ok := t.rel(p)
		if !ok || !t.shouldWatch(r) {
			return filepath.SkipDir
		}
		seen[r] = true
		if !t.dirs[r] && t.add(p) {
			t.dirs[r] = true
		}
		return nil
	})
	if !t.dirs[config.Dir] {
		if info, err := os.Stat(t.abs(config.Dir)); err == nil && info.IsDir() && t.add(t.abs(config.Dir)) {
			t.dirs[config.Dir] = true
		}
	}
	seen[config.Dir] = t.dirs[config.Dir]
	for d := range t.dirs {
		if !seen[d] {
			_ = t.fsw.Remove(t.abs(d)) // a watch gone with its folder
			delete(t.dirs, d)
		}
	}
}

// watchGit watches where HEAD and the branch refs live: this worktree's git
// folder (HEAD, a rebase's state), the common one (packed-refs), refs/heads
// and everything under it (a branch ref is a file there, a/b is a folder),
// a reftable folder if the repository uses one, and info/ (the exclude
// rules, isExclude).
func (t *tree) watchGit() {
	for _, d := range []string{t.repo.GitDir, t.repo.CommonDir, filepath.Join(t.repo.CommonDir, "reftable"), filepath.Dir(t.repo.InfoExclude())} {
		if info, err := os.Stat(d); err == nil && info.IsDir() && !t.gitDirs[d] && t.add(d) {
			t.gitDirs[d] = true
		}
	}
	t.addRefTree(t.refs)
}

func (t *tree) addRefTree(abs string) {
	// The walk skips what it cannot read.
	_ = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if !t.gitDirs[p] && t.add(p) {
			t.gitDirs[p] = true
		}
		return nil
	})
}

// isExclude reports an event on the repository's info/exclude: its rules
// decide which files are documents, as a .gitignore's do.
func (t *tree) isExclude(ev fsnotify.Event) bool {
	return ev.Op != fsnotify.Chmod && filepath.Clean(ev.Name) == filepath.Clean(t.repo.InfoExclude())
}

// isCookie reports a command's cookie created in the git folder
// (gitsync.CookiePrefix).
func (t *tree) isCookie(ev fsnotify.Event) bool {
	name := filepath.Clean(ev.Name)
	return ev.Has(fsnotify.Create) && filepath.Dir(name) == filepath.Clean(t.repo.GitDir) &&
		strings.HasPrefix(filepath.Base(name), gitsync.CookiePrefix)
}

// gitEvent reports whether an event is in a git folder this tree watches,
// and whether it says HEAD may have moved.
func (t *tree) gitEvent(ev fsnotify.Event) (isGit, moved bool) {
	name := filepath.Clean(ev.Name)
	dir := filepath.Dir(name)
	if !t.gitDirs[dir] && !t.gitDirs[name] {
		return false, false
	}
	base := filepath.Base(name)
	inRefs := name == t.refs || strings.HasPrefix(name, t.refs+string(filepath.Separator))
	if inRefs && ev.Has(fsnotify.Create) {
		if info, err := os.Lstat(name); err == nil && info.IsDir() {
			t.addRefTree(name)
		}
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		for d := range t.gitDirs {
			if d == name || strings.HasPrefix(d, name+string(filepath.Separator)) {
				if inRefs {
					_ = t.fsw.Remove(d) // a watch gone with its folder
					delete(t.gitDirs, d)
				}
			}
		}
	}
	if strings.HasSuffix(base, ".lock") || ev.Op == fsnotify.Chmod {
		return true, false
	}
	switch {
	case inRefs, filepath.Base(dir) == "reftable":
		return true, true
	case dir == t.repo.GitDir && (base == "HEAD" || base == "rebase-merge" || base == "rebase-apply"):
		return true, true
	case dir == t.repo.CommonDir && base == "packed-refs":
		return true, true
	}
	return true, false
}

// count is the number of watched folders, worktree and git.
func (t *tree) count() int { return len(t.dirs) + len(t.gitDirs) }

// sortedDirs lists the watched worktree folders (for tests).
func (t *tree) sortedDirs() []string {
	out := make([]string, 0, len(t.dirs))
	for d := range t.dirs {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// classify folds one worktree event into p. It returns false for events
// that ask for nothing (a chmod, a file that is not a document, a folder
// that is not watched).
func (t *tree) classify(ev fsnotify.Event, p *pending, now time.Time) bool {
	rel, ok := t.rel(filepath.Clean(ev.Name))
	if !ok || ev.Op == fsnotify.Chmod || ev.Op == 0 {
		return false // outside the worktree; permissions alone change no content
	}
	if rel == config.File {
		p.markConfig(now)
		return true
	}
	if path.Base(rel) == ".gitignore" {
		// Which files are documents may have changed anywhere below.
		t.setConfig(t.cfg)
		p.markFull(TriggerIgnore, now)
		return true
	}
	if ev.Has(fsnotify.Create) {
		if info, err := os.Lstat(ev.Name); err == nil && info.IsDir() {
			if t.dirs[rel] || !t.shouldWatch(rel) {
				return false
			}
			// Watch first, then look: files written before the watch was
			// in place are found by the sync's walk of the folder, files
			// written after it by their own events.
			t.addTree(rel)
			p.addDir(rel, now)
			return true
		}
	}
	if (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) && t.dirs[rel] {
		if rel == "" {
			return false // the worktree itself went; nothing left to follow
		}
		t.dropTree(rel)
		p.addDir(rel, now)
		return true
	}
	if scan.IsSidecar(t.cfg, rel) {
		// A sidecar's fields are its README's (ADR-0084): an edit, an
		// addition or a removal of kep.yaml is its README read again.
		readme := path.Join(path.Dir(rel), config.SidecarBeside)
		if !t.isDocument(readme) {
			return false
		}
		p.addFile(readme, now)
		return true
	}
	if !scan.IsMarkdown(rel) || !t.isDocument(rel) {
		return false
	}
	p.addFile(rel, now)
	return true
}
