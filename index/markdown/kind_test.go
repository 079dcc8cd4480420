package markdown

import "testing"

func TestKind(t *testing.T) {
	t.Parallel()
	kinds := map[string]string{"adr": "adr", "task": "task"}
	for _, tt := range []struct {
		typ, id, path, want string
	}{
		{"", "ADR-0004", "docs/decisions/ADR-0004_tokens.md", "adr"},
		{"", "KABSD-ADR-0010", "decisions/x.md", "adr"},
		{"", "", "docs/decisions/ADR-0004_tokens.md", "adr"},
		{"", "", "decisions/ADR-12.md", "adr"},
		{"", "", "decisions/adr_0003 title.md", "adr"},
		{"", "", "decisions/README.md", "doc"},
		{"", "", "decisions/ADR-0003-appendix_x.md", "doc"},
		{"", "", "decisions/ADR-0003_annex-costs.md", "doc"},
		{"", "", "decisions/index.md", "doc"},
		{"", "ADR-0003-APPENDIX", "decisions/ADR-0003-appendix.md", "doc"},
		{"", "NOTE-1", "decisions/ADR-0001_x.md", "doc"}, // an id that is not an ADR's decides
		{"", "", "notes/adresses.md", "doc"},
		{"Task", "ADR-0001", "x.md", "task"},
		{"Playbook", "", "decisions/ADR-0001.md", "Playbook"},
	} {
		if got := Kind(tt.typ, tt.id, tt.path, kinds); got != tt.want {
			t.Errorf("Kind(%q, %q, %q) = %q, want %q", tt.typ, tt.id, tt.path, got, tt.want)
		}
	}
}
