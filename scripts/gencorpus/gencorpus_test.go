package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readTree returns every file under root by slash-separated relative path, skipping .git.
func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func gen(t *testing.T, dir string, args ...string) string {
	t.Helper()
	var stderr bytes.Buffer
	if err := run(append([]string{"-out", dir}, args...), &stderr); err != nil {
		t.Fatalf("gencorpus %v: %v\n%s", args, err, stderr.String())
	}
	return stderr.String()
}

func TestSameSeedSameBytes(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	a, b, c := filepath.Join(tmp, "a"), filepath.Join(tmp, "b"), filepath.Join(tmp, "c")
	out := gen(t, a, "-n", "200", "-adrs", "10", "-seed", "1")
	gen(t, b, "-n", "200", "-adrs", "10", "-seed", "1")
	gen(t, c, "-n", "200", "-adrs", "10", "-seed", "2")

	if !regexp.MustCompile(`^gencorpus: 210 files \(200 items, 10 ADRs\), [0-9.]+ MB in .*, [0-9.]+s\n$`).MatchString(out) {
		t.Errorf("summary line = %q", out)
	}
	fa, fb, fc := readTree(t, a), readTree(t, b), readTree(t, c)
	if len(fa) != 210 {
		t.Fatalf("got %d files, want 210", len(fa))
	}
	for p, data := range fa {
		if !bytes.Equal(data, fb[p]) {
			t.Errorf("%s differs between two runs with the same seed", p)
		}
	}
	if len(fb) != len(fa) {
		t.Errorf("second run wrote %d files, first %d", len(fb), len(fa))
	}
	same := 0
	for p, data := range fa {
		if bytes.Equal(data, fc[p]) {
			same++
		}
	}
	if same > 0 {
		t.Errorf("%d files identical between seeds 1 and 2", same)
	}
}

// doc is what the consistency test needs from a generated file.
type doc struct {
	path string
	fm   map[string][]string // "parent", "links.blocks", ... → values
	body string
}

// parseDoc reads the frontmatter subset gencorpus writes: scalars, one nested mapping level,
// flow lists and block lists.
func parseDoc(t *testing.T, p string, data []byte) doc {
	t.Helper()
	s := string(data)
	if !strings.HasPrefix(s, "---\n") {
		t.Fatalf("%s: no frontmatter", p)
	}
	end := strings.Index(s[4:], "\n---\n")
	if end < 0 {
		t.Fatalf("%s: unterminated frontmatter", p)
	}
	d := doc{path: p, fm: map[string][]string{}, body: s[4+end+5:]}
	var parent, last string
	for _, line := range strings.Split(s[4:4+end], "\n") {
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if strings.HasPrefix(trimmed, "- ") {
			d.fm[last] = append(d.fm[last], strings.TrimPrefix(trimmed, "- "))
			continue
		}
		k, v, ok := strings.Cut(trimmed, ":")
		if !ok {
			t.Fatalf("%s: cannot read frontmatter line %q", p, line)
		}
		v = strings.TrimSpace(v)
		if indent == 0 {
			parent = k
		} else {
			k = parent + "." + k
		}
		last = k
		switch {
		case v == "" || v == "[]" || v == "null":
			d.fm[k] = nil
		case strings.HasPrefix(v, "["):
			d.fm[k] = strings.Split(strings.Trim(v, "[]"), ", ")
		default:
			d.fm[k] = []string{strings.Trim(v, `'"`)}
		}
	}
	return d
}

var (
	mdLinkRE   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	wikiLinkRE = regexp.MustCompile(`\[\[([^\]|#]+)(?:#([^\]|]+))?(?:\|[^\]]+)?\]\]`)
	headingRE  = regexp.MustCompile(`(?m)^# (.+)$`)
	uidRE      = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
)

