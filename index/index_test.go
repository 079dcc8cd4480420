package index

import (
	"context"
	"fmt"
	"github.com/canon-md/canon/index/indextest/must"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
)

func TestFTSQuery(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want, err string }{
		{in: "token refresh", want: `"token" "refresh"`},
		{in: `"token refresh" login`, want: `"token refresh" "login"`},
		{in: "refre*", want: `"refre"*`},
		{in: "a OR b", want: `"a" OR "b"`},
		{in: "OR b", want: `"b"`},
		{in: "unsafe AND NOT trait", want: `"unsafe" NOT "trait"`},
		{in: "a NOT AND b", want: `"a" NOT "b"`},
		{in: "a AND OR b", want: `"a" OR "b"`},
		{in: "a AND b", want: `"a" AND "b"`},
		{in: "NOT trait", want: `"trait"`},
		{in: "a OR", want: `"a"`},
		{in: "a OR *** b", want: `"a" OR "b"`},
		{in: "NOT", want: `"not"`},
		{in: "OR OR", want: `"or" "or"`},
		{in: `"`, err: "no words"},
		{in: "KB-TSK-0042", want: `"KB TSK 0042"`},
		{in: `title:foo (bar) "unclosed`, want: `"title foo" "bar" "unclosed"`},
		{in: "Ärger café", want: `"Ärger" "café"`},
		{in: "*** ---", err: "no words"},
		{in: "", err: "no words"},
		{in: strings.Repeat("w ", 64), want: strings.TrimSuffix(strings.Repeat(`"w" `, 64), " ")},
		{in: strings.Repeat("w ", 65), err: "the query has 65 words; at most 64 are searched"},
		{in: strings.Repeat("KB-1 ", 33), err: "the query has 66 words"},
		{in: `"` + strings.Repeat("w ", 65) + `"`, err: "the query has 65 words"},
		{in: strings.Repeat("OR ", 100), err: "the query has 100 words"},
		{in: strings.Repeat(" ", 4097), err: "the query is 4097 bytes; a query is at most 4096 bytes"},
	}
	for _, tt := range tests {
		got, err := FTSQuery(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("FTSQuery(%q) err = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("FTSQuery(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestJoinRepo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		base, target, want string
		ok                 bool
	}{
		{"items/task", "../bug/b.md", "items/bug/b.md", true},
		{"items", "./a.md", "items/a.md", true},
		{"", "/docs/x.md", "docs/x.md", true},
		{"items", "../../x.md", outOfRepo, false},
		{"", "..", outOfRepo, false},
		{"a/b", "../../c.md", "c.md", true},
		{"", "../../wiki", onGitHub, false},
		{"docs", "../../../issues/12", onGitHub, false},
		{"", "../../x.md", outOfRepo, false}, // /OWNER/REPO/x.md: no such page
		{"", "../../../other-repo", onGitHub, false},
		{"", "../../../../", onGitHub, false},
		{"", "./../../releases/latest", onGitHub, false},
		{"", "/", repoRoot, false},
		{"docs", "..", repoRoot, false},
		{"", "docs/..", repoRoot, false},
		{"", "/..", outOfRepo, false},
	}
	for _, tt := range tests {
		got, ok := joinRepo(tt.base, tt.target)
		if got != tt.want || ok != tt.ok {
			t.Errorf("joinRepo(%q, %q) = %q, %v; want %q, %v", tt.base, tt.target, got, ok, tt.want, tt.ok)
		}
	}
}

func TestPlan(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, form, raw, src string
		plan                 string // terms joined by " | "
		match, status        string
	}{
		{name: "id ref", form: FormRef, raw: "KB-TSK-0042", src: "items/a.md",
			plan: "uid:kb-tsk-0042 | id:kb-tsk-0042 | stem:kb-tsk-0042 | num:kb-tsk-0042 | was:kb-tsk-0042", match: "kb-tsk-0042"},
		{name: "uid prefix", form: FormRef, raw: "KB-TSK-0042@019A", src: "a.md", plan: "id:kb-tsk-0042", match: "kb-tsk-0042"},
		{name: "path ref with backslashes", form: FormRef, raw: `..\bug\B-1_x.md`, src: "items/task/a.md",
			plan: "uid:../bug/b-1_x.md | id:../bug/b-1_x.md | path:items/bug/B-1_x.md | stem:b-1_x", match: "b-1_x"},
		{name: "wiki in frontmatter", form: FormRef, raw: "[[ADR-0002_keys|the ADR]]", src: "a.md",
			plan: "stem:adr-0002_keys | id:adr-0002_keys", match: "adr-0002_keys"},
		{name: "url ref", form: FormRef, raw: "https://example.com/x", src: "a.md", status: StatusExternal},
		{name: "number ref", form: FormRef, raw: "0097", src: "docs/adr/a.md",
			plan: "uid:0097 | id:0097 | stem:0097 | num:0097 | was:0097", match: "0097"},
		{name: "versioned number ref", form: FormRef, raw: "0013.1", src: "a.md",
			plan: "uid:0013.1 | id:0013.1 | stem:0013.1 | num:0013.1 | was:0013.1", match: "0013.1"},
		{name: "folder ref", form: FormRef, raw: "../references/", src: "docs/a.md", status: StatusFile},
		{name: "file ref", form: FormRef, raw: "../reports/run.json", src: "docs/a.md", status: StatusFile},
		{name: "dotted name ref", form: FormRef, raw: "backlog/task-1.2", src: "a.md",
			plan: "uid:backlog/task-1.2 | id:backlog/task-1.2 | path:backlog/task-1.2 | path:backlog/task-1.2 | stem:task-1.2", match: "task-1.2"},
		{name: "record name ref", form: FormRef, raw: "ADR-004", src: "a.md",
			plan: "uid:adr-004 | id:adr-004 | stem:adr-004 | num:adr-004 | was:adr-004", match: "adr-004"},
		{name: "versioned id ref", form: FormRef, raw: "ADR-0013.1", src: "a.md",
			plan: "uid:adr-0013.1 | id:adr-0013.1 | stem:adr-0013.1 | num:adr-0013.1 | was:adr-0013.1", match: "adr-0013.1"},
		{name: "old prefix ref", form: FormRef, raw: "task-355.01", src: "a.md",
			plan: "uid:task-355.01 | id:task-355.01 | stem:task-355.01 | num:task-355.01 | was:task-355.01", match: "task-355.01"},
		{name: "md relative", form: FormMD, raw: "../b.md", src: "items/t/a.md", plan: "path:items/b.md", match: "b"},
		{name: "md escaped space", form: FormMD, raw: "my%20note.md", src: "a.md", plan: "path:my note.md", match: "my note"},
		{name: "md root", form: FormMD, raw: "/docs/x.md", src: "items/a.md", plan: "path:docs/x.md", match: "x"},
		{name: "md image", form: FormImage, raw: "img/a.png", src: "a.md", status: StatusFile},
		{name: "md folder", form: FormMD, raw: "../items/", src: "docs/a.md", plan: "pathnoext:items/readme | pathnoext:items/index", match: "readme"},
		{name: "md folder without slash", form: FormMD, raw: "../Items", src: "docs/a.md", plan: "pathnoext:items/readme | pathnoext:items/index", match: "items"},
		{name: "md folder with slash", form: FormMD, raw: "../Items/", src: "docs/a.md", plan: "pathnoext:items/readme | pathnoext:items/index", match: "readme"},
		{name: "md own folder from its readme", form: FormMD, raw: "./", src: "docs/README.md", status: StatusSelf},
		{name: "md query only", form: FormMD, raw: "?plain=1", src: "docs/guide.md", status: StatusSelf},
		{name: "md dotted folder", form: FormMD, raw: ".github/", src: "a.md", plan: "pathnoext:.github/readme | pathnoext:.github/index", match: "readme"},
		{name: "md versioned folder", form: FormMD, raw: "v2.0/", src: "a.md", plan: "pathnoext:v2.0/readme | pathnoext:v2.0/index", match: "readme"},
		{name: "md versioned file", form: FormMD, raw: "v2.0", src: "a.md", status: StatusFile},
		{name: "md own folder from its index", form: FormMD, raw: ".", src: "docs/index.md", status: StatusSelf},
		{name: "image of a folder", form: FormImage, raw: "../items/", src: "docs/a.md", status: StatusFile},
		{name: "md leaves repo", form: FormMD, raw: "../../x.md", src: "a.md", status: StatusDangling},
		{name: "md one above the root", form: FormMD, raw: "../x.md", src: "a.md", status: StatusDangling},
		{name: "md GitHub wiki", form: FormMD, raw: "../../wiki", src: "README.md", status: StatusExternal},
		{name: "md GitHub issues from a folder", form: FormMD, raw: "../../../issues/new", src: "docs/a.md", status: StatusExternal},
		{name: "md another repository", form: FormMD, raw: "../../../other/blob/main/x.md", src: "a.md", status: StatusExternal},
		{name: "md root folder", form: FormMD, raw: "/", src: "docs/a.md", plan: "pathnoext:readme | pathnoext:index", match: "readme"},
		{name: "md root folder from below", form: FormMD, raw: "docs/..", src: "a.md", plan: "pathnoext:readme | pathnoext:index", match: "readme"},
		{name: "md to itself", form: FormMD, raw: "a.md", src: "a.md", status: StatusSelf},
		{name: "md same file", form: FormMD, raw: "", src: "a.md", status: StatusSelf},
		{name: "md mailto", form: FormMD, raw: "mailto:x@y.z", src: "a.md", status: StatusExternal},
		{name: "wiki stem", form: FormWiki, raw: "Some Note", src: "a.md", plan: "stem:some note | id:some note", match: "some note"},
		{name: "wiki path", form: FormWiki, raw: "docs/Some Note", src: "x/a.md",
			plan: "pathnoext:docs/some note | pathnoext:x/docs/some note | stem:some note | id:docs/some note", match: "some note"},
		{name: "wiki version-like stem", form: FormWiki, raw: "release-1.2", src: "a.md", plan: "stem:release-1.2 | id:release-1.2", match: "release-1.2"},
		{name: "embed image", form: FormEmbed, raw: "diagram.png", src: "a.md", status: StatusFile},
		{name: "autolink", form: FormURL, raw: "https://x.y", src: "a.md", status: StatusExternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := link{form: tt.form, raw: tt.raw}
			plan(&l, tt.src, planner{})
			if got := strings.Join(l.plan, " | "); got != tt.plan || l.match != tt.match || l.status != tt.status {
				t.Errorf("plan = %q, match %q, status %q; want %q, %q, %q", got, l.match, l.status, tt.plan, tt.match, tt.status)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	mem := memAliases{
		"id:kb-1":   {{id: 1, uid: "aaa1"}, {id: 2, uid: "bbb2"}},
		"id:kb-2":   {{id: 3}},
		"stem:kb-2": {{id: 4}},
	}
	tests := []struct {
		raw    string
		dst    int64
		status string
	}{
		{"KB-2", 3, StatusOK}, // an id beats a file stem
		{"KB-1", 0, StatusAmbiguous},
		{"KB-1@bbb", 2, StatusOK},
		{"KB-1@ccc", 0, StatusDangling},
		{"KB-9", 0, StatusDangling},
	}
	for _, tt := range tests {
		l := link{form: FormRef, raw: tt.raw}
		plan(&l, "x.md", planner{})
		dst, status, err := resolve(&l, mem, nil, "x.md")
		if err != nil || dst != tt.dst || status != tt.status {
			t.Errorf("resolve(%q) = %d, %s, %v; want %d, %s", tt.raw, dst, status, err, tt.dst, tt.status)
		}
	}
}

// TestIncrementalEqualsRebuild applies random edits to a tree one batch at a
// time through Reconcile and checks after each that the index dumps exactly
// like a fresh build of the same tree: ids colliding and parting, targets
// appearing and vanishing, renames, skipped files; once with one
// transaction per walk and once (slice 1) with one per changed file.
func TestIncrementalEqualsRebuild(t *testing.T) {
	t.Parallel()
	for _, slice := range []int{DefaultSliceFiles, 1} {
		t.Run(fmt.Sprint("slice ", slice), func(t *testing.T) {
			t.Parallel()
			incrementalEqualsRebuild(t, slice)
		})
	}
}

func incrementalEqualsRebuild(t *testing.T, slice int) {
	ctx := context.Background()
	root := t.TempDir()
	cfg := config.Default()
	rng := rand.New(rand.NewSource(7))
	ids := []string{"A-1", "A-2", "A-3", "B-1", "B-2"}
	names := []string{"x/a.md", "x/b.md", "y/c.md", "y/d.md", "z/e.md", "z/f.md", "notes/g.md", "notes/h.md"}
	// identity is the id and uid lines a document is written with; an
	// edit that keeps them is an update in place (inplace.go).
	identity := func() string {
		var b strings.Builder
		if rng.Intn(5) > 0 {
			fmt.Fprintf(&b, "id: %s\n", ids[rng.Intn(len(ids))])
		}
		if rng.Intn(3) == 0 {
			fmt.Fprintf(&b, "uid: u%d\n", rng.Intn(4))
		}
		return b.String()
	}
	identityOf := func(content string) string {
		var b strings.Builder
		for _, line := range strings.Split(content, "\n") {
			if strings.HasPrefix(line, "id: ") || strings.HasPrefix(line, "uid: ") {
				b.WriteString(line + "\n")
			}
		}
		return b.String()
	}
	randomDocAs := func(ident string) string {
		var b strings.Builder
		b.WriteString("---\n")
		b.WriteString(ident)
		fmt.Fprintf(&b, "title: T%d\n", rng.Intn(100))
		if rng.Intn(2) == 0 {
			fmt.Fprintf(&b, "parent: %s\n", ids[rng.Intn(len(ids))])
		}
		if rng.Intn(3) == 0 {
			fmt.Fprintf(&b, "links:\n  blocks: [%s@u%d]\n", ids[rng.Intn(len(ids))], rng.Intn(4))
		}
		if rng.Intn(8) == 0 {
			b.WriteString("bad: [unclosed\n")
		}
		b.WriteString("---\n# Heading\n")
		fmt.Fprintf(&b, "See [[%s]] and [x](../%s).\n", strings.TrimSuffix(filepath.Base(names[rng.Intn(len(names))]), ".md"),
			names[rng.Intn(len(names))])
		fmt.Fprintf(&b, "## Part %d\nwords %d\n", rng.Intn(3), rng.Intn(1000))
		for i := rng.Intn(3); i > 0; i-- {
			fmt.Fprintf(&b, "\n## Log %d\n- entry %d, see [[%s]]\n", i, rng.Intn(100), ids[rng.Intn(len(ids))])
		}
		return b.String()
	}
	randomDoc := func() string { return randomDocAs(identity()) }
	write := func(rel, content string) {
		p := filepath.Join(root, rel)
		must.OK(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range names[:5] {
		write(n, randomDoc())
	}
	live, _, err := Open(filepath.Join(t.TempDir(), "live.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	live.SliceFiles = slice
	ld := NewLoader(root, cfg)
	if _, err := live.Rebuild(ctx, ld, mustWalk(t, root, cfg), nil, nil); err != nil {
		t.Fatal(err)
	}
	for step := 0; step < 60; step++ {
		for k := rng.Intn(3) + 1; k > 0; k-- {
			n := names[rng.Intn(len(names))]
			p := filepath.Join(root, n)
			switch op := rng.Intn(13); {
			case op < 5:
				write(n, randomDoc())
			case op >= 10:
				if data, err := os.ReadFile(p); err == nil {
					write(n, randomDocAs(identityOf(string(data))))
				}
			case op < 7:
				os.Remove(p)
			case op < 9:
				if data, err := os.ReadFile(p); err == nil {
					to := names[rng.Intn(len(names))]
					os.Remove(p)
					write(to, string(data))
				}
			default:
				write(n, "binary\x00data")
			}
		}
		if _, err := live.Reconcile(ctx, ld, NewScope(root, cfg, ""), nil); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if diff := diffFromRebuild(t, live, ld, root, cfg); len(diff) > 0 {
			t.Fatalf("step %d: incremental index differs from a rebuild:\n%s", step, strings.Join(diff, "\n"))
		}
	}
}

// diffFromRebuild builds a fresh index of root and lists how live differs
// from it (DiffDumps lines; none when equal).
func diffFromRebuild(t *testing.T, live *Store, ld *Loader, root string, cfg *config.Config) []string {
	t.Helper()
	ctx := context.Background()
	fresh, _, err := Open(filepath.Join(t.TempDir(), "fresh.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if _, err := fresh.Rebuild(ctx, ld, mustWalk(t, root, cfg), nil, nil); err != nil {
		t.Fatal(err)
	}
	got, err := live.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := fresh.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return DiffDumps(got, want)
}

func mustWalk(t *testing.T, root string, cfg *config.Config) []FileInfo {
	t.Helper()
	files, err := NewScope(root, cfg, "").Walk()
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestSpilledBuildEqualsInMemory builds the same tree twice, once holding
// every link in memory and once spilling them after three, and compares.
func TestSpilledBuildEqualsInMemory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := config.Default()
	root, err := filepath.Abs("../testdata/example")
	if err != nil {
		t.Fatal(err)
	}
	dump := func(spill int) []string {
		st, _, err := Open(filepath.Join(t.TempDir(), "i.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		st.spillAt = spill
		if _, err := st.Rebuild(ctx, NewLoader(root, cfg), mustWalk(t, root, cfg), nil, nil); err != nil {
			t.Fatal(err)
		}
		d, err := st.Dump(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a, b := dump(1<<30), dump(3)
	if diff := DiffDumps(a, b); len(diff) > 0 || len(a) < 500 {
		t.Fatalf("%d rows; spilled build differs:\n%s", len(a), strings.Join(diff, "\n"))
	}
}

// A reference resolves inside its own document's namespace first, then in
// the whole repository: ambiguous only if more than one remains.
func TestResolveNamespaces(t *testing.T) {
	t.Parallel()
	ns := namespacesOf(config.Namespaces{{Path: "products/*"}})
	mem := memAliases{
		"id:adr-0004":  {{id: 1, path: "products/a/decisions/ADR-0004.md"}, {id: 2, path: "products/b/decisions/ADR-0004.md"}},
		"id:adr-0009":  {{id: 3, path: "products/a/decisions/ADR-0009.md"}, {id: 4, path: "products/a/old/ADR-0009.md"}},
		"id:kb-1":      {{id: 5, path: "products/a/items/KB-1.md"}, {id: 6, path: "products/b/items/KB-1.md"}},
		"id:only-in-b": {{id: 7, path: "products/b/items/x.md"}},
		"id:shared":    {{id: 8, path: "notes/shared.md"}, {id: 9, path: "products/b/shared.md"}},
	}
	tests := []struct {
		src, raw string
		dst      int64
		status   string
	}{
		{"products/a/items/t.md", "ADR-0004", 1, StatusOK},
		{"products/b/items/t.md", "ADR-0004", 2, StatusOK},
		{"notes/n.md", "ADR-0004", 0, StatusAmbiguous},            // in neither: two remain
		{"products/a/items/t.md", "ADR-0009", 0, StatusAmbiguous}, // two in its own
		{"products/a/items/t.md", "ONLY-IN-B", 7, StatusOK},       // none in its own, one elsewhere
		{"products/a/items/t.md", "SHARED", 0, StatusAmbiguous},   // none in its own, two elsewhere
		{"notes/n.md", "SHARED", 8, StatusOK},                     // the root is a namespace too
	}
	for _, tt := range tests {
		l := link{form: FormRef, raw: tt.raw}
		plan(&l, tt.src, planner{})
		dst, status, err := resolve(&l, mem, ns, tt.src)
		if err != nil || dst != tt.dst || status != tt.status {
			t.Errorf("%s: resolve(%q) = %d, %s, %v; want %d, %s", tt.src, tt.raw, dst, status, err, tt.dst, tt.status)
		}
	}
}

// Namespaces are id spaces: a wiki-link by file stem matching two files is
// ambiguous wherever it is written.
func TestResolveNamespacesStems(t *testing.T) {
	t.Parallel()
	ns := namespacesOf(config.Namespaces{{Path: "products/*"}})
	mem := memAliases{"stem:readme": {{id: 1, path: "README.md"}, {id: 2, path: "products/a/README.md"}}}
	l := link{form: FormWiki, raw: "README"}
	plan(&l, "products/a/items/t.md", planner{})
	if _, status, _ := resolve(&l, mem, ns, "products/a/items/t.md"); status != StatusAmbiguous {
		t.Fatalf("[[README]] is %s, want ambiguous", status)
	}
}

func TestRecordName(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{
		"adr-004-module-loading.md": "adr-004", "ADR-0004_tokens.md": "adr-0004", "adr-0013.1-amend.md": "adr-0013.1",
		"docs/ADR_12 x.md": "", "adr0007.md": "", // no reference names them so: PrefixNumber wants a dash
		"adr-x.md": "", "0004-use-x.md": "", "notes/adresses.md": "",
		"ADR-0003-appendix_x.md": "", // a companion, not a record
	} {
		if got := recordName(p); got != want {
			t.Errorf("recordName(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestHeadName(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{
		"backlog/archive/tasks/task-97 - Fix-missing-edges.md": "task-97", "back-12.1 - Sub.md": "back-12.1",
		"task-97-fix.md": "", "Notes - June.md": "", "task-x - y.md": "",
	} {
		if got := headName(p); got != want {
			t.Errorf("headName(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestFileNumber(t *testing.T) {
	for p, want := range map[string]string{
		"docs/adr/0097-storage.md": "0097", "0013.1-bridge.md": "0013.1", "2000-const-generics.md": "2000",
		"003_x.md": "003", "0097.md": "", "v2-plan.md": "", "0097.-x.md": "", ".5-x.md": "", "12abc-x.md": "", "0..1-x.md": "",
	} {
		if got := fileNumber(p); got != want {
			t.Errorf("fileNumber(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestOldPrefixIDs(t *testing.T) {
	t.Parallel()
	m := map[string]string{"task": "back", "bug": "issue"}
	for ref, want := range map[string][]string{
		"task-4":  {"back-4"},
		"TASK-4":  {"back-4"},
		"4":       {"back-4", "issue-4"},
		"draft-4": nil,
		"task-x":  nil,
		"355.01":  {"back-355.01", "issue-355.01"},
	} {
		if got := OldPrefixIDs(ref, m, nil); !reflect.DeepEqual(got, want) {
			t.Errorf("OldPrefixIDs(%q) = %q, want %q", ref, got, want)
		}
	}
	if got := OldPrefixIDs("task-4", nil, nil); got != nil {
		t.Errorf("no prefixes: %q", got)
	}
	// bare_numbers: a bare number names the prefix's document, a prefixed one does not
	if got := OldPrefixIDs("2718", nil, []string{"eip"}); !reflect.DeepEqual(got, []string{"eip-2718"}) {
		t.Errorf("bare numbers: %q", got)
	}
	if got := OldPrefixIDs("erc-20", nil, []string{"eip"}); got != nil {
		t.Errorf("bare numbers name no prefixed reference: %q", got)
	}
}
