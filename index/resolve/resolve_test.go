package resolve

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
)

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
			plan: "uid:backlog/task-1.2 | id:backlog/task-1.2 | path:backlog/task-1.2 | path:backlog/task-1.2/README.md | path:backlog/task-1.2 | path:backlog/task-1.2/README.md | stem:task-1.2", match: "task-1.2"},
		// A KEP's replaces: names another KEP's folder, whose page is its
		// README; a README.md by a path elsewhere is its folder's page, not
		// any README.
		{name: "kep folder ref", form: FormRef, raw: "/keps/sig-x/583-cosched", src: "keps/sig-y/1-a/README.md",
			plan: "uid:/keps/sig-x/583-cosched | id:/keps/sig-x/583-cosched | path:keps/sig-x/583-cosched | path:keps/sig-x/583-cosched/README.md | path:keps/sig-y/1-a/keps/sig-x/583-cosched | path:keps/sig-y/1-a/keps/sig-x/583-cosched/README.md | stem:583-cosched", match: "583-cosched"},
		{name: "folder page ref", form: FormRef, raw: "kubernetes/enhancements/keps/sig-node/375-cpumanager/README.md", src: "keps/sig-node/3570-c/README.md",
			plan: "uid:kubernetes/enhancements/keps/sig-node/375-cpumanager/readme.md | id:kubernetes/enhancements/keps/sig-node/375-cpumanager/readme.md | path:kubernetes/enhancements/keps/sig-node/375-cpumanager/README.md | path:keps/sig-node/3570-c/kubernetes/enhancements/keps/sig-node/375-cpumanager/README.md | dir:375-cpumanager", match: "375-cpumanager"},
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
			l := Link{Form: tt.form, Raw: tt.raw}
			l.Plan(tt.src, Planner{})
			if got := strings.Join(l.Terms, " | "); got != tt.plan || l.Match != tt.match || l.Status != tt.status {
				t.Errorf("plan = %q, match %q, status %q; want %q, %q, %q", got, l.Match, l.Status, tt.plan, tt.match, tt.status)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	mem := MemAliases{
		"id:kb-1":   {{ID: 1, UID: "aaa1"}, {ID: 2, UID: "bbb2"}},
		"id:kb-2":   {{ID: 3}},
		"stem:kb-2": {{ID: 4}},
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
		l := Link{Form: FormRef, Raw: tt.raw}
		l.Plan("x.md", Planner{})
		dst, status, err := l.Resolve(mem, nil, "x.md")
		if err != nil || dst != tt.dst || status != tt.status {
			t.Errorf("resolve(%q) = %d, %s, %v; want %d, %s", tt.raw, dst, status, err, tt.dst, tt.status)
		}
	}
}

// The candidates of an ambiguous link are the documents of the first term
// of its plan that names two or more, its uid prefix applied.
func TestCandidates(t *testing.T) {
	t.Parallel()
	mem := MemAliases{
		"id:kb-1":     {{ID: 1, UID: "aaa1", Path: "a/KB-1.md"}, {ID: 2, UID: "bbb2", Path: "b/KB-1.md"}},
		"id:kb-2":     {{ID: 3, Path: "KB-2.md"}},
		"stem:layout": {{ID: 4, Path: "a/layout.md"}, {ID: 5, Path: "b/layout.md"}, {ID: 6, Path: "c/Layout.md"}},
	}
	for _, tt := range []struct {
		form, raw, want string
	}{
		{FormRef, "KB-1", "a/KB-1.md b/KB-1.md"},
		{FormRef, "KB-1@a", ""}, // one left
		{FormRef, "KB-2", ""},
		{FormMD, "a/layout.md", ""}, // a path keeps the one file there
		{FormWiki, "layout", "a/layout.md b/layout.md c/Layout.md"},
	} {
		l := Link{Form: tt.form, Raw: tt.raw}
		l.Plan("x.md", Planner{})
		docs, err := l.Candidates(mem)
		var got []string
		for _, d := range docs {
			got = append(got, d.Path)
		}
		if err != nil || strings.Join(got, " ") != tt.want {
			t.Errorf("Candidates(%s %q) = %q, %v; want %q", tt.form, tt.raw, got, err, tt.want)
		}
	}
}

