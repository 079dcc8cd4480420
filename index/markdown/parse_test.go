package markdown

import (
	"strings"
	"testing"
)

func TestIsTemplate(t *testing.T) {
	for p, want := range map[string]bool{
		"docs/adr/template.md": true, "template/adr-template.md": true, ".github/ISSUE_TEMPLATE/bug.md": true,
		"PULL_REQUEST_TEMPLATE.md": true, "docs/templates/task.md": false, "content/en/templates/types.md": false, "content/en/functions/go-template/define.md": false, "task-templates.md": false, "packages/init/assets/template.md": true,
		"docs/templating.md": false, "docs/adr/0005-template-engine.md": false, "templated.md": false, "docs/a.md": false, "doc/adr/0004-use-issue-templates.md": false, "BET-TSK-0002_render-email-template.md": false, "issue_template.md": true, "docs/adr-template.md": true,
	} {
		if got := IsTemplate(p); got != want {
			t.Errorf("IsTemplate(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestLinkRelation(t *testing.T) {
	src := "# 3. Use Y\n\n## Status\n\nSuperseded by [4. Use Z](0004-use-z.md)\n\nSupersedes [2. Use X](0002-use-x.md)\n\n- Status: superseded by [ADR-5](0005-x.md)\n* **Status**: Supersedes: [ADR-1](0001-a.md)\n\nSee [the notes](notes.md), not superseded by anything; supersedesx [y](y.md).\nIt is not superseded by [z](z.md); ADR-7, which supersedes [w](w.md).\n"
	var got []string
	for _, l := range ScanBody([]byte(src), 1).Links {
		got = append(got, l.Dest+"="+l.Rel)
	}
	want := []string{"0004-use-z.md=supersedes", "0002-use-x.md=supersedes", "0005-x.md=supersedes", "0001-a.md=supersedes", "notes.md=", "y.md=", "z.md=", "w.md="}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("links %v, want %v", got, want)
	}
}