func githubSlug(h string) string {
	h = strings.ToLower(h)
	var b strings.Builder
	for _, c := range h {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
			b.WriteRune(c)
		case c == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// TestCorpusIsConsistent checks that the generated corpus has no defects: every parent and
// reference resolves, parent kinds follow the hierarchy, blocks and blocked_by are mirrored,
// every body link reaches an existing file and heading.
func TestCorpusIsConsistent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gen(t, dir, "-n", "200", "-adrs", "10", "-seed", "7")
	files := readTree(t, dir)

	docs := map[string]doc{}  // by path
	byID := map[string]doc{}  // by id
	stems := map[string]doc{} // by file stem
	uids := map[string]string{}
	for p, data := range files {
		d := parseDoc(t, p, data)
		docs[p] = d
		id := d.fm["id"][0]
		if prev, dup := byID[id]; dup {
			t.Errorf("id %s in %s and %s", id, prev.path, p)
		}
		byID[id] = d
		stems[strings.TrimSuffix(path.Base(p), ".md")] = d
		if u := d.fm["uid"]; u != nil {
			if !uidRE.MatchString(u[0]) {
				t.Errorf("%s: uid %q is not UUIDv7-shaped", p, u[0])
			}
			if prev, dup := uids[u[0]]; dup {
				t.Errorf("uid %s in %s and %s", u[0], prev, p)
			}
			uids[u[0]] = p
		}
	}

	parentType := map[string]string{"Feature": "Epic", "UserStory": "Feature", "Task": "UserStory", "Bug": "UserStory"}
	resolve := func(d doc, field, ref string) (doc, bool) {
		t.Helper()
		target, ok := byID[ref]
		if !ok {
			t.Errorf("%s: %s %q does not resolve", d.path, field, ref)
		}
		return target, ok
	}
	for _, d := range docs {
		if typ := d.fm["type"]; typ != nil {
			want, hasParent := parentType[typ[0]]
			switch ps := d.fm["parent"]; {
			case !hasParent && ps != nil:
				t.Errorf("%s: %s has parent %v", d.path, typ[0], ps)
			case hasParent && len(ps) != 1:
				t.Errorf("%s: %s has parent %v, want one", d.path, typ[0], ps)
			case hasParent:
				if parent, ok := resolve(d, "parent", ps[0]); ok && parent.fm["type"][0] != want {
					t.Errorf("%s: parent %s is a %s, want %s", d.path, ps[0], parent.fm["type"][0], want)
				}
			}
		}
		for _, field := range []string{"links.relates", "links.blocks", "links.blocked_by", "decisions", "related_items", "supersedes"} {
			for _, ref := range d.fm[field] {
				target, ok := resolve(d, field, ref)
				if !ok {
					continue
				}
				mirror := map[string]string{"links.blocks": "links.blocked_by", "links.blocked_by": "links.blocks"}[field]
				if mirror != "" && !slices.Contains(target.fm[mirror], d.fm["id"][0]) {
					t.Errorf("%s: %s %s is not mirrored in %s", d.path, field, ref, target.path)
				}
			}
		}

		links := 0
		for _, m := range mdLinkRE.FindAllStringSubmatch(d.body, -1) {
			target, anchor, _ := strings.Cut(m[1], "#")
			if strings.HasPrefix(target, "https://") {
				continue
			}
			links++
			tp := d.path
			if target != "" {
				tp = path.Join(path.Dir(d.path), target)
			}
			td, ok := docs[tp]
			if !ok {
				t.Errorf("%s: link %s: no such file", d.path, m[1])
				continue
			}
			if anchor != "" && !hasHeading(td.body, anchor) {
				t.Errorf("%s: link %s: no such heading", d.path, m[1])
			}
		}
		for _, m := range wikiLinkRE.FindAllStringSubmatch(d.body, -1) {
			links++
			td, ok := stems[m[1]]
			if !ok {
				t.Errorf("%s: wiki-link %s: no such file", d.path, m[0])
				continue
			}
			if m[2] != "" && !hasHeading(td.body, githubSlug(m[2])) {
				t.Errorf("%s: wiki-link %s: no such heading", d.path, m[0])
			}
		}
		if d.fm["type"] != nil {
			if links < 3 || links > 8 {
				t.Errorf("%s: %d links in the body, want 3-6 (plus an optional self link)", d.path, links)
			}
			if n := len(d.body); n < 800 || n > 5000 {
				t.Errorf("%s: body is %d bytes, want about 1-4 KB", d.path, n)
			}
			var sections []string
			for _, h := range headingRE.FindAllStringSubmatch(d.body, -1) {
				sections = append(sections, h[1])
			}
			if !slices.Equal(sections, itemSections) {
				t.Errorf("%s: sections %q", d.path, sections)
			}
		}
	}
}

func hasHeading(body, slug string) bool {
	for _, h := range headingRE.FindAllStringSubmatch(body, -1) {
		if githubSlug(h[1]) == slug {
			return true
		}
	}
	return false
}

func TestKindCounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		n    int
		want [5]int // epic, feature, story, task, bug
	}{
		{"smallest", 5, [5]int{1, 1, 1, 1, 1}},
		{"200", 200, [5]int{4, 16, 50, 100, 30}},
		{"100k", 100000, [5]int{2000, 8000, 25000, 50000, 15000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := kindCounts(tc.n)
			if err != nil || got != tc.want {
				t.Errorf("kindCounts(%d) = %v, %v; want %v", tc.n, got, err, tc.want)
			}
		})
	}
	if _, err := kindCounts(4); err == nil {
		t.Error("kindCounts(4) should fail")
	}
}