// A reference resolves inside its own document's namespace first, then in
// the whole repository: ambiguous only if more than one remains.
func TestResolveNamespaces(t *testing.T) {
	t.Parallel()
	ns := NamespacesOf(config.Namespaces{{Path: "products/*"}})
	mem := MemAliases{
		"id:adr-0004":  {{ID: 1, Path: "products/a/decisions/ADR-0004.md"}, {ID: 2, Path: "products/b/decisions/ADR-0004.md"}},
		"id:adr-0009":  {{ID: 3, Path: "products/a/decisions/ADR-0009.md"}, {ID: 4, Path: "products/a/old/ADR-0009.md"}},
		"id:kb-1":      {{ID: 5, Path: "products/a/items/KB-1.md"}, {ID: 6, Path: "products/b/items/KB-1.md"}},
		"id:only-in-b": {{ID: 7, Path: "products/b/items/x.md"}},
		"id:shared":    {{ID: 8, Path: "notes/shared.md"}, {ID: 9, Path: "products/b/shared.md"}},
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
		l := Link{Form: FormRef, Raw: tt.raw}
		l.Plan(tt.src, Planner{})
		dst, status, err := l.Resolve(mem, ns, tt.src)
		if err != nil || dst != tt.dst || status != tt.status {
			t.Errorf("%s: resolve(%q) = %d, %s, %v; want %d, %s", tt.src, tt.raw, dst, status, err, tt.dst, tt.status)
		}
	}
}

// Namespaces are id spaces: a wiki-link by file stem matching two files is
// ambiguous wherever it is written.
func TestResolveNamespacesStems(t *testing.T) {
	t.Parallel()
	ns := NamespacesOf(config.Namespaces{{Path: "products/*"}})
	mem := MemAliases{"stem:readme": {{ID: 1, Path: "README.md"}, {ID: 2, Path: "products/a/README.md"}}}
	l := Link{Form: FormWiki, Raw: "README"}
	l.Plan("products/a/items/t.md", Planner{})
	if _, status, _ := l.Resolve(mem, ns, "products/a/items/t.md"); status != StatusAmbiguous {
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
		if got := RecordName(p); got != want {
			t.Errorf("RecordName(%q) = %q, want %q", p, got, want)
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
		if got := FileNumber(p); got != want {
			t.Errorf("FileNumber(%q) = %q, want %q", p, got, want)
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

func TestFileID(t *testing.T) {
	for p, want := range map[string]string{
		"backlog/archive/tasks/task-35 - Old.md": "task-35",
		"docs/adr/adr-004-module-loading.md":     "adr-004",
		"notes/TASK-7.md":                        "task-7",
		"docs/0007-use-x.md":                     "",
		"notes/task-list.md":                     "",
		"backlog/tasks/KB-TSK-0002_left.md":      "",
	} {
		if got := FileID(p); got != want {
			t.Errorf("FileID(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestFolderPageNumber: a KEP's README is named by its folder's number,
// as a numbered file is (replaces: ["6090"], canon search 1287).
func TestFolderPageNumber(t *testing.T) {
	t.Parallel()
	d := Identity{Path: "keps/sig-node/1287-in-place-update/README.md", ID: "KEP-1287"}
	if terms := AliasTerms(d); !slices.Contains(terms, "num:1287") {
		t.Errorf("alias terms %v lack num:1287", terms)
	}
	if keys := MatchKeys(d); !slices.Contains(keys, "1287") {
		t.Errorf("match keys %v lack 1287", keys)
	}
	if terms := AliasTerms(Identity{Path: "keps/sig-node/README.md"}); slices.ContainsFunc(terms, func(s string) bool { return strings.HasPrefix(s, "num:") }) {
		t.Errorf("a folder without a number: %v", terms)
	}
}

// TestTitleWithSlashIsAName: a title with a slash names its document as
// any title does (it read as a path, and named nothing, issue 43), while
// a reference that reads as a path is still planned as a path and never
// by that title.
func TestTitleWithSlashIsAName(t *testing.T) {
	t.Parallel()
	if got := TitleKey("  Client/server   Split "); got != "client/server split" {
		t.Errorf("TitleKey = %q", got)
	}
	terms := AliasTerms(Identity{Path: "docs/0007-split.md", Title: "Client/server split"})
	if !slices.Contains(terms, "title:client/server split") {
		t.Errorf("alias terms %v lack the title", terms)
	}
	if keys := MatchKeys(Identity{Path: "docs/0007-split.md", Title: "Client/server split"}); !slices.Contains(keys, "client/server split") {
		t.Errorf("match keys %v lack the title", keys)
	}
	for _, raw := range []string{"Client/server split", "docs/client.md"} {
		l := Link{Form: FormRef, Raw: raw}
		l.Plan("a.md", Planner{})
		for _, term := range l.Terms {
			if strings.HasPrefix(term, "title:") {
				t.Errorf("the reference %q is planned by a title: %v", raw, l.Terms)
			}
		}
		if !slices.ContainsFunc(l.Terms, func(s string) bool { return strings.HasPrefix(s, "path:") }) {
			t.Errorf("the reference %q is not planned as a path: %v", raw, l.Terms)
		}
	}
}
