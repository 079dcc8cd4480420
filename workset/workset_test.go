package workset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/canon-md/canon/index/indextest"
	"github.com/canon-md/canon/index/indextest/must"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/scan"
)

var corpus = map[string]string{
	"items/a.md": "---\nid: A-1\ntitle: Alpha\n---\n# Alpha\nalpha words\n## Acceptance Criteria\n- [ ] first\n- [x] second\n",
	"items/b.md": "---\nid: B-1\ntitle: Beta\nparent: A-1\n---\n# Beta\nbeta words\n",
	"items/c.md": "---\nid: C-1\ntitle: Gamma\nparent: B-1\n---\n# Gamma\ngamma words\n",
	"items/d.md": "---\nid: D-1\ntitle: Delta\n---\n# Delta\ndelta words\n",
}

type fixture struct {
	t    *testing.T
	root string
	cfg  *config.Config
	st   *index.Store
	env  *Env
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{t: t, root: t.TempDir(), cfg: config.Default()}
	for rel, content := range corpus {
		f.write(rel, content)
	}
	st := indextest.Build(t, f.root, f.cfg)
	f.st = st
	f.env = &Env{Root: f.root, Index: st, Config: f.cfg, Head: "c1", Now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC), Who: "test"}
	return f
}

func (f *fixture) write(rel, content string) {
	p := filepath.Join(f.root, rel)
	must.OK(f.t, os.MkdirAll(filepath.Dir(p), 0o755))
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// sync reconciles the index with the files, as canon sync does.
func (f *fixture) sync() *index.Changes {
	ch, err := f.st.Reconcile(context.Background(), index.NewLoader(f.root, f.cfg), scan.NewScope(f.root, f.cfg, ""), nil)
	if err != nil {
		f.t.Fatal(err)
	}
	return ch
}

func TestWorksetLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	e := f.env
	info, err := Create(ctx, e, "alpha", CreateOptions{Spec: Spec{Seeds: []string{"A-1"}}, Agent: "me"})
	if err != nil {
		t.Fatal(err)
	}
	if info.Docs != 2 || strings.Join(info.Seeds, ",") != "A-1" || info.Stale || info.TTL != "72h" {
		t.Fatalf("created %+v", info)
	}
	dir := filepath.Join(f.root, ".cache", "worksets", "alpha")
	for _, name := range []string{DBFile, PlanFile, NotesFile, DeliverableFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(f.root, ".cache", "worksets", ".gitignore")); !strings.Contains(string(data), "\n*\n") {
		t.Fatalf(".gitignore = %q", data)
	}
	plan, _ := os.ReadFile(filepath.Join(dir, PlanFile))
	if !strings.Contains(string(plan), "## A-1: Alpha\n\n- [ ] first\n- [x] second\n") {
		t.Fatalf("plan.md:\n%s", plan)
	}
	if _, err := Create(ctx, e, "alpha", CreateOptions{Spec: Spec{Seeds: []string{"A-1"}}}); !errors.Is(err, ErrExists) {
		t.Fatalf("second create: %v", err)
	}
	if _, err := Create(ctx, e, "../x", CreateOptions{Spec: Spec{Seeds: []string{"A-1"}}}); !errors.Is(err, ErrBadName) {
		t.Fatalf("hostile name: %v", err)
	}
	if _, err := Create(ctx, e, "nothing", CreateOptions{Spec: Spec{Query: "zzzqqq"}}); !errors.Is(err, ErrEmpty) {
		t.Fatalf("empty selection: %v", err)
	}

	// A change to a non-member leaves it fresh.
	f.write("items/d.md", "---\nid: D-1\ntitle: Delta 2\n---\n# Delta\n")
	ch := f.sync()
	marked, err := Invalidate(ctx, f.root, f.st, Sync{Action: SyncDiff, From: "c1", To: "c2", Changes: ch, Who: "test"})
	if err != nil || len(marked) != 0 {
		t.Fatalf("non-member change marked %+v, %v", marked, err)
	}
	// A change to a member makes it stale, with the reason.
	f.write("items/b.md", "---\nid: B-1\ntitle: Beta 2\nparent: A-1\n---\n# Beta\n")
	ch = f.sync()
	marked, err = Invalidate(ctx, f.root, f.st, Sync{Action: SyncDiff, From: "c2", To: "c3", Changes: ch, Who: "test"})
	if err != nil || len(marked) != 1 || len(marked[0].Reasons) != 1 {
		t.Fatalf("member change marked %+v, %v", marked, err)
	}
	if got := marked[0].Reasons[0].String(); got != "B-1 modified in commit c3" {
		t.Fatalf("reason = %q", got)
	}
	got, err := Get(ctx, e, "alpha")
	if err != nil || !got.Stale || len(got.StaleReasons) != 1 {
		t.Fatalf("after invalidation %+v, %v", got, err)
	}

	// Notes with a finding; refresh keeps them and clears the staleness.
	notes := filepath.Join(dir, NotesFile)
	data, _ := os.ReadFile(notes)
	must.OK(t, os.WriteFile(notes, append(data, []byte("- [B-1] beta needs a rename\n")...), 0o644))
	res, err := Refresh(ctx, e, "alpha")
	if err != nil || res.Stale || len(res.WasStale) != 1 || res.Unpromoted != 1 || !res.PlanRewritten {
		t.Fatalf("refresh = %+v, %v", res, err)
	}
	if after, _ := os.ReadFile(notes); !strings.HasSuffix(string(after), "- [B-1] beta needs a rename\n") {
		t.Fatal("refresh lost the notes")
	}

	// A change no sync reported is caught when the workset is read.
	f.write("items/a.md", "---\nid: A-1\ntitle: Alpha 2\n---\n# Alpha\n")
	f.sync()
	got, err = Get(ctx, e, "alpha")
	if err != nil || !got.Stale || got.StaleReasons[0].Sync != SyncCheck || got.StaleReasons[0].How != HowModified {
		t.Fatalf("drift not caught: %+v, %v", got, err)
	}

	// gc: not expired yet; expired but unpromoted; promoted; forced.
	gc := func(now time.Time, force bool) *GCResult {
		t.Helper()
		e.Now = now
		r, err := GC(ctx, e, GCOptions{Force: force})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := gc(e.Now.Add(time.Hour), false); r.Live != 1 || len(r.Removed) != 0 {
		t.Fatalf("gc before expiry: %+v", r)
	}
	later := e.Now.Add(100 * time.Hour)
	if r := gc(later, false); len(r.Kept) != 1 || r.Kept[0].Unpromoted != 1 {
		t.Fatalf("gc with unpromoted findings: %+v", r)
	}
	if _, err := Remove(ctx, e, "alpha", false); !errors.Is(err, ErrUnpromoted) {
		t.Fatalf("rm with unpromoted findings: %v", err)
	}
	fs, err := Findings(ctx, f.root, "alpha")
	if err != nil || len(fs) != 1 || fs[0].Promoted {
		t.Fatalf("findings = %+v, %v", fs, err)
	}
	if err := RecordPromoted(ctx, f.root, "alpha", []Promotion{{Finding: fs[0].Finding, DestKey: "B-1", DestPath: "items/b.md", At: later}}); err != nil {
		t.Fatal(err)
	}
	// Recorded, but the text is not in items/b.md (git reset --hard threw
	// the promoted line away): still unpromoted, so gc keeps the notes.
	if r := gc(later, false); len(r.Kept) != 1 || r.Kept[0].Unpromoted != 1 {
		t.Fatalf("gc after a promotion whose text is gone: %+v", r)
	}
	b, err := os.ReadFile(filepath.Join(f.root, "items", "b.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.root, "items", "b.md"), append(b, "\n- 2025-03-01 "+fs[0].Text+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := gc(later, false); len(r.Removed) != 1 || len(r.Kept) != 0 {
		t.Fatalf("gc after promotion: %+v", r)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the folder is still there: %v", err)
	}
}

func TestInvalidateWithoutWorksets(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	marked, err := Invalidate(context.Background(), root, nil, Sync{Action: SyncDiff, Changes: &index.Changes{Keys: []string{"A-1"}}})
	if err != nil || marked != nil {
		t.Fatalf("Invalidate = %+v, %v", marked, err)
	}
}

// members.keys spares a sync the database of a workset it cannot affect;
// without the file, the database answers.
func TestInvalidateKeysFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	if _, err := Create(ctx, f.env, "alpha", CreateOptions{Spec: Spec{Seeds: []string{"A-1"}}}); err != nil {
		t.Fatal(err)
	}
	keysPath := filepath.Join(f.root, ".cache", "worksets", "alpha", KeysFile)
	data, err := os.ReadFile(keysPath)
	if err != nil || string(data) != "A-1\nB-1\n" {
		t.Fatalf("%s = %q, %v", KeysFile, data, err)
	}
	os.Remove(keysPath)
	f.write("items/b.md", "---\nid: B-1\ntitle: Beta 3\nparent: A-1\n---\n# Beta\n")
	marked, err := Invalidate(ctx, f.root, f.st, Sync{Action: SyncReconcile, To: "c2", Changes: f.sync()})
	if err != nil || len(marked) != 1 || marked[0].Reasons[0].String() != "B-1 modified in the working tree (HEAD c2)" {
		t.Fatalf("without %s: %+v, %v", KeysFile, marked, err)
	}
	// Refresh writes it again.
	if _, err := Refresh(ctx, f.env, "alpha"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(keysPath); string(data) != "A-1\nB-1\n" {
		t.Fatalf("after refresh %s = %q", KeysFile, data)
	}
}