func TestRelPath(t *testing.T) {
	t.Parallel()
	items := productRoot + "/items"
	for _, tc := range []struct{ from, to, want string }{
		{items + "/task/0000", items + "/task/0000", "f.md"},
		{items + "/task/0000", items + "/task/0100", "../0100/f.md"},
		{items + "/task/0000", items + "/epic/0000", "../../epic/0000/f.md"},
		{items + "/bug/0300", productRoot + "/decisions", "../../../decisions/f.md"},
		{productRoot + "/decisions", items + "/feature/0000", "../items/feature/0000/f.md"},
	} {
		if got := relPath(tc.from, tc.to, "f.md"); got != tc.want {
			t.Errorf("relPath(%s, %s) = %s, want %s", tc.from, tc.to, got, tc.want)
		}
	}
}

func TestRefusesNonEmptyOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "keep.md"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-n", "10", "-out", dir}, &bytes.Buffer{}); err == nil {
		t.Fatal("generating into a non-empty folder should fail")
	}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := git(dir, gitEpoch, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGitIsReproducible: the same flags give the same commit, and touches on top of it too.
func TestGitIsReproducible(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	tmp := t.TempDir()
	// As if run from a git hook: these must not leak into the corpus repository.
	elsewhere := filepath.Join(tmp, "not-this-repo")
	t.Setenv("GIT_DIR", elsewhere)
	t.Setenv("GIT_INDEX_FILE", filepath.Join(elsewhere, "index"))
	t.Setenv("GIT_WORK_TREE", elsewhere)
	defer func() {
		if _, err := os.Stat(elsewhere); err == nil {
			t.Errorf("git wrote to $GIT_DIR %s", elsewhere)
		}
	}()
	var heads []string
	for _, name := range []string{"a", "b"} {
		dir := filepath.Join(tmp, name)
		gen(t, dir, "-n", "60", "-adrs", "3", "-seed", "5", "-git")
		if st := gitOut(t, dir, "status", "--porcelain"); st != "" {
			t.Fatalf("working tree not clean after -git:\n%s", st)
		}
		if n := gitOut(t, dir, "count-objects", "-v"); !strings.Contains(n, "\ncount: 0\n") && !strings.HasPrefix(n, "count: 0\n") {
			t.Errorf("loose objects left after gc:\n%s", n)
		}
		gen(t, dir, "-touch", "3", "-seed", "5")
		gen(t, dir, "-touch", "2", "-seed", "5", "-branch", "wide")
		heads = append(heads, gitOut(t, dir, "rev-parse", "main", "wide"))

		changed := strings.Fields(gitOut(t, dir, "diff-tree", "-r", "--name-only", "--no-commit-id", "main~1", "main"))
		if len(changed) != 3 {
			t.Fatalf("touch 3 changed %v", changed)
		}
		diff := gitOut(t, dir, "diff", "-U0", "main~1", "main", "--", changed[0])
		if added := strings.Count(diff, "\n+2025-01-01 13:00 [agent=gencorpus] Touched in round 1:"); added != 1 {
			t.Errorf("touch diff adds %d worklog lines, want 1:\n%s", added, diff)
		}
		if got := gitOut(t, dir, "rev-parse", "--abbrev-ref", "HEAD"); got != "wide" {
			t.Errorf("HEAD is on %s after -branch wide", got)
		}
		if st := gitOut(t, dir, "status", "--porcelain"); st != "" {
			t.Errorf("working tree not clean after -touch:\n%s", st)
		}
	}
	if heads[0] != heads[1] {
		t.Errorf("same flags, different commits:\n%s\n%s", heads[0], heads[1])
	}
}
