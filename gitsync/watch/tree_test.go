package watch

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/indextest/hang"
	"github.com/canon-md/canon/index/indextest/must"
)

// fixture is a worktree with a fake git folder, a tree of watches over it
// and a pending set fed by real fsnotify events.
type fixture struct {
	t     *testing.T
	root  string
	tree  *tree
	fsw   *fsnotify.Watcher
	p     *pending
	marks string // a folder outside the worktree, watched for drain alone
	n     int    // the marks drain wrote
}

func newFixture(t *testing.T, files map[string]string) *fixture {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{".git/refs/heads", "items", "node_modules/pkg"} {
		mkdir(t, filepath.Join(root, d))
	}
	write(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/main\n")
	for name, content := range files {
		write(t, filepath.Join(root, name), content)
	}
	fsw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsw.Close() })
	repo := &gitsync.Repo{Root: root, GitDir: filepath.Join(root, ".git"), CommonDir: filepath.Join(root, ".git")}
	tr := newTree(repo, config.Default(), fsw, func(msg string) { t.Log(msg) })
	tr.resync()
	tr.watchGit()
	marks := t.TempDir()
	if err := fsw.Add(marks); err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, root: root, tree: tr, fsw: fsw, p: newPending(), marks: marks}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, p, content string) {
	t.Helper()
	mkdir(t, filepath.Dir(p))
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) path(rel string) string { return filepath.Join(f.root, filepath.FromSlash(rel)) }

// drain folds the events of every edit made so far, as the watcher's
// event goroutine does, and returns the pending set. Its barrier is an
// event, not a quiet time that guesses when the last one is in: it writes
// a mark in a folder only it watches and folds until the mark's event
// comes. One fsnotify watcher hands its events on in the order the kernel
// queued them, so an edit made before the mark comes before it.
func (f *fixture) drain() *pending {
	f.t.Helper()
	f.n++
	mark := filepath.Join(f.marks, strconv.Itoa(f.n))
	if err := os.WriteFile(mark, nil, 0o644); err != nil {
		f.t.Fatal(err)
	}
	stuck := time.NewTimer(hang.Limit)
	defer stuck.Stop()
	for {
		select {
		case ev := <-f.fsw.Events:
			if filepath.Dir(ev.Name) == f.marks {
				if ev.Name != mark {
					continue // an earlier mark's later event
				}
				p := f.p
				f.p = newPending()
				return p
			}
			now := time.Now()
			if isGit, moved := f.tree.gitEvent(ev); isGit {
				if moved {
					f.p.markGit(now)
				}
			} else {
				f.tree.classify(ev, f.p, now)
			}
		case err := <-f.fsw.Errors:
			f.t.Fatal(err)
		case <-stuck.C:
			f.t.Fatalf("hung: the event of drain's mark %s never came", mark)
		}
	}
}

func TestInitialWatches(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{"items/a.md": "# A\n", ".cache/worksets/x/plan.md": "# plan\n"})
	got := f.tree.sortedDirs()
	want := []string{"", "items"} // not .git, not .cache, not node_modules
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("watched %v, want %v", got, want)
	}
	if !f.tree.gitDirs[filepath.Join(f.root, ".git")] || !f.tree.gitDirs[filepath.Join(f.root, ".git/refs/heads")] {
		t.Fatalf("git folders watched: %v", f.tree.gitDirs)
	}
}

func TestEditorSavePatterns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		edit  func(f *fixture)
		files []string
		dirs  []string
	}{
		{"write in place", func(f *fixture) {
			write(f.t, f.path("items/a.md"), "# A, edited\n")
		}, []string{"items/a.md"}, nil},
		{"temporary file renamed over (vim, VS Code, JetBrains)", func(f *fixture) {
			write(f.t, f.path("items/.a.md.swp"), "# A, saved\n")
			if err := os.Rename(f.path("items/.a.md.swp"), f.path("items/a.md")); err != nil {
				f.t.Fatal(err)
			}
		}, []string{"items/a.md"}, nil},
		{"backup then write (a.md~)", func(f *fixture) {
			if err := os.Rename(f.path("items/a.md"), f.path("items/a.md~")); err != nil {
				f.t.Fatal(err)
			}
			write(f.t, f.path("items/a.md"), "# A, saved\n")
		}, []string{"items/a.md"}, nil},
		{"remove and create", func(f *fixture) {
			os.Remove(f.path("items/a.md"))
			write(f.t, f.path("items/a.md"), "# A, again\n")
		}, []string{"items/a.md"}, nil},
		{"chmod alone asks for nothing", func(f *fixture) {
			must.OK(t, os.Chmod(f.path("items/a.md"), 0o600))
		}, nil, nil},
		{"files that are not documents ask for nothing", func(f *fixture) {
			write(f.t, f.path("items/notes.txt"), "x")
			write(f.t, f.path("node_modules/pkg/readme.md"), "x")
		}, nil, nil},
		{"a new folder with files is one folder to look at", func(f *fixture) {
			write(f.t, f.path("items/sub/deeper/n.md"), "# N\n")
			write(f.t, f.path("items/sub/m.md"), "# M\n")
		}, []string{"items/sub/deeper/n.md", "items/sub/m.md"}, []string{"items/sub"}},
		{"a document renamed", func(f *fixture) {
			must.OK(t, os.Rename(f.path("items/a.md"), f.path("items/a2.md")))
		}, []string{"items/a.md", "items/a2.md"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, map[string]string{"items/a.md": "# A\n"})
			tt.edit(f)
			p := f.drain()
			files := p.sortedFiles()
			if len(files) == 0 {
				files = nil
			}
			// A new folder's files may come as events or only through the
			// folder (written before its watch was set): either is right.
			if tt.dirs != nil {
				if got := p.outermostDirs(); !reflect.DeepEqual(got, tt.dirs) {
					t.Fatalf("dirs = %v, want %v", got, tt.dirs)
				}
				return
			}
			if !reflect.DeepEqual(files, tt.files) || len(p.dirs) > 0 {
				t.Fatalf("files = %v, dirs = %v; want %v", files, p.dirs, tt.files)
			}
		})
	}
}

