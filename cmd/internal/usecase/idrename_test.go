package usecase

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/indextest"
	"github.com/canon-md/canon/index/indextest/must"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

var corpus = map[string]string{
	"items/a.md": "---\nid: A-1\ntitle: Alpha\n---\n# Alpha\nalpha words\n",
	"items/b.md": "---\nid: B-1\ntitle: Beta\nparent: A-1\n---\n# Beta\nbeta words\n",
	"items/c.md": "---\nid: C-1\ntitle: Gamma\nparent: B-1\n---\n# Gamma\ngamma words\n",
	"items/d.md": "---\nid: D-1\ntitle: Delta\n---\n# Delta\ndelta words\n",
}

// fixture is a working tree of the corpus and its index.
type fixture struct {
	t    *testing.T
	root string
	cfg  *config.Config
	st   *index.Store
	env  *idEnv
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{t: t, root: filepath.Join(t.TempDir(), "work"), cfg: config.Default()}
	for rel, content := range corpus {
		f.write(rel, content)
	}
	st := indextest.Build(t, f.root, f.cfg)
	f.st = st
	f.env = &idEnv{Root: f.root, Index: st, Config: f.cfg, Now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
	return f
}

func (f *fixture) write(rel, content string) {
	p := filepath.Join(f.root, rel)
	must.OK(f.t, os.MkdirAll(filepath.Dir(p), 0o755))
	must.OK(f.t, os.WriteFile(p, []byte(content), 0o644))
}

// sync reconciles the index with the files, as canon sync does.
func (f *fixture) sync() {
	if _, err := f.st.Reconcile(context.Background(), index.NewLoader(f.root, f.cfg), scan.NewScope(f.root, f.cfg, ""), nil); err != nil {
		f.t.Fatal(err)
	}
}

// idRepo is the edit.Repo of a fixture: the sync is the fixture's.
type idRepo struct{ f *fixture }

func (r idRepo) SyncWritten(context.Context, []string) error { r.f.sync(); return nil }
func (r idRepo) SyncWorkingTree(context.Context) error       { r.f.sync(); return nil }
func (r idRepo) Documents() *scan.Scope                      { return scan.NewScope(r.f.root, r.f.cfg, "") }

// JournalDir is beside the working tree, as a git folder would be.
func (r idRepo) JournalDir() string {
	return filepath.Join(filepath.Dir(r.f.root), "git", "canon", "journal")
}
func (r idRepo) StageRename(context.Context, string, string) error {
	return nil
}

// stagingRepo is an idRepo that keeps the moves told to git's index.
type stagingRepo struct {
	idRepo
	staged *[]string
}

func (r stagingRepo) StageRename(_ context.Context, from, to string) error {
	*r.staged = append(*r.staged, from+" -> "+to)
	return nil
}

// writingRepo is an edit.Repo that writes each file through write (the
// edit engine takes a repository's own WriteFile): a test makes a write
// fail, or ends the process, midway.
type writingRepo struct {
	edit.Repo
	write func(path string, data []byte, perm os.FileMode, roots ...string) error
}

func (r writingRepo) WriteFile(path string, data []byte, perm os.FileMode, roots ...string) error {
	return r.write(path, data, perm, roots...)
}

// items is every file of a fixture's working tree, by its path there.
func items(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for p, c := range indextest.Tree(t, root) {
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = c
	}
	return out
}

// canon id fix's renames are one step: planned one after the other (the
// second sees the first's edits of a file both change), written at once,
// and none written when a write fails midway.
func TestRenameIDsAllOrNone(t *testing.T) {
	f := newFixture(t)
	f.write("items/A-1_dup.md", "---\nid: A-1\ntitle: Alpha again\n---\n# Again\n")
	f.write("items/B-1_dup.md", "---\nid: B-1\ntitle: Beta again\nrelates: [A-1@, C-1]\n---\n# Again\n\nSee [the other](A-1_dup.md).\n")
	f.write("items/z.md", "---\nid: Z-1\ntitle: Last\n---\n# Last\n\n[Alpha again](A-1_dup.md), [[B-1]].\n")
	f.sync()
	args := []IDRenameArgs{
		{Old: "A-1", New: "A-2", Path: "items/A-1_dup.md", Worklog: "renamed from A-1"},
		{Old: "B-1", New: "B-2", Path: "items/B-1_dup.md", Worklog: "renamed from B-1"},
	}
	before := indextest.Tree(t, f.root)
	calls := 0
	failing := writingRepo{idRepo{f}, func(path string, data []byte, perm os.FileMode, roots ...string) error {
		// The second rename's file: the first's are written by then.
		if calls++; strings.HasSuffix(path, "B-2_dup.md") {
			return errors.New("disk full")
		}
		return safepath.WriteFile(path, data, perm, roots...)
	}}
	if _, err := renameIDs(context.Background(), failing, f.env, args, false); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("renameIDs with a failing write: %v; want the write's error", err)
	}
	if calls < 2 {
		t.Fatalf("the failing write was the first; the test needs it midway")
	}
	if after := indextest.Tree(t, f.root); !maps.Equal(before, after) {
		t.Fatalf("a failed fix changed the files:\nbefore %v\nafter  %v", before, after)
	}

	res, err := renameIDs(context.Background(), idRepo{f}, f.env, args, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 {
		t.Fatalf("%d renames; want 2", len(res))
	}
	b, err := os.ReadFile(filepath.Join(f.root, "items/B-2_dup.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"id: B-2\n", "See [the other](A-2_dup.md).", "renamed from B-1"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("items/B-2_dup.md lacks %q, which needs both renames:\n%s", want, b)
		}
	}
	for _, gone := range []string{"items/A-1_dup.md", "items/B-1_dup.md"} {
		if _, err := os.Stat(filepath.Join(f.root, gone)); err == nil {
			t.Errorf("%s is still there after the rename", gone)
		}
	}
}

// A child id (Ⱥ-1.2 under ⱥ-1: 4 and 5 bytes, the same id without case)
// keeps its own suffix: it was cut at the parent's length in bytes.
func TestRenameChildIDUnicode(t *testing.T) {
	f := newFixture(t)
	f.write("items/parent.md", "---\nid: Ⱥ-1\ntitle: Parent\n---\n# Parent\n")
	f.write("items/child.md", "---\nid: ⱥ-1.2\ntitle: Child\nparent: Ⱥ-1\n---\n# Child\n")
	f.sync()
	p, err := planRename(context.Background(), f.env, IDRenameArgs{Old: "Ⱥ-1", New: "T-1", Scope: idRepo{f}.Documents()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.IDs {
		got = append(got, c.Old+" → "+c.New)
	}
	if want := []string{"Ⱥ-1 → T-1", "ⱥ-1.2 → T-1.2"}; !slices.Equal(got, want) {
		t.Errorf("renames %q; want %q", got, want)
	}
}

// A frontmatter reference by the path from the repository's root names
// the file as index/resolve reads it (refPlan tries that path first): the rename
// rewrites it too. It was read from the referring file's folder only, and
// left dangling.
func TestRenameRootPathRef(t *testing.T) {
	f := newFixture(t)
	f.write("items/T-1_a.md", "---\nid: T-1\ntitle: A\n---\n# A\n")
	f.write("items/r.md", "---\nid: R-1\ntitle: R\nrelates: [items/T-1_a.md, T-1_a.md]\n---\n# R\n")
	f.sync()
	p, err := planRename(context.Background(), f.env, IDRenameArgs{Old: "T-1", New: "T-2", Scope: idRepo{f}.Documents()})
	if err != nil {
		t.Fatal(err)
	}
	for _, fc := range p.Files {
		if fc.Path == "items/r.md" && strings.Contains(string(fc.After), "relates: [items/T-2_a.md, T-2_a.md]\n") {
			return
		}
	}
	t.Errorf("items/r.md's references by path were not both rewritten: %+v", p.Files)
}

// canon id fix killed midway is finished with its moves told to git's
// index, as the rename not killed tells them.
func TestRenameIDsKilledIsFinished(t *testing.T) {
	ctx := context.Background()
	setup := func() *fixture {
		f := newFixture(t)
		f.write("items/A-1_dup.md", "---\nid: A-1\ntitle: Alpha again\n---\n# Again\n")
		f.write("items/B-1_dup.md", "---\nid: B-1\ntitle: Beta again\nrelates: [A-1@, C-1]\n---\n# Again\n\nSee [the other](A-1_dup.md).\n")
		f.write("items/z.md", "---\nid: Z-1\ntitle: Last\n---\n# Last\n\n[Alpha again](A-1_dup.md), [[B-1]].\n")
		f.sync()
		return f
	}
	args := func() []IDRenameArgs {
		return []IDRenameArgs{
			{Old: "A-1", New: "A-2", Path: "items/A-1_dup.md", Worklog: "renamed from A-1"},
			{Old: "B-1", New: "B-2", Path: "items/B-1_dup.md", Worklog: "renamed from B-1"},
		}
	}
	var refStaged []string
	ref := setup()
	if _, err := renameIDs(ctx, stagingRepo{idRepo{ref}, &refStaged}, ref.env, args(), false); err != nil {
		t.Fatal(err)
	}
	want := items(t, ref.root)

	var staged []string
	f := setup()
	repo := stagingRepo{idRepo{f}, &staged}
	type kill struct{}
	calls := 0
	killing := writingRepo{repo, func(path string, data []byte, perm os.FileMode, roots ...string) error {
		if calls == 1 {
			panic(kill{})
		}
		calls++
		return safepath.WriteFile(path, data, perm, roots...)
	}}
	func() {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(kill); !ok {
					panic(v)
				}
			}
		}()
		renameIDs(ctx, killing, f.env, args(), false) //nolint:errcheck // killed
		t.Fatal("the rename was not killed")
	}()
	if len(staged) != 0 {
		t.Fatalf("the killed rename staged %v", staged)
	}
	done := edit.Finish(ctx, repo, f.root, nil, nil)
	if len(done) != 1 || done[0].Outcome != safepath.Finished || done[0].What != "canon id fix" {
		t.Fatalf("edit.Finish = %+v", done)
	}
	if got := items(t, f.root); !maps.Equal(got, want) {
		t.Fatalf("after the recovery:\n%v\nwant\n%v", got, want)
	}
	if strings.Join(staged, ", ") != strings.Join(refStaged, ", ") || len(staged) != 2 {
		t.Errorf("staged %v; want %v", staged, refStaged)
	}
}

// The line a rename logs goes where the item keeps its notes (Backlog.md's
// Implementation Notes, before its end marker), as canon log writes it:
// it went into a Worklog section added at the end.
func TestRenameLogsInTheNotesSection(t *testing.T) {
	f := newFixture(t)
	f.write("items/N-1_a.md", "---\nid: N-1\ntitle: A\n---\n# A\n\n## Implementation Notes\n\n<!-- SECTION:NOTES:BEGIN -->\nfirst note\n<!-- SECTION:NOTES:END -->\n\n## Final Summary\n\nDone.\n")
	f.sync()
	p, err := planRename(context.Background(), f.env, IDRenameArgs{Old: "N-1", New: "N-2", Worklog: "renamed from N-1", Scope: idRepo{f}.Documents()})
	if err != nil {
		t.Fatal(err)
	}
	var got string
	for _, fc := range p.Files {
		if fc.From == "items/N-1_a.md" {
			got = string(fc.After)
		}
	}
	want := "first note\n\n2025-03-01 12:00 renamed from N-1\n<!-- SECTION:NOTES:END -->\n"
	if !strings.Contains(got, want) || strings.Contains(got, "Worklog") {
		t.Errorf("the renamed item reads\n%s\nwant the line in its Implementation Notes, before the end marker:\n%s", got, want)
	}
}
