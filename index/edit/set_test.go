package edit

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/indextest/must"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

func TestStamp(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 1, 12, 30, 5, 0, time.FixedZone("", 3600))
	for old, want := range map[string]string{
		"2025-01-02":                "2025-03-01",
		"2025-01-02T08:00:00Z":      "2025-03-01T12:30:05+01:00",
		"2025-01-02 08:00:00+00:00": "2025-03-01 12:30:05+01:00",
		"2025-01-02T08:00:00+0000":  "2025-03-01T12:30:05+0100",
		"2025-01-02 08:00":          "2025-03-01 12:30",
		"last week":                 "2025-03-01",
		"":                          "2025-03-01",
	} {
		if got := Stamp(old, now); got != want {
			t.Errorf("Stamp(%q) = %q, want %q", old, got, want)
		}
	}
}

func TestWritable(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	outside := t.TempDir()
	write := func(rel string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		must.OK(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if err := os.WriteFile(p, []byte("# x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("items/a.md")
	write("items/notes.txt")
	must.OK(t, os.WriteFile(filepath.Join(outside, "x.md"), []byte("# x\n"), 0o644))
	must.OK(t, os.Symlink(filepath.Join(outside, "x.md"), filepath.Join(root, "items/link.md")))
	must.OK(t, os.Symlink(outside, filepath.Join(root, "ext")))
	must.OK(t, os.MkdirAll(filepath.Join(root, "items/dir.md"), 0o755))
	cfg, err := config.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	scope := scan.NewScope(root, cfg, "")
	for _, tc := range []struct {
		rel       string
		mustExist bool
		err       string // "" when allowed
	}{
		{"items/a.md", true, ""},
		{"items/new.md", false, ""},
		{"decisions/ADR-0001_x.md", false, ""}, // a folder still to be made
		{"items/new.md", true, "does not exist"},
		{"../x.md", false, "not a path inside the repository"},
		{"/etc/x.md", false, "not a path inside the repository"},
		{"items/../items/a.md", false, "not a path inside the repository"},
		{"items/notes.txt", true, "outside the canonical roots"},
		{".cache/worksets/w/notes.md", false, "outside the canonical roots"},
		{".git/x.md", false, "outside the canonical roots"},
		{"items/link.md", true, "is a symbolic link"},
		{"ext/x.md", true, "symbolic link that leaves the repository"},
		{"ext/new.md", false, "symbolic link that leaves the repository"},
		{"items/dir.md", true, "not a regular file"},
	} {
		_, err := Writable(root, tc.rel, scope, tc.mustExist, false)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.rel, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: err = %v, want %q", tc.rel, err, tc.err)
		}
	}
}

// repo is the Repo of a test: a working tree with a git folder beside
// it, the moves told to git's index and the syncs counted.
type repo struct {
	root, git string
	staged    *[]string
	syncs     *int
	write     func(path string, data []byte, perm os.FileMode, roots ...string) error
	cfg       *config.Config // nil: the defaults
}

func newRepo(t *testing.T, files map[string]string) repo {
	t.Helper()
	dir := t.TempDir()
	r := repo{root: filepath.Join(dir, "work"), git: filepath.Join(dir, "git"), staged: new([]string), syncs: new(int)}
	for rel, c := range files {
		p := filepath.Join(r.root, filepath.FromSlash(rel))
		must.OK(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must.OK(t, os.WriteFile(p, []byte(c), 0o644))
	}
	must.OK(t, os.MkdirAll(r.git, 0o755))
	return r
}

func (r repo) JournalDir() string { return filepath.Join(r.git, "canon", "journal") }
func (r repo) Documents() *scan.Scope {
	if r.cfg != nil {
		return scan.NewScope(r.root, r.cfg, "")
	}
	return scan.NewScope(r.root, config.Default(), "")
}
func (r repo) StageRename(_ context.Context, from, to string) error {
	*r.staged = append(*r.staged, from+" -> "+to)
	return nil
}
func (r repo) SyncWritten(context.Context, []string) error { *r.syncs++; return nil }
func (r repo) SyncWorkingTree(context.Context) error       { *r.syncs++; return nil }
func (r repo) WriteFile(path string, data []byte, perm os.FileMode, roots ...string) error {
	if r.write != nil {
		return r.write(path, data, perm, roots...)
	}
	return safepath.WriteFile(path, data, perm, roots...)
}

// tree is every file of the working tree and its content.
func (r repo) tree(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	must.OK(t, filepath.WalkDir(r.root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(r.root, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	}))
	return out
}

var setFiles = map[string]string{
	"items/a.md": "---\nid: A-1\nstatus: Todo\nblocked_by: [B-1]\nupdated: 2025-01-01\n---\n# A\n\n## Worklog\n\n2025-01-01 10:00 made\n",
	"items/b.md": "---\nid: B-1\n---\n# B\n",
	"items/d.md": "# D\n",
}

// plan is one change of every kind: a.md edited three ways, a new file,
// b.md edited and renamed, d.md removed.
func plan(t *testing.T, r repo) *Set {
	t.Helper()
	s := NewSet(r.root, r.Documents())
	for _, err := range []error{
		second(s.SetField("items/a.md", "status", "In Progress")),
		second(s.RemoveFromList("items/a.md", "blocked_by", "B-1")),
		second(s.AppendToSection("items/a.md", Worklog, "2025-03-01 12:30 claimed", "claimed")),
		second(s.Create("items/n.md", []byte("---\nid: N-1\n---\n# N\n"))),
		second(s.AddToList("items/b.md", "relates", "N-1")),
		second(s.Rename("items/b.md", "items/c.md")),
		second(s.Remove("items/d.md")),
	} {
		must.OK(t, err)
	}
	s.Touch(editNow)
	return s
}

func second[T any](_ T, err error) error { return err }

func TestSetApply(t *testing.T) {
	t.Parallel()
	r := newRepo(t, setFiles)
	s := plan(t, r)
	diff := s.Diff()
	for _, want := range []string{"--- a/items/a.md\n+++ b/items/a.md\n", "--- /dev/null\n+++ b/items/n.md\n", "--- a/items/b.md\n+++ b/items/c.md\n", "--- a/items/d.md\n+++ /dev/null\n", "+status: In Progress\n", "+blocked_by: []\n", "+2025-03-01 12:30 claimed\n", "+updated: 2025-03-01\n"} {
		if !strings.Contains(diff, want) {
			t.Errorf("the diff lacks %q:\n%s", want, diff)
		}
	}
	if !s.Exists("items/c.md") || s.Exists("items/b.md") || s.Exists("items/d.md") || !s.Exists("items/n.md") {
		t.Error("Exists does not see the working tree as the set leaves it")
	}
	if got := s.Paths([]string{"items/a.md", "items/b.md", "items/d.md"}); strings.Join(got, " ") != "items/a.md items/c.md" {
		t.Errorf("Paths = %q", got)
	}
	var recorded []string
	part := &Part{Name: "test", Data: []string{"one"}, Make: func(_ context.Context, data json.RawMessage) error {
		recorded = append(recorded, string(data))
		return nil
	}}
	written, err := s.Apply(context.Background(), r, "canon test", part)
	must.OK(t, err)
	if got := strings.Join(written, " "); got != "items/a.md items/b.md items/c.md items/d.md items/n.md" {
		t.Errorf("written %q", got)
	}
	tree := r.tree(t)
	want := map[string]string{
		"items/a.md": "---\nid: A-1\nstatus: In Progress\nblocked_by: []\nupdated: 2025-03-01\n---\n# A\n\n## Worklog\n\n2025-01-01 10:00 made\n2025-03-01 12:30 claimed\n",
		"items/c.md": "---\nid: B-1\nrelates: [N-1]\nupdated: 2025-03-01\n---\n# B\n",
		"items/n.md": "---\nid: N-1\n---\n# N\n",
	}
	if len(tree) != len(want) {
		t.Errorf("the tree holds %v", tree)
	}
	for p, c := range want {
		if tree[p] != c {
			t.Errorf("%s:\n%s\nwant\n%s", p, tree[p], c)
		}
	}
	if strings.Join(*r.staged, ", ") != "items/b.md -> items/c.md" || *r.syncs != 1 || strings.Join(recorded, "") != `["one"]` {
		t.Errorf("staged %v, %d syncs, recorded %v", *r.staged, *r.syncs, recorded)
	}
	if entries, _ := os.ReadDir(r.JournalDir()); len(entries) != 1 { // the lock alone
		t.Errorf("the journal folder holds %v", entries)
	}
}

// A write that fails midway leaves every file as it was.
func TestApplyAllOrNone(t *testing.T) {
	t.Parallel()
	r := newRepo(t, setFiles)
	before := r.tree(t)
	calls := 0
	r.write = func(path string, data []byte, perm os.FileMode, roots ...string) error {
		if calls++; calls == 3 {
			return errors.New("disk full")
		}
		return safepath.WriteFile(path, data, perm, roots...)
	}
	if _, err := plan(t, r).Apply(context.Background(), r, "canon test", nil); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Apply = %v; want the write's error", err)
	}
	if after := r.tree(t); !maps.Equal(before, after) {
		t.Errorf("a failed write changed the files:\n%v\nwant\n%v", after, before)
	}
	if len(*r.staged) != 0 || *r.syncs != 0 {
		t.Errorf("staged %v, %d syncs", *r.staged, *r.syncs)
	}
}

// A file that changed since it was read stops the write before any file
// is touched.
func TestApplyChangedSinceRead(t *testing.T) {
	t.Parallel()
	r := newRepo(t, setFiles)
	s := plan(t, r)
	must.OK(t, os.WriteFile(filepath.Join(r.root, "items/a.md"), []byte("mine\n"), 0o644))
	before := r.tree(t)
	var changed *safepath.ChangedError
	if _, err := s.Apply(context.Background(), r, "canon test", nil); !errors.As(err, &changed) || changed.Path != "items/a.md" {
		t.Fatalf("Apply = %v; want items/a.md changed", err)
	}
	if after := r.tree(t); !maps.Equal(before, after) {
		t.Errorf("the write went on: %v", after)
	}
}

// A write killed midway is finished by the next command (Finish): every
// file as the write meant it, the moves told to git's index, the
// caller's part made with the recorder Finish is given.
func TestApplyKilledIsFinished(t *testing.T) {
	t.Parallel()
	ref := newRepo(t, setFiles)
	_, err := plan(t, ref).Apply(context.Background(), ref, "canon test", nil)
	must.OK(t, err)
	want := ref.tree(t)

	r := newRepo(t, setFiles)
	type kill struct{}
	calls := 0
	r.write = func(path string, data []byte, perm os.FileMode, roots ...string) error {
		if calls == 2 {
			panic(kill{})
		}
		calls++
		return safepath.WriteFile(path, data, perm, roots...)
	}
	part := &Part{Name: "test", Data: 7, Make: func(context.Context, json.RawMessage) error { return nil }}
	func() {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(kill); !ok {
					panic(v)
				}
			}
		}()
		plan(t, r).Apply(context.Background(), r, "canon test", part) //nolint:errcheck // killed
		t.Fatal("the write was not killed")
	}()
	if len(*r.staged) != 0 {
		t.Fatalf("the killed write staged %v", *r.staged)
	}
	r.write = nil
	var notes, made []string
	done := Finish(context.Background(), r, r.root, Recorders{"test": func(_ context.Context, data json.RawMessage) error {
		made = append(made, string(data))
		return nil
	}}, func(s string) { notes = append(notes, s) })
	if len(done) != 1 || done[0].Outcome != safepath.Finished {
		t.Fatalf("Finish = %+v", done)
	}
	if got := r.tree(t); !maps.Equal(got, want) {
		t.Errorf("after Finish:\n%v\nwant\n%v", got, want)
	}
	if strings.Join(*r.staged, ", ") != "items/b.md -> items/c.md" || strings.Join(made, "") != "7" || *r.syncs != 1 {
		t.Errorf("staged %v, made %v, %d syncs", *r.staged, made, *r.syncs)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "canon test (pid ") || !strings.Contains(notes[0], "it is finished now") {
		t.Errorf("notes %q", notes)
	}
	if Pending(r, r.root) != "" {
		t.Error("a finished write is still pending")
	}
}
