package learn

import (
	"slices"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
)

// TestTemplatesLearned: files named templates, GitHub's under .github/,
// and documents whose frontmatter holds placeholders are learned, a folder
// of them as one glob; an item with an id of its own named like a
// template, a page about templates and a value with an address in angle
// brackets are not.
func TestTemplatesLearned(t *testing.T) {
	f := newFacts()
	cfg := config.Default()
	g := &gathered{names: map[string]bool{}, pages: map[string]bool{}, folders: map[string]bool{}, numbers: map[string]map[string]bool{}}
	for _, d := range []docRow{
		{path: "eip-template.md", fm: `{"title":"<The EIP title>","created":"<date created on, in ISO 8601 (yyyy-mm-dd) format>"}`},
		{path: ".github/PULL_REQUEST_TEMPLATE/advance-to-released.md"},
		{path: ".github/PULL_REQUEST_TEMPLATE/advance-to-recommended.md"},
		{path: ".github/CONTRIBUTING.md"},
		{path: "0000-template.md", fm: `{"stage":"accepted"}`},
		{path: "drafts/new-thing.md", fm: `{"title":"{{title}}","id":"RFC-XXXX"}`},
		{path: "tasks/BET-TSK-0002_render-email-template.md", ident: "BET-TSK-0002", fm: `{"id":"BET-TSK-0002"}`},
		{path: "docs/use-issue-templates.md"},
		{path: "EIPS/eip-1.md", fm: `{"author":"<a@b.org>","discussions-to":"<https://x.org>"}`},
		{path: "notes/one.md", fm: `{"due":"YYYY-MM-DD"}`},
	} {
		f.readDoc(g, cfg, d)
	}
	r := decide(f)
	want := []string{".github/PULL_REQUEST_TEMPLATE/*.md", "0000-template.md", "drafts/new-thing.md", "eip-template.md"}
	if !slices.Equal(r.Learned.Templates, want) {
		t.Fatalf("templates = %q, want %q", r.Learned.Templates, want)
	}
	ev := r.Evidence["templates"]
	for _, s := range []string{".github/PULL_REQUEST_TEMPLATE/*.md (2 files: a template of GitHub's under .github/)", "eip-template.md (named a template, placeholders in created, title)", "drafts/new-thing.md (placeholders in id, title)"} {
		if !strings.Contains(ev, s) {
			t.Errorf("evidence %q lacks %q", ev, s)
		}
	}
	if !strings.Contains(r.Block(), "  templates: ['.github/PULL_REQUEST_TEMPLATE/*.md', 0000-template.md, drafts/new-thing.md, eip-template.md]\n") {
		t.Fatalf("block:\n%s", r.Block())
	}
	c := config.Default()
	c.Templates = r.Learned.Templates
	for p, want := range map[string]bool{".github/PULL_REQUEST_TEMPLATE/advance-to-released.md": true, ".github/PULL_REQUEST_TEMPLATE/x/y.md": false, "eip-template.md": true, "EIPS/eip-1.md": false} {
		if c.IsTemplate(p) != want {
			t.Errorf("IsTemplate(%q) = %v", p, !want)
		}
	}
}
