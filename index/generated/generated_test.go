package generated

import (
	"strings"
	"testing"

	"github.com/canon-md/canon/index/markdown"
)

func TestGeneratedReason(t *testing.T) {
	t.Parallel()
	links := strings.Repeat("- [[KB-1|KB-1 Retry webhooks]] (state: Done)\n", 12)
	for _, c := range []struct {
		name, path, content, want string
	}{
		{"marker", "docs/report.md", "---\ngenerated: true\n---\n# Report\nText.\n", Marker},
		{"marker as text", "docs/report.md", "---\ngenerated: \"yes\"\n---\n# Report\n", Marker},
		{"marker false", "docs/report.md", "---\ngenerated: false\n---\n# Report\n", ""},
		{"kano stamp", "out/Dashboard.md", "# Active\n\n<!-- kano:build\nvcs.hash: 1\n-->\n\nSource: items\n", KanoBuild},
		{"stamp quoted in code", "items/FTR-1.md", "# Spec\n\n" + strings.Repeat("text\n", 12) + "```html\n<!-- kano:build\n-->\n```\n", ""},
		{"kano views", "_kano/backlog/products/p/views/snapshots/all.md", "# Snapshot\nText.\n", Path},
		{"views outside kano", "web/views/page.md", "# Page\nText.\n", ""},
		{"index stub", "items/KB-FTR-1_x.index.md", "# MOC\nText.\n", Path},
		{"generated brief", "topics/t/brief.generated.md", "# Brief\nText.\n", Path},
		{"list of links", "docs/all.md", "# All\n\n" + links, List},
		{"links with prose", "docs/guide.md", "# Guide\n\n" + links + strings.Repeat("A sentence of prose that explains.\n", 4), ""},
		{"few links", "docs/see.md", "# See\n\n" + strings.Repeat("- [a](a.md)\n", 11), ""},
		{"links with long notes", "docs/notes.md", "# Notes\n\n" + strings.Repeat("- [a](a.md): a note that says much more than a state, at length.\n", 12), ""},
	} {
		d := markdown.Parse(c.path, []byte(c.content), &markdown.Options{})
		if got := Reason(c.path, d, []byte(c.content)); got != c.want {
			t.Errorf("%s: Reason = %q, want %q", c.name, got, c.want)
		}
	}
	if got := OnRename(List, "docs/x.md"); got != List {
		t.Errorf("a content reason is kept on rename: %q", got)
	}
	if got := OnRename(Path, "docs/x.md"); got != "" {
		t.Errorf("a path reason is recomputed on rename: %q", got)
	}
}
