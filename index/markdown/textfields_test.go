package markdown

import "testing"

func TestQuoteTextFields(t *testing.T) {
	fields := []string{"assignee", "reporter", "due_date"}
	cases := []struct{ in, want string }{
		{"assignee: @MrLesk", `assignee: "@MrLesk"`},
		{"assignee: @MrLesk # owner", `assignee: "@MrLesk" # owner`},
		{"  reporter: @a\r", "  reporter: \"@a\"\r"},
		{"assignee: [@a, \"b\", c]", "assignee: [\"@a\", \"b\", c]"},
		{"assignee: []", "assignee: []"},
		{"assignee: '@a'", "assignee: '@a'"},
		{"assignee:", "assignee:"},
		{"assignee: ~", "assignee: ~"},
		{"assignee:\n  - @a", "assignee:\n  - @a"}, // a block list: as Backlog.md, left alone
		{"due_date: 2025-01-02 10:00", `due_date: "2025-01-02 10:00"`},
		{"title: @not-a-text-field", "title: @not-a-text-field"},
		{`assignee: a "b"`, `assignee: "a \"b\""`},
	}
	for _, c := range cases {
		if got := string(QuoteTextFields([]byte(c.in), fields)); got != c.want {
			t.Errorf("QuoteTextFields(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestTextFieldsParse: with the fields Backlog.md reads as text, its
// frontmatter parses, and the value keeps its line and column.
func TestTextFieldsParse(t *testing.T) {
	src := "---\nid: BACK-1\nassignee: @MrLesk\n---\n# x\n"
	if d := Parse("a.md", []byte(src), &Options{}); len(d.Problems) != 1 || d.Problems[0].Rule != RuleYAMLSyntax {
		t.Fatalf("without text fields: problems %+v, want one yaml-syntax", d.Problems)
	}
	d := Parse("a.md", []byte(src), &Options{TextFields: []string{"assignee"}})
	if len(d.Problems) != 0 || d.ID != "BACK-1" {
		t.Fatalf("with text fields: problems %+v, id %q", d.Problems, d.ID)
	}
	f := d.Frontmatter.Field("assignee")
	if s, _ := f.Value.Scalar(); s != "@MrLesk" || f.Value.Line != 3 || f.Value.Col != 11 {
		t.Fatalf("assignee = %q at %d:%d, want @MrLesk at 3:11", s, f.Value.Line, f.Value.Col)
	}
}