func TestFolderComesAndGoes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{"items/sub/deeper/n.md": "# N\n"})
	if got := f.tree.sortedDirs(); !reflect.DeepEqual(got, []string{"", "items", "items/sub", "items/sub/deeper"}) {
		t.Fatalf("watched %v", got)
	}
	// Moved away inside the tree: the old folders are dropped (their
	// watches would report the old names), the new ones watched.
	if err := os.Rename(f.path("items/sub"), f.path("items/moved")); err != nil {
		t.Fatal(err)
	}
	p := f.drain()
	if got := p.outermostDirs(); !reflect.DeepEqual(got, []string{"items/moved", "items/sub"}) {
		t.Fatalf("dirs = %v", got)
	}
	if got := f.tree.sortedDirs(); !reflect.DeepEqual(got, []string{"", "items", "items/moved", "items/moved/deeper"}) {
		t.Fatalf("watched %v", got)
	}
	// An edit in the moved folder is reported under its new name.
	write(t, f.path("items/moved/deeper/n.md"), "# N, edited\n")
	p = f.drain()
	if got := p.sortedFiles(); !reflect.DeepEqual(got, []string{"items/moved/deeper/n.md"}) {
		t.Fatalf("files = %v", got)
	}
	// Deleted: dropped.
	if err := os.RemoveAll(f.path("items/moved")); err != nil {
		t.Fatal(err)
	}
	p = f.drain()
	if got := p.outermostDirs(); !reflect.DeepEqual(got, []string{"items/moved"}) {
		t.Fatalf("dirs = %v", got)
	}
	if got := f.tree.sortedDirs(); !reflect.DeepEqual(got, []string{"", "items"}) {
		t.Fatalf("watched %v", got)
	}
}

func TestGitEvents(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	// A commit: the ref is written through a lock file and renamed.
	write(t, f.path(".git/refs/heads/main.lock"), "0123\n")
	must.OK(t, os.Rename(f.path(".git/refs/heads/main.lock"), f.path(".git/refs/heads/main")))
	if p := f.drain(); !p.git || len(p.files) > 0 {
		t.Fatalf("a ref update: %+v", p)
	}
	// A branch in a folder (feature/x): the folder gets a watch.
	write(t, f.path(".git/refs/heads/feature/x"), "0123\n")
	f.drain()
	write(t, f.path(".git/refs/heads/feature/y"), "4567\n")
	if p := f.drain(); !p.git {
		t.Fatal("a ref in a new folder went unseen")
	}
	// Git's own bookkeeping asks for nothing.
	write(t, f.path(".git/index.lock"), "x")
	must.OK(t, os.Rename(f.path(".git/index.lock"), f.path(".git/index")))
	write(t, f.path(".git/ORIG_HEAD"), "x")
	if p := f.drain(); !p.empty() {
		t.Fatalf("git's index asked for a sync: %+v", p)
	}
	// A checkout: HEAD rewritten.
	write(t, f.path(".git/HEAD.lock"), "ref: refs/heads/other\n")
	must.OK(t, os.Rename(f.path(".git/HEAD.lock"), f.path(".git/HEAD")))
	if p := f.drain(); !p.git {
		t.Fatal("HEAD moved unseen")
	}
	write(t, f.path(".git/packed-refs"), "# pack-refs\n")
	if p := f.drain(); !p.git {
		t.Fatal("packed-refs unseen")
	}
}

func TestIgnoreAndConfigEvents(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{".canon/config.yaml": "roots: [.]\n", "drafts/d.md": "# D\n"})
	write(t, f.path(".gitignore"), "/drafts/\n")
	p := f.drain()
	if p.full != TriggerIgnore {
		t.Fatalf("a .gitignore change: %+v", p)
	}
	write(t, f.path("drafts/e.md"), "# E\n")
	if p := f.drain(); len(p.files) != 0 {
		t.Fatalf("an ignored document asked for a sync: %v", p.files)
	}
	write(t, f.path(".canon/config.yaml"), "roots: [items]\n")
	if p := f.drain(); !p.config {
		t.Fatalf("a configuration change: %+v", p)
	}
}
