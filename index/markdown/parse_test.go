package markdown

import "testing"

func TestIsTemplate(t *testing.T) {
	for p, want := range map[string]bool{
		"docs/adr/template.md": true, "template/adr-template.md": true, ".github/ISSUE_TEMPLATE/bug.md": true,
		"PULL_REQUEST_TEMPLATE.md": true, "docs/templates/task.md": false, "content/en/templates/types.md": false, "content/en/functions/go-template/define.md": false, "task-templates.md": true, "packages/init/assets/template.md": true,
		"docs/templating.md": false, "docs/adr/0005-template-engine.md": false, "templated.md": false, "docs/a.md": false,
	} {
		if got := IsTemplate(p); got != want {
			t.Errorf("IsTemplate(%q) = %v, want %v", p, got, want)
		}
	}
}
